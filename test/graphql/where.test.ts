// `where` selects exactly what the same condition selects as an OData $filter on the REST
// door (both compile to one filter tree); values that parse but do not fit are INVALID_QUERY,
// unknown fields fail GraphQL validation.

import request from 'supertest';
import { articlePriceFields } from '../../src/domain/article-price/fields';
import { addressFields } from '../../src/domain/address/fields';
import { parseODataOptions } from '../../src/rest/odata/options';
import { createTestApp, type TestApp, bearer } from '../support/app';
import { fixture } from '../support/fixture';
import { gql, gqlOk } from '../support/graphql';

let t: TestApp;
const taxCode = fixture.taxCodes.find((c) => c.code === 'V19')!;
const someCustomer = fixture.customers[5]!;

beforeAll(async () => {
  t = await createTestApp();
  await t.db.prisma.customer.updateMany({ where: { id: { in: fixture.customers.slice(0, 10).map((c) => c.id) } }, data: { email: null } });
  await t.db.prisma.customer.update({ where: { id: fixture.customers[11]!.id }, data: { lastName: 'Wild_10%\\Card' } });
});
afterAll(async () => {
  await t.close();
});

type Case = [list: string, where: string, path: string, filter: string];

const CASES: Case[] = [
  ['paymentSources', '{ isActive: { eq: true } }', 'payment-sources', 'isActive eq true'],
  ['paymentSources', '{ isDefault: { ne: true } }', 'payment-sources', 'isDefault ne true'],
  [
    'paymentSources',
    '{ sourceType: { in: [BankTransfer, Cash, Check] } }',
    'payment-sources',
    "sourceType in ('BankTransfer','Cash','Check')",
  ],
  ['paymentSources', '{ sourceType: { gt: DebitCard } }', 'payment-sources', "sourceType gt 'DebitCard'"],
  ['paymentSources', '{ code: { eq: "ueb", ignoreCase: true } }', 'payment-sources', "tolower(code) eq 'ueb'"],
  [
    'paymentSources',
    '{ description: { isNull: false }, NOT: { code: { startsWith: "S" } } }',
    'payment-sources',
    "description ne null and not startswith(code,'S')",
  ],
  ['customers', '{ lastName: { startsWith: "M" } }', 'customers', "startswith(lastName,'M')"],
  ['customers', '{ lastName: { contains: "10%" } }', 'customers', "contains(lastName,'10%')"],
  ['customers', '{ lastName: { contains: "_" } }', 'customers', "contains(lastName,'_')"],
  ['customers', '{ lastName: { endsWith: "\\\\Card" } }', 'customers', "endswith(lastName,'\\Card')"],
  ['customers', '{ email: { isNull: true } }', 'customers', 'email eq null'],
  ['customers', '{ email: { eq: null } }', 'customers', 'email eq null'],
  ['customers', '{ email: { ne: null } }', 'customers', 'email ne null'],
  ['customers', '{ email: { ne: "x@example.org" } }', 'customers', "email ne 'x@example.org'"],
  [
    'customers',
    '{ OR: [{ firstName: { contains: "AN", ignoreCase: true } }, { lastName: { lt: "C" } }] }',
    'customers',
    "contains(tolower(firstName),'an') or lastName lt 'C'",
  ],
  [
    'customers',
    '{ NOT: { OR: [{ lastName: { ge: "M" } }, { creditorNumber: { isNull: false } }] } }',
    'customers',
    "not (lastName ge 'M' or creditorNumber ne null)",
  ],
  [
    'customers',
    `{ id: { in: ["${someCustomer.id.toUpperCase()}", "${fixture.customers[7]!.id}"] } }`,
    'customers',
    `id in (${someCustomer.id}, ${fixture.customers[7]!.id})`,
  ],
  ['customers', '{ debtorNumber: { in: [] } }', 'customers', 'debtorNumber in ()'],
  ['customers', '{ AND: [] }', 'customers', ''],
  ['customers', '{ OR: [] }', 'customers', 'debtorNumber in ()'],
  ['taxCodes', '{ rate: { gt: 7 } }', 'tax-codes', 'rate gt 7'],
  ['taxCodes', '{ rate: { ge: "7.00", le: 16 } }', 'tax-codes', 'rate ge 7.00 and rate le 16'],
  ['taxCodes', '{ taxType: { eq: SALES_TAX } }', 'tax-codes', "taxType eq 'Sales Tax'"],
  ['taxCodes', '{ taxType: { in: [VAT, EXEMPT] } }', 'tax-codes', "taxType in ('VAT','Exempt')"],
  ['taxCodes', '{ validTo: { isNull: false } }', 'tax-codes', 'validTo ne null'],
  ['taxCodes', '{ validFrom: { lt: "2020-01-01" } }', 'tax-codes', 'validFrom lt 2020-01-01'],
  ['taxCodes', '{ validFrom: { ge: "2017-01-01T01:00:00+01:00" } }', 'tax-codes', 'validFrom ge 2017-01-01T00:00:00Z'],
  ['articles', `{ defaultTaxCodeId: { eq: "${taxCode.id}" } }`, 'articles', `defaultTaxCodeId eq ${taxCode.id}`],
  [
    'articles',
    '{ useArticleCostCenter: { eq: true }, isActive: { eq: true } }',
    'articles',
    'useArticleCostCenter eq true and isActive eq true',
  ],
  ['articles', '{ updatedAt: { isNull: true } }', 'articles', 'updatedAt eq null'],
  ['academicTerms', '{ startDate: { ge: "2025-01-01T00:00:00Z" } }', 'academic-terms', 'startDate ge 2025-01-01T00:00:00Z'],
  [
    'academicTerms',
    '{ code: { startsWith: "WS" }, statisticalSemester: { ne: null } }',
    'academic-terms',
    "startswith(code,'WS') and statisticalSemester ne null",
  ],
  [
    'accounts',
    '{ type: { in: [Asset, Revenue] }, isActive: { eq: true } }',
    'accounts',
    "type in ('Asset','Revenue') and isActive eq true",
  ],
  ['accounts', '{ type: { le: Equity } }', 'accounts', "type le 'Equity'"],
];

