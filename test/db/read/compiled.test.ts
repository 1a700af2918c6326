// Every read goes through the compiled path (src/db/read). For every resource and every shape
// it serves, its records must be exactly the records Prisma's findMany gives for the same
// question: same fields, same values (Decimals, Dates, nulls), same order (nullable sort keys,
// descending keys, non-ASCII text), same relations (to-one and to-many, in the declared order),
// same count, same cursors. The Prisma side is built by the earlier translation
// (test/support/prisma-where.ts). On PGlite by default, on PostgreSQL with DATABASE_URL.

import { randomUUID } from 'node:crypto';
import { ReadService, type RecordOf } from '../../../src/domain/common/read-service';
import type { Prisma } from '../../../src/db/__generated__/prisma/client';
import { DEEP_OFFSET, readRecords } from '../../../src/db/read/compile';
import type { RowReader } from '../../../src/db/row-reader';
import type { Relation, Resource } from '../../../src/domain/common/declaration';
import type { ListQuery } from '../../../src/domain/common/list';
import { RESOURCES, resourceOf } from '../../../src/domain/resources';
import type { Services } from '../../../src/domain/services';
import { servicesOf } from '../../support/database';
import type { FilterNode, FilterValue, SortKey } from '../../../src/query/filter-tree';
import type { FieldSpec } from '../../../src/query/fields';
import { fixture } from '../../support/fixture';
import { createTestApp, type TestApp } from '../../support/app';
import { toPrismaOrderBy, toPrismaWhere } from '../../support/prisma-where';

let t: TestApp;
let services: Services;

// The records' types are the catalogues' (Row<F>): the same types as Prisma's, so records read
// here and records Prisma writes are one type. Checked by the compiler (npm run typecheck).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameTypes: [
  Same<RecordOf<typeof RESOURCES.Customer.fields>, Prisma.CustomerGetPayload<object>>,
  Same<RecordOf<typeof RESOURCES.Address.fields>, Prisma.AddressGetPayload<object>>,
  Same<RecordOf<typeof RESOURCES.Article.fields>, Prisma.ArticleGetPayload<object>>,
  Same<RecordOf<typeof RESOURCES.ArticlePrice.fields>, Prisma.ArticlePriceGetPayload<object>>,
  Same<RecordOf<typeof RESOURCES.Account.fields>, Prisma.AccountGetPayload<object>>,
  Same<RecordOf<typeof RESOURCES.PaymentSource.fields>, Prisma.PaymentSourceGetPayload<object>>,
  Same<RecordOf<typeof RESOURCES.Payment.fields>, Prisma.PaymentGetPayload<object>>,
  Same<RecordOf<typeof RESOURCES.AcademicTerm.fields>, Prisma.AcademicTermGetPayload<object>>,
  // The catalogue lists the tax types the database's CHECK allows; Prisma calls the column a string.
  RecordOf<typeof RESOURCES.TaxCode.fields> extends Prisma.TaxCodeGetPayload<object> ? true : false,
] = [true, true, true, true, true, true, true, true, true];
it("record types are the catalogues' (compile-time, above)", () => {
  expect(sameTypes.every(Boolean)).toBe(true);
});

interface Delegate {
  findMany(args: object): Promise<Array<Record<string, unknown>>>;
  count(args: object): Promise<number>;
}
/** Prisma's own delegate of a model (prisma.customer, ...). */
const delegate = (model: string): Delegate =>
  (t.db.prisma as unknown as Record<string, Delegate>)[model[0]!.toLowerCase() + model.slice(1)]!;
const service = (r: Resource) => new ReadService({ prisma: t.db.prisma, rows: t.db.rows }, r, { inline: [] });

