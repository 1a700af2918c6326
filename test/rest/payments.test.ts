import request from 'supertest';
import { createTestApp, WRITER_ID, type TestApp, bearer } from '../support/app';
import { defaultSource, fixture, inactiveSource } from '../support/fixture';

const BASE = '/api/v1/payments';
let t: TestApp;
const customerId = () => fixture.customers[0]!.id;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('POST /payments', () => {
  it('uses the default payment source when none is named (rule 6)', async () => {
    const res = await request(t.http)
      .post(BASE)
      .set(bearer(t.tokens.writer))
      .send({ customerId: customerId(), amount: 150.25, reference: 'INV-1' })
      .expect(201);
    expect(res.body).toMatchObject({
      paymentSourceId: defaultSource().id,
      customerId: customerId(),
      amount: 150.25,
      reference: 'INV-1',
      createdById: WRITER_ID,
    });
    expect(res.headers.location).toBe(`${BASE}/${res.body.id}`);
    expect(Math.abs(Date.parse(res.body.receivedAt) - Date.now())).toBeLessThan(60_000);
    const again = await request(t.http).get(`${BASE}/${res.body.id}`).set(bearer(t.tokens.writer)).expect(200);
    expect(again.body).toEqual(res.body);
  });

  it('keeps amounts exact to the last of four decimals', async () => {
    for (const amount of [0.0001, 0.1, 12345678.9999, 100000000000.0001]) {
      const res = await request(t.http).post(BASE).set(bearer(t.tokens.writer)).send({ customerId: customerId(), amount }).expect(201);
      const raw = (await request(t.http).get(`${BASE}/${res.body.id}`).set(bearer(t.tokens.writer)).buffer(true)).text;
      expect(raw).toContain(`"amount":${String(amount)}`);
      const row = await t.db.prisma.payment.findUniqueOrThrow({ where: { id: res.body.id } });
      expect(row.amount.toFixed(4)).toBe(amount.toFixed(4));
    }
  });

  it('takes an explicit source, receivedAt and reference', async () => {
    const src = fixture.paymentSources.find((s) => s.isActive && !s.isDefault)!;
    const res = await request(t.http)
      .post(BASE)
      .set(bearer(t.tokens.writer))
      .send({ paymentSourceId: src.id, customerId: customerId(), amount: '99.90', receivedAt: '2026-03-01T10:00:00+02:00' })
      .expect(201);
    expect(res.body).toMatchObject({ paymentSourceId: src.id, amount: 99.9, receivedAt: '2026-03-01T08:00:00.000Z', reference: null });
  });

  const refusals: Array<[string, () => Record<string, unknown>, number, string, string?]> = [
    [
      'an inactive source (rule 7)',
      () => ({ paymentSourceId: inactiveSource().id, customerId: customerId(), amount: 1 }),
      422,
      'PAYMENT_SOURCE_INACTIVE',
      'paymentSourceId',
    ],
    [
      'an unknown source',
      () => ({ paymentSourceId: '7e57a7e5-0000-4000-8000-000000000001', customerId: customerId(), amount: 1 }),
      400,
      'VALIDATION_FAILED',
      'paymentSourceId',
    ],
    [
      'an unknown customer',
      () => ({ customerId: '7e57a7e5-0000-4000-8000-000000000002', amount: 1 }),
      400,
      'VALIDATION_FAILED',
      'customerId',
    ],
    ['a missing customer', () => ({ amount: 1 }), 400, 'VALIDATION_FAILED', 'customerId'],
    ['a missing amount', () => ({ customerId: customerId() }), 400, 'VALIDATION_FAILED', 'amount'],
    ['a zero amount', () => ({ customerId: customerId(), amount: 0 }), 400, 'VALIDATION_FAILED', 'amount'],
    ['a negative amount', () => ({ customerId: customerId(), amount: -5 }), 400, 'VALIDATION_FAILED', 'amount'],
    ['five decimals', () => ({ customerId: customerId(), amount: 1.00001 }), 400, 'VALIDATION_FAILED', 'amount'],
    ['a float artefact', () => ({ customerId: customerId(), amount: 0.1 + 0.2 }), 400, 'VALIDATION_FAILED', 'amount'],
    ['a bad receivedAt', () => ({ customerId: customerId(), amount: 1, receivedAt: 'yesterday' }), 400, 'VALIDATION_FAILED', 'receivedAt'],
    ['an unknown property', () => ({ customerId: customerId(), amount: 1, currency: 'EUR' }), 400, 'VALIDATION_FAILED', 'currency'],
  ];
  it.each(refusals)('refuses %s and records nothing', async (_w, make, status, code, field) => {
    const before = await t.db.prisma.payment.count();
    const res = await request(t.http).post(BASE).set(bearer(t.tokens.writer)).send(make()).expect(status);
    expect(res.body.code).toBe(code);
    if (field) expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await t.db.prisma.payment.count()).toBe(before);
  });

  it('refuses a payment without source when there is no default (422 NO_DEFAULT_PAYMENT_SOURCE)', async () => {
    await t.db.prisma.paymentSource.updateMany({ where: { isDefault: true }, data: { isDefault: false } });
    try {
      const res = await request(t.http).post(BASE).set(bearer(t.tokens.writer)).send({ customerId: customerId(), amount: 5 }).expect(422);
      expect(res.body.code).toBe('NO_DEFAULT_PAYMENT_SOURCE');
    } finally {
      await t.db.prisma.paymentSource.update({ where: { id: defaultSource().id }, data: { isDefault: true } });
    }
  });

  it('inactive sources stay visible for historical records', async () => {
    const res = await request(t.http).get(`/api/v1/payment-sources/${inactiveSource().id}`).set(bearer(t.tokens.writer)).expect(200);
    expect(res.body.isActive).toBe(false);
  });
});

describe('GET /payments', () => {
  it('lists with OData and gets one', async () => {
    const list = await request(t.http)
      .get(`${BASE}?$count=true&$orderby=amount desc&$filter=amount gt 100`)
      .set(bearer(t.tokens.writer))
      .expect(200);
    expect(list.body['@odata.count']).toBe(list.body.value.length);
    expect(list.body.value.length).toBeGreaterThan(0);
    const amounts = list.body.value.map((p: { amount: number }) => p.amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    expect(amounts.every((a: number) => a > 100)).toBe(true);
    await request(t.http).get(`${BASE}/7e57a7e5-0000-4000-8000-000000000009`).set(bearer(t.tokens.writer)).expect(404);
  });
});
