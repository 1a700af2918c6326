import { randomUUID } from 'node:crypto';
import { applyMigrations, readMigrations } from '../../src/db/migrate';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { WRITER_ID } from '../support/app';

// The migration that gives change-log entries their owner (prisma/migrations/
// 20261206020000_change_log_owner) finds the owner of the address entries written before it:
// a create or a move names its customer, a delete the one it left, any other update takes it
// from the address's earlier entries, else its later ones, else the address row.

const OWNER_MIGRATION = '20261206020000_change_log_owner';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
  await applyMigrations(
    db.session,
    readMigrations().filter((m) => m.name < OWNER_MIGRATION),
  );
});
afterAll(() => db.close());

const customer = async (): Promise<string> => {
  const id = randomUUID();
  await db.session.query(`INSERT INTO "Customer" ("id", "firstName", "lastName", "debtorNumber") VALUES ($1, 'Ada', 'Byron', $2)`, [
    id,
    `D-${id}`,
  ]);
  return id;
};

/** An entry as the writers appended them before the migration (no owner), committed on its own. */
async function entry(resource: string, recordId: string, operation: string, changes: object): Promise<string> {
  const [row] = await db.session.query<{ id: string }>(
    `INSERT INTO "ChangeLog" ("resource", "recordId", "operation", "changes", "userId", "occurredAt")
     VALUES ($1, $2, $3::"ChangeOperation", $4::jsonb, $5, now()) RETURNING "id"`,
    [resource, recordId, operation, JSON.stringify(changes), WRITER_ID],
  );
  return row!.id;
}

it('backfills the owner of every address entry, and keeps the log append-only', async () => {
  const a = await customer();
  const b = await customer();
  const [moved, older, gone] = [randomUUID(), randomUUID(), randomUUID()];
  // An address older than the log, still A's: only an update of it is logged.
  await db.session.query(
    `INSERT INTO "Address" ("id", "customerId", "addressType", "street", "city", "postalCode", "country") VALUES ($1, $2, 'Home', 's', 'c', 'p', 'DE')`,
    [older, a],
  );
  const e = {
    customer: await entry('customer', a, 'created', { lastName: { old: null, new: 'Byron' } }),
    created: await entry('address', moved, 'created', { customerId: { old: null, new: a }, street: { old: null, new: 'x' } }),
    updatedAtA: await entry('address', moved, 'updated', { street: { old: 'x', new: 'y' } }),
    olderUpdated: await entry('address', older, 'updated', { city: { old: 'b', new: 'c' } }),
    // Logged before any entry naming its customer, then deleted from B.
    goneUpdated: await entry('address', gone, 'updated', { city: { old: 'b', new: 'c' } }),
    move: await entry('address', moved, 'updated', { customerId: { old: a, new: b } }),
    updatedAtB: await entry('address', moved, 'updated', { city: { old: 'c', new: 'd' } }),
    deleted: await entry('address', moved, 'deleted', { customerId: { old: b, new: null }, street: { old: 'y', new: null } }),
    goneDeleted: await entry('address', gone, 'deleted', { customerId: { old: b, new: null } }),
  };

  expect(await applyMigrations(db.session)).toEqual([
    OWNER_MIGRATION,
    ...readMigrations()
      .map((m) => m.name)
      .filter((n) => n > OWNER_MIGRATION),
  ]);

  const rows = await db.session.query<{ id: string; ownerId: string | null }>(`SELECT "id", "ownerId" FROM "ChangeLog"`);
  const owner = new Map(rows.map((r) => [r.id, r.ownerId]));
  expect(Object.fromEntries(Object.entries(e).map(([name, id]) => [name, owner.get(id)]))).toEqual({
    customer: null,
    created: a,
    updatedAtA: a,
    olderUpdated: a,
    goneUpdated: b,
    move: b,
    updatedAtB: b,
    deleted: b,
    goneDeleted: b,
  });

  // Append-only again: an UPDATE is refused, owner or not.
  await expect(db.session.query(`UPDATE "ChangeLog" SET "ownerId" = NULL WHERE "id" = $1`, [e.created])).rejects.toThrow(/append-only/);
});
