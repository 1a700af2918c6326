// A plain list page (no filter, no cursor, no $select) is read as one statement answered in
// JSON (src/db/query/page-sql.ts). Its records must be exactly the records Prisma's
// findMany gives for the same page: same fields, same values (Decimals, Dates, nulls), same
// order (nullable sort keys, descending keys, non-ASCII text), same relations in the same
// order, same count. A filter that always holds sends the same page through Prisma.

import { randomUUID } from 'node:crypto';
import type { ListQuery } from '../../../src/domain/common/list';
import type { SortKey } from '../../../src/query/filter-tree';
import { createServices, type Services } from '../../../src/domain/services';
import { fixture } from '../../support/fixture';
import { DecimalText } from '../../../src/query/values';
import { toPrismaOrderBy } from '../../../src/db/query/to-prisma';
import type { FieldCatalog } from '../../../src/query/fields';
import { createTestApp, type TestApp } from '../../support/app';

let t: TestApp;
let services: Services;

beforeAll(async () => {
  t = await createTestApp();
  services = createServices({ prisma: t.db.prisma, rows: t.db.rows });
  const [receivable] = fixture.accounts;
  // Names that sort differently by code point than by a language's rules, and nulls.
  const names = ['Zimmer', 'zimmer', 'Äbel', 'Abel', 'Øre', 'Ölmann', 'Oz', 'ábaco', 'Ñandú', 'nadal'];
  const customers = names.map((lastName, i) => ({
    id: randomUUID(),
    firstName: `P${i}`,
    lastName,
    debtorNumber: `PS-${i}`,
    email: i % 3 === 0 ? null : `p${i}@example.org`,
    receivableAccountId: i % 2 === 0 ? receivable!.id : null,
  }));
  await t.db.prisma.customer.createMany({ data: customers });
  await t.db.prisma.address.createMany({
    data: customers.flatMap((c, i) =>
      Array.from({ length: i % 4 }, (_, j) => ({ id: randomUUID(), customerId: c.id, addressType: ['Home', 'Billing', 'Correspondence'][j]!, street: `Straße ${j}`, city: 'Köln', postalCode: '50667', country: 'DE', isDefault: j === 1 })),
    ),
  });
  const article = await t.db.prisma.article.create({ data: { id: randomUUID(), code: 'PS-A', name: 'Prices', createdById: randomUUID() } });
  await t.db.prisma.articlePrice.createMany({
    data: ['0', '12.5', '19.0000', '0.0001', '123456789012345.1234'].map((amount, j) => ({ id: randomUUID(), articleId: article.id, amount, validFrom: new Date(Date.UTC(2020 + j, 0, 1, 0, 0, 0, j)) })),
  });
});
afterAll(async () => {
  await t.close();
});

const query = (orderBy: SortKey[], extra: Partial<ListQuery> = {}): ListQuery => ({ orderBy, limit: 25, count: true, ...extra });
const throughPrisma = (q: ListQuery): ListQuery => ({ ...q, filter: { kind: 'const', value: true } });

const ORDERS: Array<[string, SortKey[]]> = [
  ['id only', []],
  ['lastName', [{ field: 'lastName', direction: 'asc' }]],
  ['lastName desc', [{ field: 'lastName', direction: 'desc' }]],
  ['nullable email', [{ field: 'email', direction: 'asc' }]],
  ['nullable email desc, firstName', [{ field: 'email', direction: 'desc' }, { field: 'firstName', direction: 'asc' }]],
  ['nullable account id', [{ field: 'receivableAccountId', direction: 'asc' }]],
];

it.each(ORDERS)('customers with addresses, ordered by %s: the same page as through Prisma', async (_label, orderBy) => {
  for (const offset of [undefined, 3, 20]) {
    const q = query(orderBy, { offset });
    const plain = await services.customers.withAddresses.list(q);
    const prisma = await services.customers.withAddresses.list(throughPrisma(q));
    expect(plain.items).toEqual(prisma.items);
    expect(plain.items.length).toBeGreaterThan(0);
    expect(plain.totalCount).toBe(prisma.totalCount);
    expect(plain.hasMore).toBe(prisma.hasMore);
    expect(plain.items.map((c) => plain.cursorOf(c))).toEqual(prisma.items.map((c) => prisma.cursorOf(c)));
  }
});

it('a page for a selection reads only those fields, the id and the sort keys, with the same values', async () => {
  const q = query([{ field: 'email', direction: 'desc' }], { select: ['firstName'] });
  const narrow = await services.customers.withAddresses.list(q);
  const full = await services.customers.withAddresses.list({ ...q, select: undefined });
  expect(narrow.items.length).toBeGreaterThan(0);
  expect(narrow.items.map((c) => Object.keys(c).sort())).toEqual(narrow.items.map(() => ['addresses', 'email', 'firstName', 'id']));
  expect(narrow.items).toEqual(full.items.map(({ id, email, firstName, addresses }) => ({ id, email, firstName, addresses })));
  expect(narrow.items.map((c) => narrow.cursorOf(c))).toEqual(full.items.map((c) => full.cursorOf(c)));
});

