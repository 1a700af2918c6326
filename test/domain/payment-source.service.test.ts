import { AppError } from '../../src/errors/catalogue';
import { createServices, type Services } from '../../src/domain/services';
import { createTestDatabase, type TestDatabase } from '../support/database';

// The rules at the service layer, without HTTP: what both doors rely on.
let db: TestDatabase;
let s: Services;
const alice = { userId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', personalData: true };
const bob = { userId: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', personalData: true };
let asset: string;
let revenue: string;
let closedAsset: string;
let customerId: string;
let clock = new Date('2026-01-01T08:00:00.000Z');

beforeAll(async () => {
  db = await createTestDatabase();
  s = createServices({ prisma: db.prisma, rows: db.rows, now: () => clock });
  asset = (await db.prisma.account.create({ data: { code: '1800', name: 'Bank', type: 'Asset' } })).id;
  revenue = (await db.prisma.account.create({ data: { code: '4000', name: 'Fees', type: 'Revenue' } })).id;
  closedAsset = (await db.prisma.account.create({ data: { code: '1820', name: 'Old bank', type: 'Asset', isActive: false } })).id;
  customerId = (await db.prisma.customer.create({ data: { firstName: 'Ada', lastName: 'L', debtorNumber: '1' } })).id;
});
afterAll(async () => {
  await db.close();
});

const input = (over: Record<string, unknown> = {}) => ({
  code: 'UEB',
  name: 'Transfer',
  accountId: asset,
  sourceType: 'BankTransfer',
  ...over,
});
async function rejects(p: Promise<unknown>, code: string): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  expect((e as AppError).code).toBe(code);
  return e as AppError;
}

describe('PaymentSourceService', () => {
  it('creates with audit fields from the actor and the clock (rule 5)', async () => {
    const ps = await s.paymentSources.create(input({ isDefault: true }), alice);
    expect(ps).toMatchObject({
      code: 'UEB',
      createdById: alice.userId,
      createdAt: clock,
      updatedAt: null,
      updatedById: null,
      isActive: true,
      isDefault: true,
      description: null,
    });
  });

  it('rule 1: codes are unique, case-insensitively, and `_`/`%` are not wildcards', async () => {
    await rejects(s.paymentSources.create(input({ code: 'ueb' }), alice), 'DUPLICATE_CODE');
    await s.paymentSources.create(input({ code: 'A_B' }), alice);
    // "A_B" must not be taken for a pattern matching "AXB".
    await s.paymentSources.create(input({ code: 'AXB' }), alice);
    await s.paymentSources.create(input({ code: '10%' }), alice);
    await s.paymentSources.create(input({ code: '100' }), alice);
  });

  it('rule 2: only one default', async () => {
    const e = await rejects(s.paymentSources.create(input({ code: 'KK', isDefault: true }), alice), 'DEFAULT_ALREADY_SET');
    expect(e.detail).toContain('UEB');
  });

  it('rule 3: the account must be active and of type Asset', async () => {
    await rejects(s.paymentSources.create(input({ code: 'R1', accountId: revenue }), alice), 'ACCOUNT_NOT_USABLE');
    await rejects(s.paymentSources.create(input({ code: 'R2', accountId: closedAsset }), alice), 'ACCOUNT_NOT_USABLE');
    await rejects(
      s.paymentSources.create(input({ code: 'R3', accountId: '12345678-1234-4234-8234-123456789012' }), alice),
      'ACCOUNT_NOT_USABLE',
    );
  });

  it('rule 5 on update: updatedAt/updatedById set, created fields kept; patch keeps omitted fields', async () => {
    const ps = await s.paymentSources.create(input({ code: 'BAR', sourceType: 'Cash', description: 'cash desk' }), alice);
    clock = new Date('2026-02-01T09:00:00.000Z');
    const patched = await s.paymentSources.patch(ps.id, { name: 'Barkasse' }, bob);
    expect(patched).toMatchObject({
      name: 'Barkasse',
      description: 'cash desk',
      sourceType: 'Cash',
      createdById: alice.userId,
      updatedById: bob.userId,
      updatedAt: clock,
    });
    const replaced = await s.paymentSources.replace(ps.id, input({ code: 'BAR', name: 'Kasse', sourceType: 'Cash' }), alice);
    expect(replaced.description).toBeNull();
  });

  it('rule 4: a source with payments cannot be deleted', async () => {
    const ps = await s.paymentSources.create(input({ code: 'DEL' }), alice);
    await s.payments.create({ paymentSourceId: ps.id, customerId, amount: 12.5 }, alice);
    await rejects(s.paymentSources.delete(ps.id, alice), 'HAS_PAYMENTS');
    const empty = await s.paymentSources.create(input({ code: 'DEL2' }), alice);
    await s.paymentSources.delete(empty.id, alice);
    await rejects(s.paymentSources.get(empty.id), 'NOT_FOUND');
  });

  it('rules 6 and 7: the default source is chosen; inactive sources are refused but listed', async () => {
    const p = await s.payments.create({ customerId, amount: '5' }, alice);
    const def = await db.prisma.paymentSource.findFirstOrThrow({ where: { isDefault: true } });
    expect(p.paymentSourceId).toBe(def.id);
    const off = await s.paymentSources.create(input({ code: 'OFF', isActive: false }), alice);
    await rejects(s.payments.create({ paymentSourceId: off.id, customerId, amount: 1 }, alice), 'PAYMENT_SOURCE_INACTIVE');
    const listed = await s.paymentSources.list({
      limit: 100,
      filter: { kind: 'compare', field: 'isActive', op: 'eq', value: { type: 'boolean', value: false } },
    });
    expect(listed.items.map((i) => i.code)).toContain('OFF');
  });

  it('validates input and ids before touching the database', async () => {
    const e = await rejects(s.paymentSources.create({ code: '', sourceType: 'Nope', extra: 1 }, alice), 'VALIDATION_FAILED');
    expect(e.errors!.map((f) => f.field).sort()).toEqual(['accountId', 'code', 'extra', 'name', 'sourceType']);
    await rejects(s.paymentSources.get('nope'), 'VALIDATION_FAILED');
  });
});