beforeAll(async () => {
  t = await createTestApp();
  services = servicesOf(t.db);
  // Accounts that fit their uses (the database holds every record to that): an Asset, a Liability, a Revenue account.
  const fitting = (type: string) => fixture.accounts.find((a) => a.type === type && a.isActive)!;
  const [receivable, prepayment, revenue] = [fitting('Asset'), fitting('Liability'), fitting('Revenue')];
  // Names that sort differently by code point than by a language's rules, and nulls.
  const names = ['Zimmer', 'zimmer', 'Äbel', 'Abel', 'Øre', 'Ölmann', 'Oz', 'ábaco', 'Ñandú', 'nadal'];
  const customers = names.map((lastName, i) => ({
    id: randomUUID(),
    firstName: `P${i}`,
    lastName,
    debtorNumber: `PS-${i}`,
    email: i % 3 === 0 ? null : `p${i}@example.org`,
    receivableAccountId: i % 2 === 0 ? receivable.id : null,
    prepaymentAccountId: i % 3 === 0 ? prepayment.id : null,
  }));
  await t.db.prisma.customer.createMany({ data: customers });
  await t.db.prisma.address.createMany({
    data: customers.flatMap((c, i) =>
      Array.from({ length: i % 4 }, (_, j) => ({
        id: randomUUID(),
        customerId: c.id,
        addressType: ['Home', 'Billing', 'Correspondence'][j]!,
        street: `Straße ${j}`,
        city: 'Köln',
        postalCode: '50667',
        country: 'DE',
        isDefault: j === 1,
      })),
    ),
  });
  const article = await t.db.prisma.article.create({
    data: { id: randomUUID(), code: 'PS-A', name: 'Prices', createdById: randomUUID(), revenueAccountId: revenue.id },
  });
  await t.db.prisma.articlePrice.createMany({
    data: ['0', '12.5', '19.0000', '0.0001', '123456789012345.1234'].map((amount, j) => ({
      id: randomUUID(),
      articleId: article.id,
      amount,
      validFrom: new Date(Date.UTC(2020 + j, 0, 1, 0, 0, 0, j)),
    })),
  });
  const sources = fixture.paymentSources.filter((s) => s.isActive).map((s) => s.id);
  await t.db.prisma.payment.createMany({
    data: customers.flatMap((c, i) =>
      Array.from({ length: i % 3 }, (_, j) => ({
        id: randomUUID(),
        paymentSourceId: sources[(i + j) % sources.length]!,
        customerId: c.id,
        amount: `${i}.${j}5`,
        receivedAt: new Date(Date.UTC(2026, 0, 1 + (i % 4))),
        reference: j === 0 ? null : `R${i}`,
        createdById: randomUUID(),
      })),
    ),
  });
});
afterAll(async () => {
  await t.close();
});

const ALL = Object.values(RESOURCES) as Resource[];
const target = (r: Relation): Resource => resourceOf(r.target)!;

/** Prisma's include of the relations, in their declared order (ties by id). */
function include(r: Resource, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(
    names.map((name) => {
      const rel = r.relations[name]!;
      return [name, rel.kind === 'many' ? { orderBy: toPrismaOrderBy(rel.order, target(rel).fields) } : true];
    }),
  );
}

/** A value of a record as a filter value of its field. */
function filterValue(spec: FieldSpec, v: unknown): FilterValue {
  if (spec.type === 'decimal') return { type: 'decimal', value: (v as { toFixed(): string }).toFixed() };
  if (spec.type === 'datetime') return { type: 'datetime', value: v as Date };
  if (spec.type === 'boolean') return { type: 'boolean', value: v as boolean };
  return { type: spec.type, value: v as string };
}

/** Filters on every field: eq / ne / gt / le against a value some record has, and null tests. */
function filtersOf(r: Resource, sample: Record<string, unknown>): Array<[string, FilterNode]> {
  return Object.entries(r.fields).flatMap(([field, spec]): Array<[string, FilterNode]> => {
    const v = sample[field];
    const nulls: Array<[string, FilterNode]> = spec.nullable
      ? [
          [`${field} eq null`, { kind: 'compare', field, op: 'eq', value: null }],
          [`${field} ne null`, { kind: 'compare', field, op: 'ne', value: null }],
        ]
      : [];
    if (v === null || v === undefined) return nulls;
    const value = filterValue(spec, v);
    return [
      ...nulls,
      ...(['eq', 'ne', 'gt', 'le'] as const).map((op): [string, FilterNode] => [`${field} ${op}`, { kind: 'compare', field, op, value }]),
      [`not ${field} ge`, { kind: 'not', node: { kind: 'compare', field, op: 'ge', value } }],
      [`${field} in`, { kind: 'in', field, values: [value] }],
    ];
  });
}