it('customers without addresses: the same page as through Prisma', async () => {
  const q = query([{ field: 'lastName', direction: 'asc' }]);
  const plain = await services.customers.list(q);
  expect(plain.items).toEqual((await services.customers.list(throughPrisma(q))).items);
  expect(plain.items[0]).not.toHaveProperty('addresses');
});

it('text sorts by code point (upper case before lower case, accented letters after z)', async () => {
  const page = await services.customers.list(query([{ field: 'lastName', direction: 'asc' }], { limit: 1000 }));
  const names = page.items.map((c) => c.lastName).filter((n) => ['Zimmer', 'zimmer', 'Äbel', 'Abel', 'Øre', 'Ölmann', 'Oz', 'ábaco', 'Ñandú', 'nadal'].includes(n));
  expect(names).toEqual(['Abel', 'Oz', 'Zimmer', 'nadal', 'zimmer', 'Äbel', 'Ñandú', 'Ölmann', 'Øre', 'ábaco']);
});

it.each([
  ['code', [{ field: 'code', direction: 'asc' }]],
  ['updatedAt desc', [{ field: 'updatedAt', direction: 'desc' }]],
] as Array<[string, SortKey[]]>)('articles with prices (exact decimals, dates), ordered by %s: the same page as through Prisma', async (_label, orderBy) => {
  const q = query(orderBy, { limit: 100 });
  const plain = await services.articles.withPrices.list(q);
  const prisma = await services.articles.withPrices.list(throughPrisma(q));
  // The page passes amounts on as their exact text (DecimalText), Prisma as Decimals: the same values.
  const exact = (items: typeof plain.items) => items.map((a) => ({ ...a, prices: a.prices.map((p) => ({ ...p, amount: p.amount.toFixed() })) }));
  expect(exact(plain.items)).toEqual(exact(prisma.items));
  expect(plain.items.flatMap((a) => a.prices).every((p) => p.amount instanceof DecimalText)).toBe(true);
  const prices = plain.items.find((a) => a.code === 'PS-A')!.prices;
  expect(prices.map((p) => p.amount.toFixed())).toEqual(['123456789012345.1234', '0.0001', '19', '12.5', '0']);
  expect(prices.every((p) => p.validFrom instanceof Date)).toBe(true);
  expect(await services.articles.list(q).then((p) => p.items)).toEqual(await services.articles.list(throughPrisma(q)).then((p) => p.items));
});

// A filtered page, or one after a cursor, reads its ids first (Prisma compiles the filter and
// the cursor) and then its records by id in one statement: the same page as Prisma's
// findMany with the relation included (an $expand of it forces that path).
const throughPrismaInclude = (q: ListQuery): ListQuery => ({ ...q, expand: [{ relation: 'addresses' }] });
const FILTERS: Array<[string, ListQuery['filter']]> = [
  ['contains', { kind: 'text', field: 'lastName', op: 'contains', value: 'e' }],
  ['eq on a nullable field', { kind: 'compare', field: 'email', op: 'eq', value: null }],
  ['ne (nulls included)', { kind: 'compare', field: 'email', op: 'ne', value: { type: 'string', value: 'p1@example.org' } }],
  ['nothing', { kind: 'const', value: false }],
];

it.each(FILTERS)('a filtered page (%s) reads ids first and gives the same page as through Prisma', async (_label, filter) => {
  for (const [, orderBy] of ORDERS) {
    for (const offset of [undefined, 2]) {
      const q = query(orderBy, { filter, offset, limit: 4 });
      const byIds = await services.customers.withAddresses.list(q);
      const prisma = await services.customers.withAddresses.list(throughPrismaInclude(q));
      expect(byIds.items).toEqual(prisma.items);
      expect(byIds.totalCount).toBe(prisma.totalCount);
      expect(byIds.hasMore).toBe(prisma.hasMore);
      expect(byIds.items.map((c) => byIds.cursorOf(c))).toEqual(prisma.items.map((c) => prisma.cursorOf(c)));
      // Without its relation too.
      expect((await services.customers.list(q)).items).toEqual(prisma.items.map(({ addresses: _a, ...c }) => c));
    }
  }
});

it('pages after a cursor walk the whole list as Prisma does', async () => {
  const orderBy: SortKey[] = [{ field: 'email', direction: 'desc' }];
  const walk = async (through: (q: ListQuery) => ListQuery) => {
    const seen: unknown[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await services.customers.withAddresses.list(through(query(orderBy, { limit: 3, after, count: false })));
      seen.push(...page.items);
      if (!page.hasMore) return seen;
      after = page.cursorOf(page.items[page.items.length - 1]!);
    }
  };
  const byIds = await walk((q) => q);
  expect(byIds.length).toBeGreaterThanOrEqual(10);
  expect(byIds).toEqual(await walk(throughPrismaInclude));
});

