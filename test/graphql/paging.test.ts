// Paging through whole lists: cursor paging (`after:` endCursor) and offset paging give
// every record exactly once, in the order of `orderBy` (ties by id), for ascending and
// descending keys, nullable fields, booleans, enums and decimals; the order is the REST
// door's $orderby order.

import request from 'supertest';
import { createTestApp, type TestApp, bearer } from '../support/app';
import { fixture } from '../support/fixture';
import { gql, gqlOk } from '../support/graphql';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  // Give the nullable sort keys a mix of nulls and ties.
  const customers = fixture.customers.map((c) => c.id).sort();
  await t.db.prisma.customer.updateMany({ where: { id: { in: customers.filter((_, i) => i % 3 === 0) } }, data: { email: null } });
  await t.db.prisma.customer.updateMany({
    where: { id: { in: customers.filter((_, i) => i % 4 === 0) } },
    data: { creditorNumber: 'K-1' },
  });
  const articles = fixture.articles.map((a) => a.id).sort();
  for (const [i, id] of articles.entries()) {
    if (i % 2 === 0) await t.db.prisma.article.update({ where: { id }, data: { updatedAt: new Date(Date.UTC(2026, 0, 1 + (i % 5))) } });
  }
});
afterAll(async () => {
  await t.close();
});

interface Case {
  readonly list: string;
  readonly orderBy: string;
  /** The same order as an OData $orderby, when the REST door lists the resource. */
  readonly rest?: [path: string, orderby: string];
}

const CASES: Case[] = [
  { list: 'customers', orderBy: '[]', rest: ['customers', ''] },
  { list: 'customers', orderBy: '[{ lastName: ASC }]', rest: ['customers', 'lastName asc'] },
  { list: 'customers', orderBy: '[{ lastName: DESC }, { firstName: ASC }]', rest: ['customers', 'lastName desc,firstName asc'] },
  { list: 'customers', orderBy: '[{ email: ASC }]', rest: ['customers', 'email asc'] },
  { list: 'customers', orderBy: '[{ email: DESC }]', rest: ['customers', 'email desc'] },
  {
    list: 'customers',
    orderBy: '[{ creditorNumber: DESC }, { lastName: DESC }]',
    rest: ['customers', 'creditorNumber desc,lastName desc'],
  },
  { list: 'customers', orderBy: '[{ receivableAccountId: ASC }]', rest: ['customers', 'receivableAccountId asc'] },
  { list: 'customers', orderBy: '[{ id: DESC }]', rest: ['customers', 'id desc'] },
  { list: 'articles', orderBy: '[{ updatedAt: DESC }]', rest: ['articles', 'updatedAt desc'] },
  { list: 'articles', orderBy: '[{ updatedAt: ASC }, { code: DESC }]', rest: ['articles', 'updatedAt asc,code desc'] },
  {
    list: 'articles',
    orderBy: '[{ isActive: ASC }, { defaultTaxCodeId: DESC }]',
    rest: ['articles', 'isActive asc,defaultTaxCodeId desc'],
  },
  { list: 'taxCodes', orderBy: '[{ rate: DESC }]', rest: ['tax-codes', 'rate desc'] },
  { list: 'taxCodes', orderBy: '[{ taxType: ASC }]', rest: ['tax-codes', 'taxType asc'] },
  { list: 'taxCodes', orderBy: '[{ validTo: DESC }]', rest: ['tax-codes', 'validTo desc'] },
  { list: 'paymentSources', orderBy: '[{ sourceType: DESC }]', rest: ['payment-sources', 'sourceType desc'] },
  { list: 'paymentSources', orderBy: '[{ isDefault: DESC }, { code: ASC }]', rest: ['payment-sources', 'isDefault desc,code asc'] },
  { list: 'academicTerms', orderBy: '[{ startDate: DESC }]', rest: ['academic-terms', 'startDate desc'] },
  { list: 'accounts', orderBy: '[{ type: ASC }, { isActive: DESC }]', rest: ['accounts', 'type asc,isActive desc'] },
  { list: 'addresses', orderBy: '[{ isDefault: DESC }, { addressType: ASC }]' },
  { list: 'addresses', orderBy: '[{ country: DESC }]' },
  { list: 'articlePrices', orderBy: '[{ amount: ASC }]' },
  { list: 'articlePrices', orderBy: '[{ validFrom: DESC }, { articleId: ASC }]' },
];

