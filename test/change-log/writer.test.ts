import { createServices, type Services } from '../../src/domain/services';
import { createTestDatabase, type TestDatabase } from '../support/database';

// The change log at the service layer: each write's entries, in the write's transaction.

let db: TestDatabase;
let s: Services;
const alice = { userId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', requestId: 'req-1' };

beforeAll(async () => {
  db = await createTestDatabase();
  s = createServices({ prisma: db.prisma, rows: db.rows });
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
