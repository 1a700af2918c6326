// A query reads only what it selects (src/graphql/resolvers/selection.ts): the record fields
// selected, what the selected relation fields read off their record, and of each relation read
// inside the records only the fields selected of it. The answers are those of the same query
// selecting every field; counted and read as the database layer receives the statements.

import { createTestApp, type TestApp } from '../support/app';
import { fixture } from '../support/fixture';
import { gqlOk, type Json } from '../support/graphql';
import { RESOURCES } from '../../src/domain/resources';

let t: TestApp;
let statements: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ onQuery: (sql) => statements.push(sql) });
});
afterAll(async () => {
  await t.close();
});

async function run(query: string): Promise<{ data: Record<string, Json>; sql: string[] }> {
  statements = [];
  const data = await gqlOk(t, query);
  return { data, sql: statements };
}

/** Every scalar field of a resource, as a GraphQL selection. */
const every = (model: keyof typeof RESOURCES): string => Object.keys(RESOURCES[model].fields).join(' ');

/** The value with only the keys `shape` has, recursively (lists element by element). */
function project(value: Json, shape: Json): Json {
  if (Array.isArray(value)) return value.map((v, i) => project(v, Array.isArray(shape) ? shape[i] : shape));
  if (value === null || typeof value !== 'object' || shape === null || typeof shape !== 'object') return value;
  return Object.fromEntries(
    Object.keys(shape as object).map((k) => [k, project((value as Record<string, Json>)[k], (shape as Record<string, Json>)[k])]),
  );
}

it('a list reads the selected columns and, of a to-one relation, the selected ones', async () => {
  const narrow = await run('{ taxCodes(first: 100) { nodes { code taxAccount { code } } } }');
  expect(narrow.sql).toHaveLength(1);
  const [statement] = narrow.sql;
  expect(statement).toMatch(
    /^SELECT t\."id", t\."code", t\."taxAccountId", r0\."id", r0\."code" FROM "TaxCode" t LEFT JOIN "Account" r0 ON r0\."id" = t\."taxAccountId" ORDER BY t\."id" ASC LIMIT \$1$/,
  );
  const wide = await run(`{ taxCodes(first: 100) { nodes { ${every('TaxCode')} taxAccount { ${every('Account')} } } } }`);
  expect(narrow.data.taxCodes.nodes).toHaveLength(fixture.taxCodes.length);
  expect(narrow.data).toEqual(project(wide.data, narrow.data));
});

