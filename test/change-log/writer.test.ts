import { randomUUID } from 'node:crypto';
import { appendChanges } from '../../src/domain/change-log/append';
import { inTransaction } from '../../src/db/unit-of-work';
import type { Services } from '../../src/domain/services';
import { createTestDatabase, type TestDatabase, servicesOf } from '../support/database';

// The change log at the service layer: each write's entries, in the write's transaction.

let db: TestDatabase;
let s: Services;
const alice = { userId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', requestId: 'req-1', personalData: true };

beforeAll(async () => {
  db = await createTestDatabase();
  s = servicesOf(db);
});
afterAll(() => db.close());

it('records a create, an update and a delete of a payment source', async () => {
  const account = await db.prisma.account.create({ data: { code: 'CL-1000', name: 'Bank', type: 'Asset', isActive: true } });
  const created = await s.paymentSources.create({ code: 'CL-1', name: 'One', accountId: account.id, sourceType: 'Cash' }, alice);
  await s.paymentSources.patch(created.id, { name: 'Uno' }, alice);
  await s.paymentSources.delete(created.id, alice);
  const entries = await s.changeLog.changesAfter(0n, 10);
  expect(entries.map((e) => e.operation)).toEqual(['created', 'updated', 'deleted']);
  expect(entries[1]!.changes.name).toEqual({ old: 'One', new: 'Uno' });
});

it('the database refuses UPDATE, DELETE and TRUNCATE on the log', async () => {
  const before = await s.changeLog.changesAfter(0n, 1000);
  expect(before.length).toBeGreaterThan(0);
  await expect(db.prisma.$executeRawUnsafe(`UPDATE "ChangeLog" SET "userId" = gen_random_uuid()`)).rejects.toThrow();
  await expect(db.prisma.$executeRawUnsafe(`DELETE FROM "ChangeLog"`)).rejects.toThrow();
  await expect(db.prisma.$executeRawUnsafe(`TRUNCATE "ChangeLog"`)).rejects.toThrow();
  // The expiry setting deletes only entries past the retention period: none of these.
  await expect(
    db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SELECT set_config('billing.change_log_expiry', 'on', true)`);
      await tx.$executeRawUnsafe(`DELETE FROM "ChangeLog"`);
    }),
  ).rejects.toThrow();
  expect(await s.changeLog.changesAfter(0n, 1000)).toEqual(before);
});

it('an entry takes its seq at commit, above every committed one; a client cannot give it one', async () => {
  const last = BigInt((await s.changeLog.changesAfter(0n, 1000)).at(-1)!.seq);
  const draft = (recordId: string) => [{ resource: 'payment-source' as const, recordId, operation: 'created' as const, changes: {} }];
  const seqOf = async (q: Pick<typeof db.prisma, '$queryRawUnsafe'>, recordId: string) =>
    (await q.$queryRawUnsafe<Array<{ seq: bigint }>>(`SELECT "seq" FROM "ChangeLog" WHERE "recordId" = $1::uuid`, recordId)).map((r) =>
      BigInt(r.seq),
    );
  const kept = randomUUID();
  // Inside its transaction the entry holds a placeholder (below zero); the commit gives it its seq.
  const inside = await inTransaction(db.prisma, async (tx) => {
    await appendChanges(draft(kept), { userId: alice.userId, occurredAt: new Date() });
    return seqOf(tx, kept);
  });
  expect(inside).toHaveLength(1);
  expect(inside[0]!).toBeLessThan(0n);
  const [committed] = await seqOf(db.prisma, kept);
  expect(committed!).toBeGreaterThan(last);
  // A client giving its entry a seq is an UPDATE of the log: refused, and the transaction with it.
  const forged = randomUUID();
  await expect(
    inTransaction(db.prisma, async (tx) => {
      await appendChanges(draft(forged), { userId: alice.userId, occurredAt: new Date() });
      await tx.$executeRawUnsafe(`UPDATE "ChangeLog" SET "seq" = $1 WHERE "recordId" = $2::uuid`, committed! + 1000n, forged);
    }),
  ).rejects.toThrow();
  expect(await seqOf(db.prisma, forged)).toEqual([]);
  expect(await db.prisma.$queryRawUnsafe(`SELECT "id" FROM "ChangeLog" WHERE "seq" <= 0`)).toEqual([]);
});
