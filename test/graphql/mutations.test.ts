// Mutations through HTTP: what they write, and every rule violation with its catalogue code,
// each leaving the database as it was.

import { createTestApp, WRITER_ID, type TestApp } from '../support/app';
import { activeAssetAccount, defaultSource, fixture, inactiveAssetAccount, inactiveSource, nonAssetAccount } from '../support/fixture';
import { gql, gqlOk } from '../support/graphql';

let t: TestApp;
const UNKNOWN = '7e57a7e5-0000-4000-8000-00000000abcd';
const SOURCE_FIELDS = 'id code name description accountId sourceType isActive isDefault createdAt createdById updatedAt updatedById';
const CREATE = `mutation($input: CreatePaymentSourceInput!) { createPaymentSource(input: $input) { ${SOURCE_FIELDS} account { id } } }`;
const UPDATE = `mutation($id: ID!, $input: UpdatePaymentSourceInput!) { updatePaymentSource(id: $id, input: $input) { ${SOURCE_FIELDS} } }`;
const DELETE = 'mutation($id: ID!) { deletePaymentSource(id: $id) }';
const PAY =
  'mutation($input: CreatePaymentInput!) { createPayment(input: $input) { id paymentSourceId customerId amount receivedAt reference createdAt createdById paymentSource { code } customer { id } } }';
const customerId = () => fixture.customers[0]!.id;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** The whole state the mutations can touch, to show that a refused one changed nothing. */
async function snapshot() {
  const [sources, payments] = await Promise.all([
    t.db.prisma.paymentSource.findMany({ orderBy: { id: 'asc' } }),
    t.db.prisma.payment.findMany({ orderBy: { id: 'asc' } }),
  ]);
  return JSON.stringify({ sources, payments });
}

async function expectRefused(query: string, variables: Record<string, unknown>, code: string, field?: string) {
  const before = await snapshot();
  const res = await gql(t, query, variables);
  expect(res.errors).toHaveLength(1);
  const e = res.errors![0]!;
  expect(e.extensions.code).toBe(code);
  if (field !== undefined) {
    expect(e.extensions.field).toBe(field);
    expect(e.extensions.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
  }
  expect(e.message).not.toMatch(/prisma|SELECT|INSERT|UPDATE "|at .*\.ts:/i);
  expect(e.extensions.stacktrace).toBeUndefined();
  expect(await snapshot()).toBe(before);
  return res;
}

describe('createPaymentSource', () => {
  it('creates a source with defaults and the audit fields', async () => {
    const input = { code: 'GQL-1', name: 'GraphQL source', accountId: activeAssetAccount().id.toUpperCase(), sourceType: 'OnlineWallet' };
    const data = await gqlOk(t, CREATE, { input });
    const created = data.createPaymentSource;
    expect(created).toMatchObject({
      code: 'GQL-1',
      name: 'GraphQL source',
      description: null,
      accountId: activeAssetAccount().id,
      sourceType: 'OnlineWallet',
      isActive: true,
      isDefault: false,
      createdById: WRITER_ID,
      updatedAt: null,
      updatedById: null,
      account: { id: activeAssetAccount().id },
    });
    expect(Math.abs(Date.parse(created.createdAt) - Date.now())).toBeLessThan(60_000);
    const row = await t.db.prisma.paymentSource.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.code).toBe('GQL-1');
  });

  it.each([
    ['an empty code', { code: '' }, 'VALIDATION_FAILED', 'code'],
    ['a code of 51 characters', { code: 'x'.repeat(51) }, 'VALIDATION_FAILED', 'code'],
    ['a description of 1001 characters', { description: 'd'.repeat(1001) }, 'VALIDATION_FAILED', 'description'],
    ['a used code (any case)', { code: defaultSource().code.toLowerCase() }, 'DUPLICATE_CODE', 'code'],
    ['a second default', { isDefault: true }, 'DEFAULT_ALREADY_SET', 'isDefault'],
    ['an account not of type Asset', { accountId: nonAssetAccount().id }, 'ACCOUNT_NOT_USABLE', 'accountId'],
    ['an inactive account', { accountId: inactiveAssetAccount().id }, 'ACCOUNT_NOT_USABLE', 'accountId'],
    ['an unknown account', { accountId: UNKNOWN }, 'ACCOUNT_NOT_USABLE', 'accountId'],
  ])('refuses %s', async (_what, change, code, field) => {
    const input = { code: 'GQL-NEW', name: 'New', accountId: activeAssetAccount().id, sourceType: 'Cash', ...change };
    await expectRefused(CREATE, { input }, code, field);
  });

  it('refuses a malformed UUID in a variable as VALIDATION_FAILED naming the field', async () => {
    const res = await expectRefused(
      CREATE,
      { input: { code: 'X', name: 'X', accountId: 'not-a-uuid', sourceType: 'Cash' } },
      'VALIDATION_FAILED',
      'accountId',
    );
    expect(res.status).toBe(400);
  });

  it('refuses a malformed UUID written in the query as VALIDATION_FAILED', async () => {
    const res = await gql(
      t,
      `mutation { createPaymentSource(input: { code: "X", name: "X", accountId: "nope", sourceType: Cash }) { id } }`,
    );
    expect(res.status).toBe(400);
    expect(res.errors?.[0]?.extensions.code).toBe('VALIDATION_FAILED');
    expect(res.errors?.[0]?.message).toContain('UUID');
  });

  it('refuses an unknown enum value or a missing required field (GraphQL input rules)', async () => {
    const bad = await gql(t, CREATE, { input: { code: 'X', name: 'X', accountId: activeAssetAccount().id, sourceType: 'Barter' } });
    expect(bad.status).toBe(400);
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'sourceType' });
    const missing = await gql(t, CREATE, { input: { code: 'X', accountId: activeAssetAccount().id, sourceType: 'Cash' } });
    expect(missing.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'name' });
  });
});