it('one record with a to-many and a to-one relation: one statement of the selected columns', async () => {
  const article = fixture.articles.find((a) => fixture.articlePrices.some((p) => p.articleId === a.id) && a.defaultTaxCodeId)!;
  const narrow = await run(`{ article(id: "${article.id}") { name prices { amount } defaultTaxCode { rate } } }`);
  expect(narrow.sql).toHaveLength(1);
  expect(narrow.sql[0]).toMatch(
    /^SELECT t\."id", t\."name", t\."defaultTaxCodeId", array_to_json\(array\(SELECT array\[r0\."id"::text, trim_scale\(r0\."amount"\)::text\] /,
  );
  expect(narrow.sql[0]).toMatch(/ WHERE t\."id" = \$1 /);
  expect(narrow.sql[0]).not.toMatch(/description|createdAt|validFrom"\)/);
  const wide = await run(
    `{ article(id: "${article.id}") { ${every('Article')} prices { ${every('ArticlePrice')} } defaultTaxCode { ${every('TaxCode')} } } }`,
  );
  expect(narrow.data.article.prices.length).toBeGreaterThan(0);
  expect(narrow.data).toEqual(project(wide.data, narrow.data));
});

it('fields a nested relation needs are read (foreign keys), through fragments and aliases', async () => {
  const query = `{ addresses(first: 20, orderBy: [{ city: ASC }]) { nodes { ...A town: city customer { lastName receivableAccount { code } } } } }
    fragment A on Address { street }`;
  const narrow = await run(query);
  expect(narrow.sql[0]).toMatch(
    /^SELECT t\."id", t\."customerId", t\."street", t\."city", r0\."id", r0\."lastName", r0\."receivableAccountId" FROM "Address" t LEFT JOIN "Customer" r0 .* ORDER BY t\."city" ASC, t\."id" ASC LIMIT \$1$/,
  );
  const wide = await run(
    `{ addresses(first: 20, orderBy: [{ city: ASC }]) { nodes { ${every('Address')} town: city customer { ${every('Customer')} receivableAccount { ${every('Account')} } } } } }`,
  );
  expect(narrow.data.addresses.nodes.some((a: Json) => a.customer.receivableAccount !== null)).toBe(true);
  expect(narrow.data).toEqual(project(wide.data, narrow.data));
});

it("a page joins its to-one relations in one flat statement where an index gives its order, else on the page's rows after its LIMIT", async () => {
  const page = (order: string) => `{ addresses(first: 20, orderBy: [{ ${order}: ASC }]) { nodes { street customer { lastName } } } }`;
  // Address (city, postalCode, id): PostgreSQL walks it and joins each row as it comes.
  const indexed = await run(page('city'));
  expect(indexed.sql[0]).toMatch(
    / FROM "Address" t LEFT JOIN "Customer" r0 ON r0\."id" = t\."customerId" ORDER BY t\."city" ASC, t\."id" ASC LIMIT \$1$/,
  );
  // No index on street: it would join every address before sorting them, so the page comes first.
  const sorted = await run(page('street'));
  expect(sorted.sql[0]).toMatch(
    / FROM \(SELECT t\.\* FROM "Address" t ORDER BY t\."street" ASC, t\."id" ASC LIMIT \$1\) t LEFT JOIN "Customer" r0 ON r0\."id" = t\."customerId" ORDER BY t\."street" ASC, t\."id" ASC$/,
  );
  for (const [read, order] of [
    [indexed, 'city'],
    [sorted, 'street'],
  ] as const) {
    const wide = await run(
      `{ addresses(first: 20, orderBy: [{ ${order}: ASC }]) { nodes { ${every('Address')} customer { ${every('Customer')} } } } }`,
    );
    expect(read.data.addresses.nodes).toHaveLength(20);
    expect(read.data).toEqual(project(wide.data, read.data));
  }
});

it('a relation shown by two fields (addresses and defaultAddress) is read whole: the default is found whatever is selected', async () => {
  const customer = fixture.customers.find((c) => c.addresses.length > 1 && c.addresses.some((a) => a.isDefault))!;
  const narrow = await run(`{ customer(id: "${customer.id}") { addresses { street } defaultAddress { city } } }`);
  expect(narrow.data.customer.defaultAddress).toEqual({ city: customer.addresses.find((a) => a.isDefault)!.city });
  expect(narrow.data.customer.addresses).toHaveLength(customer.addresses.length);
  const list = await run('{ customers(first: 50, orderBy: [{ lastName: ASC }]) { nodes { defaultAddress { city } } } }');
  const wide = await run(
    `{ customers(first: 50, orderBy: [{ lastName: ASC }]) { nodes { ${every('Customer')} defaultAddress { ${every('Address')} } } } }`,
  );
  expect(list.data).toEqual(project(wide.data, list.data));
});

it("a page's to-many relation is read by the parents' ids and grouped by its foreign key, selected or not, which it reads once", async () => {
  const page = (fields: string) =>
    `{ customers(first: 50, orderBy: [{ lastName: ASC }, { id: ASC }]) { nodes { id addresses { ${fields} } } } }`;
  /** How often the addresses' statement (the second) reads the foreign key. */
  const keys = (sql: string[]) =>
    sql[1]!.slice(0, sql[1]!.indexOf(' FROM "Address" r WHERE r."customerId" = ANY(')).split('r."customerId"').length - 1;
  const narrow = await run(page('street city'));
  expect(narrow.sql[1]).toMatch(/^SELECT r\."customerId", r\."id", r\."street", r\."city" FROM "Address" r WHERE /);
  const withKey = await run(page('customerId street city'));
  const wide = await run(page(every('Address')));
  expect([keys(narrow.sql), keys(withKey.sql), keys(wide.sql)]).toEqual([1, 1, 1]);
  const nodes = wide.data.customers.nodes as Array<{ id: string; addresses: Array<{ customerId: string }> }>;
  expect(nodes.some((c) => c.addresses.length > 1)).toBe(true);
  for (const c of nodes) for (const a of c.addresses) expect(a.customerId).toBe(c.id);
  expect(narrow.data).toEqual(project(wide.data, narrow.data));
  expect(withKey.data).toEqual(project(wide.data, withKey.data));
});
