import { fieldNames } from '../../src/query/fields';
import { readRecords } from '../../src/db/read/compile';
import type { Row } from '../../src/db/read/row';
import { CHANGE_LOG_TABLE, changeLogColumns, changeLogFields } from '../../src/domain/change-log/fields';
import type { ChangeEntry } from '../../src/domain/change-log/service';
import type { Prisma } from '../../src/db/__generated__/prisma/client';
import type { SortKey } from '../../src/query/filter-tree';
import { parseODataOptions } from '../../src/rest/odata/options';
import { createTestApp, type TestApp } from '../support/app';
import { activeAssetAccount } from '../support/fixture';
import { toPrismaOrderBy, toPrismaWhere } from '../support/prisma-where';

// The change log is read through the compiled read path (src/db/read) like every resource:
// its rows, a 64-bit seq and jsonb changes among their columns, are exactly the rows Prisma's
// findMany gives, and the service's feed, lists, counts and histories select the entries the
// earlier Prisma translation selected (test/support/prisma-where.ts, the oracle), in the same
// order. On PGlite by default, on PostgreSQL with DATABASE_URL.

// The row type is the columns' catalogue, and the same as Prisma's (npm run typecheck).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameType: Same<Row<typeof changeLogColumns>, Prisma.ChangeLogGetPayload<object>> = true;