describe('updatePaymentSource', () => {
  let id: string;
  beforeAll(async () => {
    const data = await gqlOk(t, CREATE, {
      input: { code: 'UPD-1', name: 'To update', description: 'first', accountId: activeAssetAccount().id, sourceType: 'Check' },
    });
    id = data.createPaymentSource.id;
  });

  it('changes only the given fields and records who and when', async () => {
    const data = await gqlOk(t, UPDATE, { id, input: { name: 'Updated', isActive: false } });
    expect(data.updatePaymentSource).toMatchObject({
      id,
      code: 'UPD-1',
      name: 'Updated',
      description: 'first',
      sourceType: 'Check',
      isActive: false,
      updatedById: WRITER_ID,
    });
    expect(data.updatePaymentSource.updatedAt).not.toBeNull();
    const cleared = await gqlOk(t, UPDATE, { id, input: { description: null } });
    expect(cleared.updatePaymentSource).toMatchObject({ name: 'Updated', description: null });
  });

  it('lets a source keep its own code in another case', async () => {
    const data = await gqlOk(t, UPDATE, { id, input: { code: 'upd-1' } });
    expect(data.updatePaymentSource.code).toBe('upd-1');
  });

  it.each([
    ['an unknown id', () => UNKNOWN, {}, 'NOT_FOUND', undefined],
    ["another source's code", () => id, { code: defaultSource().code }, 'DUPLICATE_CODE', 'code'],
    ['a second default', () => id, { isDefault: true }, 'DEFAULT_ALREADY_SET', 'isDefault'],
    ['a non-Asset account', () => id, { accountId: nonAssetAccount().id }, 'ACCOUNT_NOT_USABLE', 'accountId'],
    ['an empty name', () => id, { name: '' }, 'VALIDATION_FAILED', 'name'],
    ['a null code', () => id, { code: null }, 'VALIDATION_FAILED', 'code'],
  ])('refuses %s', async (_what, target, input, code, field) => {
    await expectRefused(UPDATE, { id: target(), input }, code, field);
  });
});