describe.each(CASES)('%s(where: %s)', (list, where, path, filter) => {
  it(`selects what GET /api/v1/${path}?$filter=${filter} selects`, async () => {
    const data = await gqlOk(t, `{ ${list}(first: 1000, where: ${where}) { totalCount nodes { id } } }`);
    const res = await request(t.http)
      .get(`/api/v1/${path}`)
      .query({ ...(filter ? { $filter: filter } : {}), $top: '1000', $count: 'true' })
      .set(bearer(t.tokens.reader))
      .expect(200);
    const expected = res.body.value.map((r: { id: string }) => r.id);
    expect(data[list].nodes.map((n: { id: string }) => n.id)).toEqual(expected);
    expect(data[list].totalCount).toBe(res.body['@odata.count']);
  });
});

it('where given as a variable selects the same', async () => {
  const data = await gqlOk(t, 'query($w: TaxCodeWhere) { taxCodes(where: $w) { nodes { id } } }', {
    w: { rate: { gt: '7' }, taxType: { eq: 'VAT' } },
  });
  const lit = await gqlOk(t, '{ taxCodes(where: { rate: { gt: 7 }, taxType: { eq: VAT } }) { nodes { id } } }');
  expect(data).toEqual(lit);
  expect(data.taxCodes.nodes.length).toBeGreaterThan(0);
});

it.each([
  [
    'articlePrices',
    '{ amount: { ge: 500 }, validFrom: { lt: "2020-01-01" } }',
    'amount ge 500 and validFrom lt 2020-01-01',
    () => t.services.articlePrices,
    articlePriceFields,
  ],
  [
    'addresses',
    '{ isDefault: { eq: false }, city: { startsWith: "Frei" } }',
    "isDefault eq false and startswith(city,'Frei')",
    () => t.services.addresses,
    addressFields,
  ],
] as const)('%s(where:) selects what the same $filter selects in the service layer', async (list, where, filter, reads, fields) => {
  const data = await gqlOk(t, `{ ${list}(first: 1000, where: ${where}) { nodes { id } } }`);
  const o = parseODataOptions({ $filter: filter }, fields);
  const page = await reads().list({ filter: o.filter, limit: 1000 });
  expect(data[list].nodes.map((n: { id: string }) => n.id)).toEqual(page.items.map((r) => r.id));
  expect(page.items.length).toBeGreaterThan(0);
});

describe('faults', () => {
  it('an unknown field or operator in where fails GraphQL validation', async () => {
    for (const where of ['{ nope: { eq: 1 } }', '{ code: { like: "x" } }', '{ isActive: { gt: true } }']) {
      const res = await gql(t, `{ paymentSources(where: ${where}) { nodes { id } } }`);
      expect(res.status).toBe(400);
      expect(res.errors?.[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    }
  });

  it('an unknown field in a where variable is VALIDATION_FAILED naming it', async () => {
    const res = await gql(t, 'query($w: PaymentSourceWhere) { paymentSources(where: $w) { nodes { id } } }', { w: { nope: { eq: 1 } } });
    expect(res.status).toBe(400);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'nope' });
  });

  it('a where value that parses but does not fit is INVALID_QUERY naming its path', async () => {
    const cases: Array<[string, string]> = [
      ['{ code: { gt: "A", ignoreCase: true } }', 'where.code'],
      ['{ OR: [{ isActive: { eq: true } }, { description: { lt: "x", ignoreCase: true } }] }', 'where.OR[1].description'],
      ['{ code: { isNull: null } }', 'where.code.isNull'],
    ];
    for (const [where, path] of cases) {
      const res = await gql(t, `{ paymentSources(where: ${where}) { nodes { id } } }`);
      expect(res.errors?.[0]?.extensions.code).toBe('INVALID_QUERY');
      expect(res.errors?.[0]?.message).toContain(path);
    }
  });

  it('a malformed value of a typed filter is VALIDATION_FAILED', async () => {
    for (const where of [
      '{ id: { eq: "abc" } }',
      '{ createdAt: { lt: "yesterday" } }',
      '{ createdAt: { ge: "2026-01-01T00:00:00.0001Z" } }',
    ]) {
      const res = await gql(t, `{ paymentSources(where: ${where}) { nodes { id } } }`);
      expect(res.errors?.[0]?.extensions.code).toBe('VALIDATION_FAILED');
    }
    const dec = await gql(t, '{ taxCodes(where: { rate: { eq: "7,5" } }) { nodes { id } } }');
    expect(dec.errors?.[0]?.extensions.code).toBe('VALIDATION_FAILED');
  });
});
