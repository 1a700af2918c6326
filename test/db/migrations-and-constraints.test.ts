import { randomUUID } from 'node:crypto';
import { isCheckViolation, isForeignKeyViolation, isUniqueViolation } from '../../src/db/errors';
import { applyMigrations, readMigrations } from '../../src/db/migrate';
import { createTestDatabase, type TestDatabase } from '../support/database';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

const SYSTEM = '00000000-0000-0000-0000-000000000000';

/** The database's refusal of the write, whichever adapter reports it. */
async function refusal(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('the database accepted the write');
    },
    (e: unknown) => e,
  );
}
const unique = async (p: Promise<unknown>) => expect(isUniqueViolation(await refusal(p))).toBe(true);
const foreignKey = async (p: Promise<unknown>) => expect(isForeignKeyViolation(await refusal(p))).toBe(true);
const check = async (p: Promise<unknown>) => expect(isCheckViolation(await refusal(p))).toBe(true);

async function account(type: 'Asset' | 'Revenue' = 'Asset') {
  return db.prisma.account.create({ data: { code: `A-${randomUUID().slice(0, 8)}`, name: 'Bank', type } });
}
async function source(accountId: string, code: string, isDefault = false) {
  return db.prisma.paymentSource.create({ data: { code, name: code, accountId, sourceType: 'Cash', isDefault, createdById: SYSTEM } });
}
async function customer() {
  return db.prisma.customer.create({ data: { firstName: 'Ada', lastName: 'Lovelace', debtorNumber: `D-${randomUUID()}` } });
}

describe('migrations', () => {
  it('apply to an empty database and are recorded as prisma migrate records them', async () => {
    const rows = await db.session.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name',
    );
    const files = readMigrations();
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((m) => m.name));
    expect(rows.map((r) => r.checksum)).toEqual(files.map((m) => m.checksum));
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
    const tables = await db.session.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining([
        'AcademicTerm',
        'Account',
        'Address',
        'Article',
        'ArticlePrice',
        'Customer',
        'Payment',
        'PaymentSource',
        'TaxCode',
      ]),
    );
  });

  it("hold every column of an address in the index of a customer's addresses (its to-many reads need no heap)", async () => {
    // The index's columns in their order (the key column first) and how many are keys.
    const [index] = await db.session.query<{ keys: number; names: string[] }>(`SELECT i.indnkeyatts AS keys,
        array_agg(a.attname::text ORDER BY k.n) AS names
      FROM pg_index i
      JOIN pg_class x ON x.oid = i.indexrelid AND x.relname = 'Address_customerId_idx'
      CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
      JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
      GROUP BY i.indnkeyatts`);
    const ofTable = await db.session.query<{ name: string }>(
      "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'Address'",
    );
    expect(Number(index?.keys)).toBe(1);
    expect(index?.names[0]).toBe('customerId');
    expect([...(index?.names ?? [])].sort()).toEqual(ofTable.map((r) => r.name).sort());
  });

  it('applying again changes nothing', async () => {
    expect(await applyMigrations(db.session)).toEqual([]);
  });

  it('refuses to run when an applied migration was modified', async () => {
    const [first] = readMigrations();
    await expect(applyMigrations(db.session, [{ ...first!, checksum: 'f'.repeat(64) }])).rejects.toThrow(/modified/);
  });
});

describe('constraints keep the rules whatever the caller', () => {
  it('payment source codes are unique regardless of case', async () => {
    const a = await account();
    await source(a.id, 'Bar-Kasse');
    await unique(source(a.id, 'BAR-KASSE'));
    await unique(source(a.id, 'bar-kasse'));
  });

  it('at most one payment source is the default', async () => {
    const a = await account();
    await source(a.id, `DEF-${randomUUID().slice(0, 6)}`, true);
    await unique(source(a.id, `DEF-${randomUUID().slice(0, 6)}`, true));
    // Non-defaults are unlimited.
    await source(a.id, `ND-${randomUUID().slice(0, 6)}`);
    await source(a.id, `ND-${randomUUID().slice(0, 6)}`);
  });

  it('one default address per customer', async () => {
    const c = await customer();
    const addr = (isDefault: boolean, addressType = 'Billing') =>
      db.prisma.address.create({
        data: { customerId: c.id, addressType, street: 'Main 1', city: 'Town', postalCode: '12345', country: 'DE', isDefault },
      });
    await addr(true);
    await unique(addr(true, 'Home'));
    await addr(false, 'Home');
    // Another customer has a default of its own.
    const other = await customer();
    await db.prisma.address.create({
      data: { customerId: other.id, addressType: 'Billing', street: 'x', city: 'y', postalCode: 'z', country: 'DE', isDefault: true },
    });
  });

  it('debtor numbers are unique', async () => {
    const c = await customer();
    await unique(db.prisma.customer.create({ data: { firstName: 'B', lastName: 'C', debtorNumber: c.debtorNumber } }));
  });

  it('foreign keys refuse dangling references and deletes that would leave some', async () => {
    await foreignKey(source(randomUUID(), `FK-${randomUUID().slice(0, 6)}`));
    const a = await account();
    const s = await source(a.id, `FK2-${randomUUID().slice(0, 6)}`);
    const c = await customer();
    await db.prisma.payment.create({
      data: { paymentSourceId: s.id, customerId: c.id, amount: '1.00', receivedAt: new Date(), createdById: SYSTEM },
    });
    await foreignKey(db.prisma.paymentSource.delete({ where: { id: s.id } }));
    await foreignKey(db.prisma.account.delete({ where: { id: a.id } }));
  });

  it('checks amounts, tax types and date ranges', async () => {
    const a = await account();
    const s = await source(a.id, `CHK-${randomUUID().slice(0, 6)}`);
    const c = await customer();
    await check(
      db.prisma.payment.create({
        data: { paymentSourceId: s.id, customerId: c.id, amount: '0', receivedAt: new Date(), createdById: SYSTEM },
      }),
    );
    await check(
      db.prisma.taxCode.create({
        data: {
          code: 'X',
          name: 'x',
          rate: '19',
          taxType: 'GST',
          taxAccountId: a.id,
          revenueAccountId: a.id,
          validFrom: new Date(),
          createdById: SYSTEM,
        },
      }),
    );
    await check(
      db.prisma.academicTerm.create({ data: { code: 'WS1999', startDate: new Date('2000-01-01'), endDate: new Date('1999-01-01') } }),
    );
  });
});
