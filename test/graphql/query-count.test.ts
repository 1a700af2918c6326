// Relations are batched (docs/service.md "GraphQL shape"): a page of N parents with relations costs
// the same number of SQL statements as a page of one. Counted as the database layer sends them.

import { randomUUID } from 'node:crypto';
import { fixture } from '../support/fixture';
import request from 'supertest';
import { bearer, createTestApp, token, type TestApp } from '../support/app';
import { gqlOk } from '../support/graphql';

let t: TestApp;
let statements: string[] = [];
/** Per list, a record that has every relation the tests ask for: the page of one. */
const full: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ onQuery: (sql) => statements.push(sql) });
  // Enough parents for full pages: 100+ customers with addresses, 50+ articles with prices.
  // Accounts that fit their uses (the database holds every record to that): an Asset, a Liability, a Revenue account.
  const fitting = (type: string) => fixture.accounts.find((a) => a.type === type && a.isActive)!;
  const [receivable, prepayment, revenue] = [fitting('Asset'), fitting('Liability'), fitting('Revenue')];
  const customers = Array.from({ length: 50 }, (_, i) => ({
    id: randomUUID(),
    firstName: `Q${i}`,
    lastName: `Count${i}`,
    debtorNumber: `QC-${i}`,
    receivableAccountId: receivable.id,
    prepaymentAccountId: prepayment.id,
  }));
  await t.db.prisma.customer.createMany({ data: customers });
  await t.db.prisma.address.createMany({
    data: customers.flatMap((c, i) =>
      Array.from({ length: 1 + (i % 3) }, (_, j) => ({
        id: randomUUID(),
        customerId: c.id,
        addressType: ['Billing', 'Home', 'Correspondence'][j]!,
        street: 'S',
        city: 'C',
        postalCode: 'P',
        country: 'DE',
        isDefault: j === 0,
      })),
    ),
  });
  const taxCodeId = fixture.taxCodes[0]!.id;
  const articles = Array.from({ length: 30 }, (_, i) => ({
    id: randomUUID(),
    code: `QC-A${i}`,
    name: `Article ${i}`,
    defaultTaxCodeId: taxCodeId,
    revenueAccountId: revenue.id,
    createdById: randomUUID(),
  }));
  await t.db.prisma.article.createMany({ data: articles });
  await t.db.prisma.articlePrice.createMany({
    data: articles.flatMap((a, i) =>
      Array.from({ length: 1 + (i % 3) }, (_, j) => ({
        id: randomUUID(),
        articleId: a.id,
        amount: `${10 + j}.5`,
        validFrom: new Date(Date.UTC(2020 + j, 0, 1)),
      })),
    ),
  });
  const sources = fixture.paymentSources.filter((s) => s.isActive).map((s) => s.id);
  await t.db.prisma.payment.createMany({
    data: customers.map((c, i) => ({
      id: randomUUID(),
      paymentSourceId: sources[i % sources.length]!,
      customerId: c.id,
      amount: '1.5',
      receivedAt: new Date(),
      createdById: randomUUID(),
    })),
  });
  const payment = await t.db.prisma.payment.findFirstOrThrow({ where: { customerId: customers[0]!.id } });
  const price = await t.db.prisma.articlePrice.findFirstOrThrow({ where: { articleId: articles[0]!.id } });
  const address = await t.db.prisma.address.findFirstOrThrow({ where: { customerId: customers[0]!.id } });
  Object.assign(full, {
    customers: customers[0]!.id,
    articles: articles[0]!.id,
    taxCodes: fixture.taxCodes[0]!.id,
    paymentSources: payment.paymentSourceId,
    payments: payment.id,
    articlePrices: price.id,
    addresses: address.id,
    accounts: fixture.paymentSources[0]!.accountId,
  });
});
afterAll(async () => {
  await t.close();
});

/** The SQL statements one GraphQL request sends. */
async function count(query: string): Promise<string[]> {
  statements = [];
  await gqlOk(t, query);
  return statements;
}