describe.each(ALL.map((r) => [r.model, r] as const))('%s', (_model, r) => {
  const d = () => delegate(r.model);
  const relationNames = Object.keys(r.relations);

  it("pages in every field order, both directions, with offsets, relations inside and the count: findMany's", async () => {
    for (const field of Object.keys(r.fields)) {
      for (const direction of ['asc', 'desc'] as const) {
        const orderBy: SortKey[] = [{ field, direction }];
        for (const offset of [0, 3]) {
          const q: ListQuery = { orderBy, limit: 4, offset, count: true, expand: relationNames.map((relation) => ({ relation })) };
          const page = await service(r).list(q);
          const expected = await d().findMany({
            orderBy: toPrismaOrderBy(orderBy, r.fields),
            skip: offset,
            take: 5,
            include: include(r, relationNames),
          });
          expect(page.items).toEqual(expected.slice(0, 4));
          expect(page.hasMore).toBe(expected.length > 4);
          expect(page.totalCount).toBe(await d().count({}));
        }
      }
    }
  });

  it("filters on every field select findMany's records, in order, with the same count", async () => {
    const rows = await d().findMany({ orderBy: { id: 'asc' } });
    expect(rows.length).toBeGreaterThan(1);
    const sample = rows[Math.floor(rows.length / 2)]!;
    for (const [label, filter] of filtersOf(r, sample)) {
      const page = await service(r).list({ filter, limit: 1000, count: true });
      const where = toPrismaWhere(filter, r.fields);
      expect([label, page.items]).toEqual([label, await d().findMany({ where, orderBy: { id: 'asc' } })]);
      expect([label, page.totalCount]).toEqual([label, await d().count({ where })]);
    }
  });

  it("one record and many by id, with every relation: findUnique's and findMany's", async () => {
    const rows = await d().findMany({ orderBy: { id: 'asc' }, include: include(r, relationNames) });
    const half = rows.filter((_row, i) => i % 2 === 0);
    for (const row of half.slice(0, 5)) {
      expect(
        await service(r).get(
          String(row.id),
          relationNames.map((relation) => ({ relation })),
        ),
      ).toEqual(row);
    }
    const plain = await d().findMany({ orderBy: { id: 'asc' } });
    const wanted = plain.filter((_row, i) => i % 2 === 0);
    const byId = (list: ReadonlyArray<Record<string, unknown>>) => [...list].sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1));
    expect(byId(await service(r).getMany([...wanted.map((row) => String(row.id)), randomUUID()]))).toEqual(wanted);
    expect(await service(r).getMany([])).toEqual([]);
    await expect(service(r).get(randomUUID())).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('pages after a cursor walk the whole list as findMany orders it', async () => {
    const field = Object.keys(r.fields).find((f) => r.fields[f]!.nullable) ?? Object.keys(r.fields)[1]!;
    const orderBy: SortKey[] = [{ field, direction: 'desc' }];
    const seen: unknown[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await service(r).list({ orderBy, limit: 3, after });
      seen.push(...page.items);
      if (!page.hasMore) break;
      after = page.cursorOf(page.items[page.items.length - 1]!);
    }
    expect(seen).toEqual(await d().findMany({ orderBy: toPrismaOrderBy(orderBy, r.fields) }));
  });
});

it("expansions with options (select, order, top) are findMany's include with the same options", async () => {
  const customers = RESOURCES.Customer as Resource;
  const orderBy: SortKey[] = [
    { field: 'city', direction: 'desc' },
    { field: 'street', direction: 'asc' },
  ];
  const page = await service(customers).list({
    limit: 20,
    orderBy: [{ field: 'lastName', direction: 'asc' }],
    expand: [
      { relation: 'addresses', select: ['id', 'street'], orderBy, top: 2 },
      { relation: 'receivableAccount', select: ['code'] },
    ],
  });
  const expected = await t.db.prisma.customer.findMany({
    take: 20,
    orderBy: [{ lastName: 'asc' }, { id: 'asc' }],
    include: {
      addresses: { select: { id: true, street: true }, orderBy: toPrismaOrderBy(orderBy, RESOURCES.Address.fields) as never, take: 2 },
      receivableAccount: { select: { code: true } },
    },
  });
  expect(page.items).toEqual(expected);
});