/** Beyond a JavaScript number's exact integers: a seq must come out as the database holds it. */
const BIG_SEQ = 2n ** 53n + 1n;
const alice = { userId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', requestId: 'req-reads', personalData: true };

let t: TestApp;
beforeAll(async () => {
  // The demo data's import logs every record it writes; then a few writes with seqs past 2^53.
  t = await createTestApp();
  await t.db.session.exec(`ALTER SEQUENCE "ChangeLog_seq_seq" RESTART WITH ${BIG_SEQ}`);
  const created = await t.services.paymentSources.create(
    { code: 'RD-1', name: 'One', accountId: activeAssetAccount().id, sourceType: 'Cash' },
    alice,
  );
  await t.services.paymentSources.patch(created.id, { name: 'Uno', description: 'read back' }, alice);
});
afterAll(() => t.close());

const prismaRows = (args: Prisma.ChangeLogFindManyArgs = {}) => t.db.prisma.changeLog.findMany({ orderBy: { seq: 'asc' }, ...args });
const ids = (entries: readonly ChangeEntry[]) => entries.map((e) => e.id);

it("rows of every column, the bigint seq and the JSON changes among them, are findMany's", async () => {
  expect(sameType).toBe(true);
  const rows = await readRecords(t.db.rows, {
    table: CHANGE_LOG_TABLE,
    fields: changeLogColumns,
    select: fieldNames(changeLogColumns),
    orderBy: [{ field: 'seq', direction: 'asc' }],
    window: 'all',
  });
  const expected = await prismaRows();
  expect(expected.length).toBeGreaterThan(100);
  expect(rows).toEqual(expected);
  expect(expected.at(-1)!.seq).toBe(BIG_SEQ + 1n);
});

it("the feed after a seq is findMany's, each seq exact", async () => {
  const all = await prismaRows();
  for (const after of [0n, all[5]!.seq, BIG_SEQ - 1n, BIG_SEQ]) {
    const entries = await t.services.changeLog.changesAfter(after, 50);
    const expected = await prismaRows({ where: { seq: { gt: after } }, take: 50 });
    expect(ids(entries)).toEqual(expected.map((r) => r.id));
    expect(entries.map((e) => e.seq)).toEqual(expected.map((r) => r.seq.toString()));
  }
  const [last] = await t.services.changeLog.changesAfter(BIG_SEQ, 10);
  expect(last).toMatchObject({
    seq: '9007199254740994',
    operation: 'updated',
    requestId: 'req-reads',
    changes: { name: { old: 'One', new: 'Uno' }, description: { old: null, new: 'read back' } },
  });
  expect(await t.services.changeLog.get(last!.id)).toEqual(last);
  await expect(t.services.changeLog.get('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'NOT_FOUND' });
});

const FILTERS = [
  "resource eq 'article-price'",
  "operation ne 'created'",
  'requestId eq null',
  'requestId ne null',
  "contains(resource, 'price') or resource eq 'payment-source'",
  "importRunId ne null and not (operation eq 'updated')",
  `userId eq ${alice.userId}`,
  "toupper(requestId) eq 'REQ-READS'",
  'occurredAt ge 2000-01-01T00:00:00Z',
];
const ORDERS: SortKey[][] = [
  [],
  [{ field: 'resource', direction: 'desc' }],
  [
    { field: 'requestId', direction: 'asc' },
    { field: 'operation', direction: 'desc' },
  ],
];

it("lists with filters, orders and offsets select findMany's entries, with its count", async () => {
  for (const $filter of FILTERS) {
    const { filter } = parseODataOptions({ $filter }, changeLogFields);
    const where = toPrismaWhere(filter, changeLogFields) as Prisma.ChangeLogWhereInput;
    // Each filter selects some entries and leaves others out (the last one all).
    expect([$filter, (await t.db.prisma.changeLog.count({ where })) > 0]).toEqual([$filter, true]);
    for (const orderBy of ORDERS) {
      for (const offset of [0, 7]) {
        const page = await t.services.changeLog.list({ filter, orderBy, limit: 20, offset, count: true });
        const expected = await t.db.prisma.changeLog.findMany({
          where,
          orderBy: toPrismaOrderBy(orderBy, changeLogFields),
          skip: offset,
          take: 21,
        });
        expect([$filter, orderBy, offset, ids(page.items)]).toEqual([$filter, orderBy, offset, expected.slice(0, 20).map((r) => r.id)]);
        expect(page.hasMore).toBe(expected.length > 20);
        expect(page.totalCount).toBe(await t.db.prisma.changeLog.count({ where }));
      }
    }
    // The feed: the same filter after a seq, in seq order; its count is the filter's alone.
    const after = (await prismaRows({ take: 3 }))[2]!.seq;
    const feed = await t.services.changeLog.feed({ filter, after, limit: 10, offset: 2, count: true });
    const expected = await prismaRows({ where: { AND: [where, { seq: { gt: after } }] }, skip: 2, take: 11 });
    expect([$filter, ids(feed.items)]).toEqual([$filter, expected.slice(0, 10).map((r) => r.id)]);
    expect(feed.hasMore).toBe(expected.length > 10);
    expect(feed.totalCount).toBe(await t.db.prisma.changeLog.count({ where }));
  }
});

it("a record's history, and many records' at once, are findMany's", async () => {
  const some = await prismaRows({ where: { resource: 'customer' }, take: 3 });
  const recordIds = some.map((r) => r.recordId);
  // A customer's history: its entries and its addresses' (their owner).
  const historyOf = (id: string) =>
    prismaRows({
      where: {
        OR: [
          { resource: 'customer', recordId: id },
          { resource: 'address', ownerId: id },
        ],
      },
    });
  const batched = await t.services.changeLog.historyOf('customer', recordIds);
  for (const id of recordIds) {
    const expected = await historyOf(id);
    expect(expected.some((r) => r.resource === 'address')).toBe(true);
    expect(ids(batched.get(id) ?? [])).toEqual(expected.map((r) => r.id));
  }
  expect([...batched.keys()].sort()).toEqual([...recordIds].sort());
  const filter = await t.services.changeLog.historyFilter('customer', recordIds[0]!.toUpperCase(), () =>
    Promise.reject(new Error('not asked: the record has entries')),
  );
  const page = await t.services.changeLog.feed({ filter, limit: 100 });
  expect(ids(page.items)).toEqual((await historyOf(recordIds[0]!)).map((r) => r.id));
  // No entry: the record's own read decides (NOT_FOUND when it never existed).
  const asked: string[] = [];
  await t.services.changeLog.historyFilter('article', recordIds[0]!, (id) => Promise.resolve(asked.push(id)));
  expect(asked).toEqual([recordIds[0]]);
});