/**
 * A page of 100, or the page of the one record that has every relation. Both filtered, so
 * both are read the same way (an unfiltered page is read as one statement with its
 * relations inside: see 'a plain page ...' below). A list of one id, not an equality: a page
 * whose filter holds the id to one value is read as one record is (below).
 */
const page = (list: string, n: 1 | 100): string =>
  n === 1
    ? `first: 1, where: { id: { in: ["${full[list]}"] } }`
    : 'first: 100, where: { id: { ne: "00000000-0000-4000-8000-000000000000" } }';
const CUSTOMERS = (n: 1 | 100) =>
  `{ customers(${page('customers', n)}) { nodes { id lastName addresses { id city isDefault } defaultAddress { id street } } } }`;
const ARTICLES = (n: 1 | 100) =>
  `{ articles(${page('articles', n)}) { nodes { id code prices { id amount validFrom } defaultTaxCode { id rate } } } }`;

it('100 customers with addresses and defaultAddress cost what 1 costs', async () => {
  const many = await count(CUSTOMERS(100));
  const one = await count(CUSTOMERS(1));
  expect(many.length).toBe(one.length);
  // The filtered page's ids, its records, their addresses (defaultAddress reads the same).
  expect(many.length).toBeLessThanOrEqual(3);
  const data = await gqlOk(t, CUSTOMERS(100));
  expect(data.customers.nodes).toHaveLength(100);
  expect((await gqlOk(t, ARTICLES(100))).articles.nodes.length).toBeGreaterThanOrEqual(50);
});

it("every record's etag of a page costs what one record's costs, each the ETag its REST read sends", async () => {
  const ETAGS = (n: 1 | 100) => `{ customers(${page('customers', n)}) { nodes { id etag } } }`;
  const many = await count(ETAGS(100));
  const one = await count(ETAGS(1));
  expect(many.length).toBe(one.length);
  const nodes = (await gqlOk<{ customers: { nodes: Array<{ id: string; etag: string }> } }>(t, ETAGS(100))).customers.nodes;
  expect(nodes).toHaveLength(100);
  for (const node of nodes.slice(0, 3)) {
    const rest = await request(t.http).get(`/api/v1/customers/${node.id}`).set(bearer(t.tokens.writer)).expect(200);
    expect(node.etag).toBe(rest.headers.etag);
  }
});

it('two updates of one record in one operation answer each the ETag after its own write', async () => {
  const id = full.customers!;
  const maintainer = await token('billing.read billing.maintain billing.pii');
  const data = await gqlOk<Record<'a' | 'b', { etag: string; creditorNumber: string }>>(
    t,
    `mutation($id: ID!) { a: updateCustomer(id: $id, input: { creditorNumber: "K-1" }) { etag creditorNumber } b: updateCustomer(id: $id, input: { creditorNumber: "K-2" }) { etag creditorNumber } }`,
    { id },
    maintainer,
  );
  expect(data.a.etag).not.toBe(data.b.etag);
  const rest = await request(t.http).get(`/api/v1/customers/${id}`).set(bearer(t.tokens.writer)).expect(200);
  expect(data.b.etag).toBe(rest.headers.etag);
});

it('50+ articles with prices and defaultTaxCode cost what 1 costs', async () => {
  const many = await count(ARTICLES(100));
  const one = await count(ARTICLES(1));
  expect(many.length).toBe(one.length);
  expect(many.length).toBeLessThanOrEqual(4);
});

// One list at a time: lists of one request finish at different moments on a server
// database, and whether two lists' relations share a batch would then depend on timing.
it.each([
  ['customers', 'receivableAccount { id } prepaymentAccount { id } payments { id } addresses { customer { id } }', 6],
  ['articles', 'revenueAccount { id } prices { article { id } } priceAt(date: "2025-01-01") { id } defaultTaxCode { id }', 7],
  ['taxCodes', 'taxAccount { id } revenueAccount { id }', 3],
  ['paymentSources', 'account { paymentSources { id } } payments { id paymentSource { id } customer { id } }', 6],
  ['payments', 'paymentSource { id } customer { id }', 3],
  ['articlePrices', 'article { id }', 2],
  ['addresses', 'customer { id }', 2],
  ['accounts', 'paymentSources { id }', 3],
])('%s: every relation is one statement, whatever the page size', async (list, relations, most) => {
  const q = (n: 1 | 100) => `{ ${list}(${page(list, n)}) { nodes { ${relations} } } }`;
  const many = await count(q(100));
  const one = await count(q(1));
  expect(many.length).toBe(one.length);
  // The list (those with a page source, customers, articles, tax codes, accounts: their ids
  // first, then the records) and one statement per relation at most.
  expect(many.length).toBeLessThanOrEqual(most);
});