it('text sorts by code point (upper case before lower case, accented letters after z)', async () => {
  const page = await services.customers.list({ orderBy: [{ field: 'lastName', direction: 'asc' }], limit: 1000 });
  const names = page.items
    .map((c) => c.lastName)
    .filter((n) => ['Zimmer', 'zimmer', 'Äbel', 'Abel', 'Øre', 'Ölmann', 'Oz', 'ábaco', 'Ñandú', 'nadal'].includes(n));
  expect(names).toEqual(['Abel', 'Oz', 'Zimmer', 'nadal', 'zimmer', 'Äbel', 'Ñandú', 'Ölmann', 'Øre', 'ábaco']);
});

it('a page for a selection reads only those fields, the id and the sort keys, with the same values', async () => {
  const q: ListQuery = { orderBy: [{ field: 'email', direction: 'desc' }], limit: 25, select: ['firstName'] };
  const narrow = await services.customers.withAddresses.listSelected(q);
  const full = await services.customers.withAddresses.list(q);
  expect(narrow.items.length).toBeGreaterThan(0);
  expect(narrow.items.map((c) => Object.keys(c).sort())).toEqual(narrow.items.map(() => ['addresses', 'email', 'firstName', 'id']));
  expect(narrow.items).toEqual(full.items.map(({ id, email, firstName, addresses }) => ({ id, email, firstName, addresses })));
  expect(narrow.items.map((c) => narrow.cursorOf(c))).toEqual(full.items.map((c) => full.cursorOf(c)));
});

it('a page is one statement and one per to-many relation by its ids; a substring filter on surnames first reads the matching surnames', async () => {
  const statements: string[] = [];
  const t2 = await createTestApp({ demoData: false, onQuery: (sql) => statements.push(sql) });
  try {
    const s = servicesOf(t2.db);
    await t2.db.prisma.customer.createMany({
      data: ['Hartmann', 'Neumann', 'Abel'].map((lastName, i) => ({ id: randomUUID(), firstName: 'F', lastName, debtorNumber: `FI-${i}` })),
    });
    statements.length = 0;
    const page = await s.customers.withAddresses.list({
      orderBy: [{ field: 'lastName', direction: 'asc' }],
      limit: 100,
      filter: { kind: 'text', field: 'lastName', op: 'contains', value: 'mann' },
    });
    expect(page.items.map((c) => c.lastName)).toEqual(['Hartmann', 'Neumann']);
    expect(statements).toHaveLength(3);
    // The surnames containing the text (src/db/read/lexicon.ts), the page over the ranges of
    // those surnames, then the addresses of the page's customers.
    expect(statements[0]).toMatch(/^SELECT "name" FROM "CustomerSurname" WHERE "name" LIKE \$1 LIMIT \$2$/);
    // A first page has no OFFSET: PostgreSQL then keeps one plan for the prepared statement.
    expect(statements[1]).toMatch(/ FROM "Customer" t WHERE .*LIKE \$1.* = ANY\(\$2::text\[\]\).* LIMIT \$3$/s);
    expect(statements[2]).toMatch(/ FROM "Address" r WHERE r\."customerId" = ANY\(\$1::uuid\[\]\) ORDER BY /);
    // A later page skips its records with one.
    statements.length = 0;
    const second = await s.customers.withAddresses.list({
      orderBy: [{ field: 'lastName', direction: 'asc' }],
      limit: 100,
      offset: 1,
      filter: { kind: 'text', field: 'lastName', op: 'contains', value: 'mann' },
    });
    expect(second.items.map((c) => c.lastName)).toEqual(['Neumann']);
    expect(statements[1]).toMatch(/ LIMIT \$3 OFFSET \$4$/);
    // One record's relations stay inside its statement.
    statements.length = 0;
    await s.customers.withAddresses.get(page.items[0]!.id);
    expect(statements).toHaveLength(1);
  } finally {
    await t2.close();
  }
});

