import { createServices, type Services } from '../../src/domain/services';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { activeAssetAccount } from '../support/fixture';

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
  void activeAssetAccount;
});