it('a filtered page sends its id query, selecting the id alone, then the records and each relation by those ids at once', async () => {
  const statements: string[] = [];
  const t2 = await createTestApp({ demoData: false, onQuery: (sql) => statements.push(sql) });
  try {
    const s = createServices({ prisma: t2.db.prisma, rows: t2.db.rows });
    await t2.db.prisma.customer.createMany({ data: ['Hartmann', 'Neumann', 'Abel'].map((lastName, i) => ({ id: randomUUID(), firstName: 'F', lastName, debtorNumber: `FI-${i}` })) });
    statements.length = 0;
    const page = await s.customers.withAddresses.list(query([{ field: 'lastName', direction: 'asc' }], { filter: { kind: 'text', field: 'lastName', op: 'contains', value: 'mann' }, count: false }));
    expect(page.items.map((c) => c.lastName)).toEqual(['Hartmann', 'Neumann']);
    expect(statements).toHaveLength(4);
    // The surnames containing the text (src/db/query/lexicon.ts), then the ids of the page:
    // only the id is read by the filtered, ordered, limited query, which an index on the sort
    // key can answer alone, here over the ranges of those two surnames.
    expect(statements[0]).toMatch(/^SELECT "name" FROM "CustomerSurname" WHERE "name" LIKE \$1 LIMIT \$2$/);
    expect(statements[1]).toMatch(/^SELECT "public"\."Customer"\."id" FROM "public"\."Customer" WHERE .*LIKE \$1 AND .*"lastName" IN \(\$2,\$3\)\) ORDER BY .*LIMIT/s);
    expect(statements[2]).toMatch(/FROM "Customer" t WHERE t\."id" = ANY\(\$1::uuid\[\]\)/);
    expect(statements[3]).toMatch(/FROM "Address" r WHERE r\."customerId" = ANY\(\$1::uuid\[\]\)/);
  } finally {
    await t2.close();
  }
});

// By id (GraphQL's loaders): every service with a page source reads the records of a batch of
// ids through the page reader, and they must be findMany's records for the same ids, unknown
// ids left out. The reference tables (tax codes, accounts, academic terms) list through it too.
interface Resource {
  readonly service: () => { getMany(ids: readonly string[]): Promise<Array<{ id: string }>>; list(q: ListQuery): Promise<{ items: unknown[]; totalCount?: number | undefined }>; readonly fields: FieldCatalog };
  /** Prisma's own findMany, ordered by a Prisma orderBy. */
  readonly findMany: (orderBy: Array<Record<string, unknown>>, skip?: number, take?: number) => Promise<Array<{ id: string }>>;
  readonly count: () => Promise<number>;
}
const RESOURCES: Record<string, Resource> = {
  customers: { service: () => services.customers, findMany: (orderBy, skip, take) => t.db.prisma.customer.findMany({ orderBy, skip, take }), count: () => t.db.prisma.customer.count() },
  articles: { service: () => services.articles, findMany: (orderBy, skip, take) => t.db.prisma.article.findMany({ orderBy, skip, take }), count: () => t.db.prisma.article.count() },
  'tax codes': { service: () => services.taxCodes, findMany: (orderBy, skip, take) => t.db.prisma.taxCode.findMany({ orderBy, skip, take }), count: () => t.db.prisma.taxCode.count() },
  accounts: { service: () => services.accounts, findMany: (orderBy, skip, take) => t.db.prisma.account.findMany({ orderBy, skip, take }), count: () => t.db.prisma.account.count() },
  'academic terms': { service: () => services.academicTerms, findMany: (orderBy, skip, take) => t.db.prisma.academicTerm.findMany({ orderBy, skip, take }), count: () => t.db.prisma.academicTerm.count() },
};

it.each(Object.keys(RESOURCES))('%s by id: the records findMany gives (decimals, dates, nulls)', async (name) => {
  const r = RESOURCES[name]!;
  const every = await r.findMany([{ id: 'asc' }]);
  expect(every.length).toBeGreaterThan(1);
  const half = every.filter((_row, i) => i % 2 === 0);
  const byId = (rows: Array<{ id: string }>) => [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));
  expect(byId(await r.service().getMany([...half.map((row) => row.id), randomUUID()]))).toEqual(half);
  expect(await r.service().getMany([randomUUID()])).toEqual([]);
});

it.each([
  ['tax codes', [{ field: 'rate', direction: 'desc' }, { field: 'validTo', direction: 'asc' }]],
  ['accounts', [{ field: 'type', direction: 'asc' }]],
  ['academic terms', [{ field: 'endDate', direction: 'desc' }]],
] as Array<[string, SortKey[]]>)('%s: a page is the same page as findMany', async (name, orderBy) => {
  const r = RESOURCES[name]!;
  for (const offset of [0, 2]) {
    const page = await r.service().list(query(orderBy, { offset, limit: 5 }));
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items).toEqual(await r.findMany(toPrismaOrderBy(orderBy, r.service().fields), offset, 5));
    expect(page.totalCount).toBe(await r.count());
  }
});