/** Several pages for every list: a quarter of it (at least 2), at most 7. */
const pageOf = (n: number): number => Math.min(7, Math.max(2, Math.ceil(n / 4)));

async function all(c: Case): Promise<string[]> {
  const data = await gqlOk(t, `{ ${c.list}(first: 1000, orderBy: ${c.orderBy}) { totalCount nodes { id } } }`);
  const ids = data[c.list].nodes.map((n: { id: string }) => n.id);
  expect(ids).toHaveLength(data[c.list].totalCount);
  return ids;
}

describe.each(CASES)('$list orderBy $orderBy', (c) => {
  it('cursor paging gives every record once, in order', async () => {
    const expected = await all(c);
    const PAGE = pageOf(expected.length);
    expect(expected.length).toBeGreaterThan(2 * PAGE);
    const seen: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const data: Record<string, { nodes: Array<{ id: string }>; pageInfo: { hasNextPage: boolean; endCursor: string | null } }> =
        await gqlOk(
          t,
          `query($after: String) { ${c.list}(first: ${PAGE}, after: $after, orderBy: ${c.orderBy}) { nodes { id } pageInfo { hasNextPage endCursor } } }`,
          { after },
        );
      const conn = data[c.list]!;
      seen.push(...conn.nodes.map((n: { id: string }) => n.id));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('offset paging gives the same order, and an edge cursor continues right after its record', async () => {
    const expected = await all(c);
    const PAGE = pageOf(expected.length);
    const seen: string[] = [];
    for (let offset = 0; offset < expected.length; offset += PAGE) {
      const data = await gqlOk(t, `{ ${c.list}(first: ${PAGE}, offset: ${offset}, orderBy: ${c.orderBy}) { nodes { id } } }`);
      seen.push(...data[c.list].nodes.map((n: { id: string }) => n.id));
    }
    expect(seen).toEqual(expected);
    const edges = (await gqlOk(t, `{ ${c.list}(first: 5, orderBy: ${c.orderBy}) { edges { cursor node { id } } } }`))[c.list].edges;
    const rest = await gqlOk(t, `query($after: String) { ${c.list}(first: 1000, after: $after, orderBy: ${c.orderBy}) { nodes { id } } }`, {
      after: edges[2].cursor,
    });
    expect(rest[c.list].nodes.map((n: { id: string }) => n.id)).toEqual(expected.slice(3));
  });

  if (c.rest) {
    const [path, orderby] = c.rest;
    it(`is the order of GET /api/v1/${path}?$orderby=${orderby}`, async () => {
      const expected = await all(c);
      const res = await request(t.http)
        .get(`/api/v1/${path}`)
        .query({ $top: '1000', ...(orderby ? { $orderby: orderby } : {}) })
        .set(bearer(t.tokens.reader))
        .expect(200);
      expect(res.body.value.map((r: { id: string }) => r.id)).toEqual(expected);
    });
  }
});

describe('paging faults', () => {
  it('a cursor made for another order, or one that does not decode, is INVALID_QUERY', async () => {
    const data = await gqlOk(t, '{ customers(first: 2, orderBy: [{ lastName: ASC }]) { pageInfo { endCursor } } }');
    const cursor = data.customers.pageInfo.endCursor;
    for (const [after, orderBy] of [
      [cursor, '[{ lastName: DESC }]'],
      [cursor, '[]'],
      ['not a cursor', '[]'],
      ['eyJrIjpbXX0', '[]'],
    ]) {
      const res = await gql(t, `query($after: String) { customers(after: $after, orderBy: ${orderBy}) { nodes { id } } }`, { after });
      expect(res.errors?.[0]?.extensions.code).toBe('INVALID_QUERY');
      expect(res.data?.customers ?? null).toBeNull();
    }
  });

  it('an orderBy element naming no field, two fields, or a field again is INVALID_QUERY', async () => {
    for (const orderBy of ['[{}]', '[{ lastName: ASC, firstName: ASC }]', '[{ lastName: ASC }, { lastName: DESC }]']) {
      const res = await gql(t, `{ customers(orderBy: ${orderBy}) { nodes { id } } }`);
      expect(res.errors?.[0]?.extensions.code).toBe('INVALID_QUERY');
    }
  });
});