// Last: it adds a thousand customers the pages above would see.
it("a deep offset (its ids first) gives findMany's page, relations inside", async () => {
  // Enough customers to page past DEEP_OFFSET, some sharing a surname (ties broken by id).
  await t.db.session.exec(`INSERT INTO "Customer" (id, "firstName", "lastName", "debtorNumber", email)
    SELECT gen_random_uuid(), 'D' || i, 'Deep' || (i % 7), 'DEEP-' || i, CASE WHEN i % 5 = 0 THEN NULL ELSE 'd' || i || '@example.org' END FROM generate_series(1, ${DEEP_OFFSET + 60}) AS i`);
  const customers = RESOURCES.Customer as Resource;
  for (const orderBy of [[{ field: 'lastName', direction: 'asc' }], [{ field: 'email', direction: 'desc' }]] as SortKey[][]) {
    for (const offset of [DEEP_OFFSET - 1, DEEP_OFFSET, DEEP_OFFSET + 7]) {
      const page = await service(customers).list({
        orderBy,
        offset,
        limit: 20,
        count: true,
        expand: [{ relation: 'addresses' }, { relation: 'receivableAccount' }],
      });
      const expected = await t.db.prisma.customer.findMany({
        orderBy: toPrismaOrderBy(orderBy, customers.fields) as never,
        skip: offset,
        take: 21,
        include: include(customers, ['addresses', 'receivableAccount']),
      });
      expect(page.items).toEqual(expected.slice(0, 20));
      expect(page.hasMore).toBe(expected.length > 20);
    }
  }
  const filtered = await service(customers).list({
    filter: { kind: 'text', field: 'lastName', op: 'startswith', value: 'Deep' },
    orderBy: [{ field: 'firstName', direction: 'asc' }],
    offset: DEEP_OFFSET,
    limit: 100,
  });
  expect(filtered.items).toEqual(
    await t.db.prisma.customer.findMany({
      where: { lastName: { startsWith: 'Deep' } },
      orderBy: [{ firstName: 'asc' }, { id: 'asc' }],
      skip: DEEP_OFFSET,
      take: 100,
    }),
  );
  expect(filtered.items.length).toBe(60);
});

// After the test above: it needs more customers than DEEP_OFFSET.
it('a deep offset reads its ids first and gives the rows the plain statement gives: ties, nulls, filters, descending orders, unique keys, past the end', async () => {
  const customers = RESOURCES.Customer as Resource;
  const sent: string[] = [];
  // The database's reader, telling which statements were sent.
  const rows: RowReader = { sortIndexes: t.db.rows.sortIndexes, read: (s) => (sent.push(s.text), t.db.rows.read(s)) };
  const relations = [
    { name: 'receivableAccount', relation: customers.relations.receivableAccount!, fields: RESOURCES.Account.fields },
    { name: 'addresses', relation: customers.relations.addresses!, fields: RESOURCES.Address.fields },
  ];
  const base = { table: customers.model, fields: customers.fields, select: Object.keys(customers.fields), relations };
  const orders: SortKey[][] = [
    // Seven surnames among the deep customers: ties broken by id.
    [{ field: 'lastName', direction: 'asc' }],
    // Nulls first ascending, last descending.
    [
      { field: 'lastName', direction: 'desc' },
      { field: 'email', direction: 'asc' },
    ],
    [{ field: 'email', direction: 'desc' }],
    // A unique key orders completely: nothing after it, no tie by id.
    [{ field: 'debtorNumber', direction: 'asc' }],
    [
      { field: 'debtorNumber', direction: 'desc' },
      { field: 'firstName', direction: 'asc' },
    ],
  ];
  const filters: Array<FilterNode | undefined> = [
    undefined,
    { kind: 'text', field: 'lastName', op: 'startswith', value: 'Deep' },
    // Selects the nulls too (two-valued ne).
    { kind: 'compare', field: 'email', op: 'ne', value: { type: 'string', value: 'd10@example.org' } },
  ];
  for (const filter of filters) {
    for (const orderBy of orders) {
      const all = await readRecords(rows, { ...base, filter, orderBy, window: 'all' });
      expect(all.length).toBeGreaterThan(DEEP_OFFSET + 40);
      for (const skip of [DEEP_OFFSET, DEEP_OFFSET + 37, all.length - 5, all.length, all.length + 1000]) {
        sent.length = 0;
        const page = await readRecords(rows, { ...base, filter, orderBy, window: { take: 20, skip } });
        expect(page).toEqual(all.slice(skip, skip + 20));
        expect(sent[0]).toMatch(/ WHERE t\."id" = ANY\(array\(SELECT s\."id" FROM "Customer" s .*LIMIT \$\d+ OFFSET \$\d+\)\) ORDER BY /);
        if (orderBy[0]!.field === 'debtorNumber') expect(sent[0]).not.toMatch(/"id" ASC/);
      }
    }
  }
});