describe('deletePaymentSource', () => {
  it('deletes a source without payments', async () => {
    const data = await gqlOk(t, CREATE, {
      input: { code: 'DEL-1', name: 'To delete', accountId: activeAssetAccount().id, sourceType: 'Other' },
    });
    const id = data.createPaymentSource.id;
    expect(await gqlOk(t, DELETE, { id })).toEqual({ deletePaymentSource: true });
    expect(await t.db.prisma.paymentSource.findUnique({ where: { id } })).toBeNull();
    await expectRefused(DELETE, { id }, 'NOT_FOUND');
  });

  it('refuses to delete a source that has payments', async () => {
    const data = await gqlOk(t, CREATE, {
      input: { code: 'DEL-2', name: 'With payments', accountId: activeAssetAccount().id, sourceType: 'Cash' },
    });
    const id = data.createPaymentSource.id;
    await gqlOk(t, PAY, { input: { paymentSourceId: id, customerId: customerId(), amount: 5 } });
    await expectRefused(DELETE, { id }, 'HAS_PAYMENTS');
  });
});

describe('createPayment', () => {
  it('uses the default source when none is named, and keeps the amount exact', async () => {
    const data = await gqlOk(t, PAY, { input: { customerId: customerId(), amount: '12345678.9999', reference: 'GQL' } });
    expect(data.createPayment).toMatchObject({
      paymentSourceId: defaultSource().id,
      customerId: customerId(),
      amount: 12345678.9999,
      reference: 'GQL',
      createdById: WRITER_ID,
      paymentSource: { code: defaultSource().code },
      customer: { id: customerId() },
    });
    const row = await t.db.prisma.payment.findUniqueOrThrow({ where: { id: data.createPayment.id } });
    expect(row.amount.toFixed(4)).toBe('12345678.9999');
  });

  it('takes an explicit source and receivedAt (null means "not given")', async () => {
    const src = fixture.paymentSources.find((s) => s.isActive && !s.isDefault)!;
    const data = await gqlOk(t, PAY, {
      input: { paymentSourceId: src.id, customerId: customerId(), amount: 1, receivedAt: '2026-03-01T10:00:00+02:00' },
    });
    expect(data.createPayment).toMatchObject({ paymentSourceId: src.id, receivedAt: '2026-03-01T08:00:00.000Z', reference: null });
    const dflt = await gqlOk(t, PAY, { input: { paymentSourceId: null, receivedAt: null, customerId: customerId(), amount: 1 } });
    expect(dflt.createPayment.paymentSourceId).toBe(defaultSource().id);
  });

  it.each([
    [
      'an inactive source',
      () => ({ paymentSourceId: inactiveSource().id, customerId: customerId(), amount: 1 }),
      'PAYMENT_SOURCE_INACTIVE',
      'paymentSourceId',
    ],
    [
      'an unknown source',
      () => ({ paymentSourceId: UNKNOWN, customerId: customerId(), amount: 1 }),
      'VALIDATION_FAILED',
      'paymentSourceId',
    ],
    ['an unknown customer', () => ({ customerId: UNKNOWN, amount: 1 }), 'VALIDATION_FAILED', 'customerId'],
    ['a zero amount', () => ({ customerId: customerId(), amount: 0 }), 'VALIDATION_FAILED', 'amount'],
    ['five decimals', () => ({ customerId: customerId(), amount: '1.00001' }), 'VALIDATION_FAILED', 'amount'],
    ['a float artefact', () => ({ customerId: customerId(), amount: 0.1 + 0.2 }), 'VALIDATION_FAILED', 'amount'],
    ['a non-numeric amount', () => ({ customerId: customerId(), amount: 'ten' }), 'VALIDATION_FAILED', 'amount'],
    [
      'a date-time without a zone',
      () => ({ customerId: customerId(), amount: 1, receivedAt: '2026-03-01T10:00:00' }),
      'VALIDATION_FAILED',
      'receivedAt',
    ],
  ])('refuses %s', async (_what, input, code, field) => {
    await expectRefused(PAY, { input: input() }, code, field);
  });

  it('refuses a payment without a source when no source is the default', async () => {
    const dflt = defaultSource();
    await gqlOk(t, UPDATE, { id: dflt.id, input: { isDefault: false } });
    try {
      await expectRefused(PAY, { input: { customerId: customerId(), amount: 1 } }, 'NO_DEFAULT_PAYMENT_SOURCE');
    } finally {
      await gqlOk(t, UPDATE, { id: dflt.id, input: { isDefault: true } });
    }
  });
});