it("a page is one statement, and the to-many relation the list reads with it one more by the page's ids", async () => {
  const customers = await count(
    '{ customers(first: 100, orderBy: [{ lastName: ASC }]) { nodes { id addresses { id } defaultAddress { id } } } }',
  );
  expect(customers).toHaveLength(2);
  expect(customers[1]).toMatch(/FROM "Address" r WHERE r\."customerId" = ANY\(/);
  const articles = await count('{ articles(first: 100, orderBy: [{ code: DESC }]) { nodes { id prices { id amount } } } }');
  expect(articles).toHaveLength(2);
  // To-one relations the query selects are read inside the page's statement.
  const more = await count('{ articles(first: 100) { nodes { id prices { id } defaultTaxCode { id } revenueAccount { id } } } }');
  expect(more).toHaveLength(2);
  expect(more[0]).toMatch(
    /LEFT JOIN "TaxCode" r0 ON r0\."id" = t\."defaultTaxCodeId" LEFT JOIN "Account" r1 ON r1\."id" = t\."revenueAccountId"/,
  );
  // One record with its relations: one statement (PostGraphile's shape).
  const article = await count(`{ article(id: "${full.articles}") { id prices { id } defaultTaxCode { id taxAccount { id } } } }`);
  expect(article).toHaveLength(2); // the article with its prices and tax code, then the tax code's account through the loader
});

it('a page whose filter holds the id or a unique field to one value reads its to-many relations inside its one statement, as one record by id', async () => {
  const customer = await t.db.prisma.customer.findUniqueOrThrow({ where: { debtorNumber: 'QC-2' }, include: { addresses: true } });
  expect(customer.addresses.length).toBe(3);
  const fields = 'id debtorNumber addresses { id city isDefault } defaultAddress { id } receivableAccount { code }';
  const byId = (await gqlOk(t, `{ customer(id: "${customer.id}") { ${fields} } }`)).customer;
  for (const where of [
    `{ debtorNumber: { eq: "QC-2" } }`,
    `{ id: { eq: "${customer.id}" } }`,
    // Another condition beside the equality (an AND) still matches one record at most.
    `{ debtorNumber: { eq: "QC-2" }, lastName: { startsWith: "Count" } }`,
  ]) {
    const sql = await count(`{ customers(where: ${where}) { nodes { ${fields} } } }`);
    expect(sql).toHaveLength(1);
    expect(sql[0]).toMatch(/array\(SELECT array\[.*\] FROM "Address" r\d WHERE r\d\."customerId" = t\."id" ORDER BY /);
    expect((await gqlOk(t, `{ customers(where: ${where}) { nodes { ${fields} } } }`)).customers.nodes).toEqual([byId]);
  }
  // The same record by a list of ids: its addresses after it, by the page's ids, the same values.
  const listed = await count(`{ customers(where: { id: { in: ["${customer.id}"] } }) { nodes { ${fields} } } }`);
  expect(listed).toHaveLength(2);
  expect(listed[1]).toMatch(/FROM "Address" r WHERE r\."customerId" = ANY\(/);
  expect((await gqlOk(t, `{ customers(where: { id: { in: ["${customer.id}"] } }) { nodes { ${fields} } } }`)).customers.nodes).toEqual([
    byId,
  ]);
  // An equality on a field many records share is a page like any other; one that matches nothing reads nothing more.
  expect(await count(`{ customers(where: { lastName: { eq: "Count2" } }) { nodes { ${fields} } } }`)).toHaveLength(2);
  const none = await count(`{ customers(where: { debtorNumber: { eq: "QC-none" } }) { nodes { ${fields} } } }`);
  expect(none).toHaveLength(1);
  // REST: the customer found by its debtor number holds its addresses, read in the one statement.
  statements = [];
  const rest = await request(t.http)
    .get(`/api/v1/customers?$filter=${encodeURIComponent("debtorNumber eq 'QC-2'")}`)
    .set(bearer(t.tokens.writer))
    .expect(200);
  expect(statements).toHaveLength(1);
  expect(rest.body.value).toHaveLength(1);
  expect(rest.body.value[0].addresses.map((a: { id: string }) => a.id).sort()).toEqual(customer.addresses.map((a) => a.id).sort());
});

describe("a relation of a page's to-many relation is read with it, by the parents' ids", () => {
  const SOURCES = '{ paymentSources(first: 100, orderBy: [{ code: ASC }]) { nodes { id payments { id amount receivedAt } } } }';

  it("accounts, their payment sources and those sources' payments: two statements, each source holding its own payments in order", async () => {
    const sql = await count(
      '{ accounts(first: 100, orderBy: [{ code: ASC }]) { nodes { id code paymentSources { id code payments { id amount receivedAt } } } } }',
    );
    expect(sql).toHaveLength(2);
    expect(sql[1]).toMatch(/FROM "PaymentSource" r WHERE r\."accountId" = ANY\(/);
    expect(sql[1]).toMatch(
      /array\(SELECT array\[.*\] FROM "Payment" r0 WHERE r0\."paymentSourceId" = r\."id" ORDER BY r0\."receivedAt" DESC, r0\."id" ASC\)/,
    );
    const data = await gqlOk(
      t,
      '{ accounts(first: 100, orderBy: [{ code: ASC }]) { nodes { id code paymentSources { id code payments { id amount receivedAt } } } } }',
    );
    const sources = data.accounts.nodes.flatMap((a: { paymentSources: Array<{ id: string }> }) => a.paymentSources);
    // The same payments as the sources' own page reads, each source's newest first, ties by id.
    const flat = new Map((await gqlOk(t, SOURCES)).paymentSources.nodes.map((s: { id: string; payments: unknown }) => [s.id, s.payments]));
    expect(sources.length).toBe(flat.size);
    for (const s of sources) expect(s.payments).toEqual(flat.get(s.id));
    for (const s of sources) {
      const stored = await t.db.prisma.payment.findMany({
        where: { paymentSourceId: s.id },
        orderBy: [{ receivedAt: 'desc' }, { id: 'asc' }],
        select: { id: true },
      });
      expect(s.payments.map((p: { id: string }) => p.id)).toEqual(stored.map((p) => p.id));
    }
    expect(sources.some((s: { payments: unknown[] }) => s.payments.length > 1)).toBe(true);
  });

  it("a to-one relation of the to-many's records is joined in its statement: customers' payments with their source, two statements", async () => {
    const query = `{ customers(${page('customers', 100)}) { nodes { id payments { id paymentSource { id code } } } } }`;
    const sql = await count(query);
    // The page's ids, its records, their payments with each payment's source.
    expect(sql.length).toBeLessThanOrEqual(3);
    expect(sql.at(-1)).toMatch(
      /FROM "Payment" r LEFT JOIN "PaymentSource" r0 ON r0\."id" = r\."paymentSourceId" WHERE r\."customerId" = ANY\(/,
    );
    const payments = (await gqlOk(t, query)).customers.nodes.flatMap((c: { payments: unknown[] }) => c.payments);
    expect(payments.length).toBeGreaterThan(0);
    const sources = new Map(fixture.paymentSources.map((s) => [s.id, s.code]));
    for (const p of payments) {
      const stored = await t.db.prisma.payment.findUniqueOrThrow({ where: { id: p.id } });
      expect(p.paymentSource).toEqual({ id: stored.paymentSourceId, code: sources.get(stored.paymentSourceId) });
    }
  });

  it('a third level is read through the loaders: one statement more, the same values as read on its own', async () => {
    const query =
      '{ accounts(first: 100, orderBy: [{ code: ASC }]) { nodes { paymentSources { id payments { id customer { id debtorNumber } } } } } }';
    const sql = await count(query);
    expect(sql).toHaveLength(3);
    const payments = (await gqlOk(t, query)).accounts.nodes.flatMap((a: { paymentSources: Array<{ payments: unknown[] }> }) =>
      a.paymentSources.flatMap((s) => s.payments),
    );
    expect(payments.length).toBeGreaterThan(0);
    for (const p of payments) {
      const one = await gqlOk(t, `{ payment(id: "${p.id}") { id customer { id debtorNumber } } }`);
      expect(p).toEqual(one.payment);
    }
  });
});

it.each([
  ['a plain page', 'first: 10'],
  ['a filtered page', 'first: 10, where: { lastName: { startsWith: "C" } }'],
])('totalCount is counted only when asked for (%s)', async (_label, args) => {
  const without = await count(`{ customers(${args}) { nodes { id } } }`);
  const withCount = await count(`{ customers(${args}) { totalCount nodes { id } } }`);
  // Inside the page's statement (compile.ts readCountedPage): no statement more.
  expect(withCount).toHaveLength(without.length);
  expect(withCount.some((s) => /count\(/i.test(s))).toBe(true);
  expect(without.some((s) => /count\(/i.test(s))).toBe(false);
});

describe('totalCount and @odata.count, read with the page', () => {
  const where = 'where: { lastName: { startsWith: "Count" } }';
  const counted = () => t.db.prisma.customer.count({ where: { lastName: { startsWith: 'Count' } } });

  it('a page with records: its count is every record the filter matches, in the one statement', async () => {
    statements = [];
    const data = await gqlOk(t, `{ customers(first: 7, ${where}) { totalCount nodes { id } } }`);
    expect(statements).toHaveLength(1);
    expect(data.customers.nodes).toHaveLength(7);
    expect(data.customers.totalCount).toBe(await counted());
  });

  it('an empty page after the last cursor still counts every record the filter matches (the cursor is not counted)', async () => {
    const all = await gqlOk(t, `{ customers(first: 1000, ${where}) { totalCount pageInfo { endCursor } } }`);
    const total = await counted();
    statements = [];
    const data = await gqlOk(t, `query($after: String) { customers(first: 5, after: $after, ${where}) { totalCount nodes { id } } }`, {
      after: all.customers.pageInfo.endCursor,
    });
    expect(data.customers.nodes).toEqual([]);
    expect(data.customers.totalCount).toBe(total);
    // The empty page carries no count: it is asked for on its own.
    expect(statements).toHaveLength(2);
  });

  it('a filter that matches nothing counts 0 without a second statement', async () => {
    statements = [];
    const data = await gqlOk(t, '{ customers(first: 5, where: { lastName: { eq: "No such name" } }) { totalCount nodes { id } } }');
    expect(data.customers).toEqual({ totalCount: 0, nodes: [] });
    expect(statements).toHaveLength(1);
  });

  it('REST: $skip past the end gives no records and the whole count; a page in range the same count', async () => {
    const total = await counted();
    const filter = encodeURIComponent("startswith(lastName,'Count')");
    const past = await request(t.http)
      .get(`/api/v1/customers?$filter=${filter}&$skip=${total + 10}&$count=true`)
      .set(bearer(t.tokens.writer))
      .expect(200);
    expect(past.body.value).toEqual([]);
    expect(past.body['@odata.count']).toBe(total);
    statements = [];
    const page = await request(t.http)
      .get(`/api/v1/customers?$filter=${filter}&$top=3&$count=true`)
      .set(bearer(t.tokens.writer))
      .expect(200);
    expect(page.body.value).toHaveLength(3);
    expect(page.body['@odata.count']).toBe(total);
    // The page with its count, then the addresses of its customers.
    expect(statements.filter((s) => /count\(/i.test(s))).toHaveLength(1);
    expect(statements[0]).toMatch(/count\(\*\)/);
  });
});
