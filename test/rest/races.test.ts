// Two writers in parallel transactions on PostgreSQL: both pass the rules' checks before
// either has committed, and the database decides. This file's own connection holds a lock on
// the table both write, so both requests are inside their transactions, waiting, before it
// lets them go; one wins, the other is refused with the rule's 409 naming the winner.
// (PostgreSQL leg only, jest.config.js POSTGRES_ONLY: the embedded database has one connection,
// so two of its transactions never overlap.)

import { Client } from 'pg';
import request from 'supertest';
import { bearer, createTestApp, token, WRITER_ID, type TestApp } from '../support/app';
import { activeAssetAccount, defaultSource, fixture } from '../support/fixture';
import { until } from '../support/until';

const API = '/api/v1';
let t: TestApp;
let tok: string;

beforeAll(async () => {
  t = await createTestApp();
  tok = await token('billing.read billing.write billing.maintain billing.pii', WRITER_ID);
});
afterAll(() => t.close());

const unique = () => Math.random().toString(36).slice(2, 8).toUpperCase();
const post = (path: string, body: object) => request(t.http).post(`${API}${path}`).set(bearer(tok)).send(body);

/** How many other sessions of the test database wait on a lock now. */
async function waitingOnLocks(c: Client): Promise<number> {
  // Inside a transaction the statistics views keep their first answer unless cleared.
  await c.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await c.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Sends the requests while `table` is locked against writes, lets them go once `waiting` of
 * them wait on a lock inside their transactions, and gives their answers.
 */
async function race(table: string, waiting: number, send: () => request.Test[]): Promise<request.Response[]> {
  const c = new Client({ connectionString: t.db.url });
  await c.connect();
  try {
    await c.query('BEGIN');
    // The table's name is one of this file's constants.
    await c.query(`LOCK TABLE "${table}" IN EXCLUSIVE MODE`);
    const answers = Promise.all(send().map((r) => r.then((res) => res)));
    await until(`${waiting} writers waiting on ${table}`, async () => (await waitingOnLocks(c)) >= waiting);
    await c.query('COMMIT');
    return await answers;
  } finally {
    await c.end();
  }
}

const outcome = (answers: request.Response[]) => answers.map((a) => a.status).sort();

it('two overlapping periods of one tax code: one is created, the other PERIOD_OVERLAP naming it', async () => {
  const code = `R${unique()}`;
  const taxCode = (validFrom: string) => ({
    code,
    name: 'Race',
    rate: 19,
    taxType: 'VAT',
    taxAccountId: fixture.accounts.find((a) => a.type === 'Liability' && a.isActive)!.id,
    revenueAccountId: fixture.accounts.find((a) => a.type === 'Revenue' && a.isActive)!.id,
    validFrom,
  });
  const answers = await race('TaxCode', 2, () => [
    post('/tax-codes', taxCode('2099-01-01T00:00:00Z')),
    post('/tax-codes', taxCode('2099-02-01T00:00:00Z')),
  ]);
  expect(outcome(answers)).toEqual([201, 409]);
  const won = answers.find((a) => a.status === 201)!;
  const lost = answers.find((a) => a.status === 409)!;
  expect(lost.body.code).toBe('PERIOD_OVERLAP');
  expect(lost.body.detail).toContain(won.body.id);
  expect(await t.db.prisma.taxCode.count({ where: { code } })).toBe(1);
  expect(await t.db.prisma.changeLog.count({ where: { recordId: won.body.id } })).toBe(1);
});

it('two new default payment sources: one is the default, the other DEFAULT_ALREADY_SET', async () => {
  await request(t.http).patch(`${API}/payment-sources/${defaultSource().id}`).set(bearer(tok)).send({ isDefault: false }).expect(200);
  const source = () => ({ code: `R${unique()}`, name: 'Race', sourceType: 'Other', accountId: activeAssetAccount().id, isDefault: true });
  const answers = await race('PaymentSource', 2, () => [post('/payment-sources', source()), post('/payment-sources', source())]);
  expect(outcome(answers)).toEqual([201, 409]);
  const won = answers.find((a) => a.status === 201)!;
  expect(answers.find((a) => a.status === 409)!.body.code).toBe('DEFAULT_ALREADY_SET');
  const defaults = await t.db.prisma.paymentSource.findMany({ where: { isDefault: true } });
  expect(defaults.map((d) => d.id)).toEqual([won.body.id]);
});

it('two new default addresses of one customer: one is the default, the other DEFAULT_ALREADY_SET', async () => {
  const customer = await post('/customers', {
    firstName: 'Rita',
    lastName: 'Rennen',
    debtorNumber: `8${Date.now()}`.slice(0, 12),
    addresses: [{ addressType: 'Home', street: 'Weg 1', city: 'Stadt', postalCode: '11111', country: 'DE' }],
  }).expect(201);
  const address = (street: string) => ({
    addressType: 'Billing',
    street,
    city: 'Stadt',
    postalCode: '11111',
    country: 'DE',
    isDefault: true,
  });
  // The first waits on the table inside its transaction, the second on the customer's row the first has locked.
  const answers = await race('Address', 2, () => [
    post(`/customers/${customer.body.id}/addresses`, address('Erste 1')),
    post(`/customers/${customer.body.id}/addresses`, address('Zweite 2')),
  ]);
  expect(outcome(answers)).toEqual([201, 409]);
  expect(answers.find((a) => a.status === 409)!.body.code).toBe('DEFAULT_ALREADY_SET');
  const defaults = await t.db.prisma.address.findMany({ where: { customerId: customer.body.id, isDefault: true } });
  expect(defaults.map((d) => d.id)).toEqual([answers.find((a) => a.status === 201)!.body.id]);
});

it('two change sets in parallel units of work: the loser is rolled back whole, its refusal checked again inside its unit', async () => {
  const code = `RB${unique()}`;
  const group = (validFrom: string, account: string) => ({
    requests: [
      { id: 'a', atomicityGroup: 'g', method: 'post', url: 'accounts', body: { code: account, name: 'Race', type: 'Expense' } },
      {
        id: 't',
        atomicityGroup: 'g',
        method: 'post',
        url: 'tax-codes',
        body: {
          code,
          name: 'Race',
          rate: 7,
          taxType: 'VAT',
          taxAccountId: fixture.accounts.find((a) => a.type === 'Liability' && a.isActive)!.id,
          revenueAccountId: fixture.accounts.find((a) => a.type === 'Revenue' && a.isActive)!.id,
          validFrom,
        },
      },
    ],
  });
  const [one, two] = [`RA${unique()}`, `RC${unique()}`];
  const answers = await race('TaxCode', 2, () => [
    post('/$batch', group('2099-03-01T00:00:00Z', one)),
    post('/$batch', group('2099-04-01T00:00:00Z', two)),
  ]);
  const statuses = answers.map((a) => a.body.responses.map((r: { status: number }) => r.status));
  expect(statuses.sort()).toEqual([
    [201, 201],
    [424, 409],
  ]);
  const lost = answers.find((a) => a.body.responses[1].status === 409)!;
  expect(lost.body.responses[1].body.code).toBe('PERIOD_OVERLAP');
  expect(await t.db.prisma.taxCode.count({ where: { code } })).toBe(1);
  // The loser's account, written before its tax code in the same unit, is not kept either.
  expect(await t.db.prisma.account.count({ where: { code: { in: [one, two] } } })).toBe(1);
});

it('a write that PostgreSQL ends to break a deadlock is run again, not answered with a 500', async () => {
  const liability = async (code: string) =>
    (await post('/accounts', { code, name: 'Race', type: 'Liability' }).expect(201)).body.id as string;
  const [first, second] = [await liability(`RL${unique()}`), await liability(`RM${unique()}`)];
  const taxCode = await post('/tax-codes', {
    code: `RD${unique()}`,
    name: 'Race',
    rate: 7,
    taxType: 'VAT',
    taxAccountId: first,
    revenueAccountId: fixture.accounts.find((a) => a.type === 'Revenue' && a.isActive)!.id,
    validFrom: '2099-05-01T00:00:00Z',
  }).expect(201);
  const c = new Client({ connectionString: t.db.url });
  await c.connect();
  try {
    // This connection holds the new account; the write locks its tax code, then waits for the
    // account (the foreign key's check). Once it waits, this connection asks for the tax code:
    // a deadlock, which PostgreSQL breaks by ending the write's transaction, whose wait began first.
    await c.query('BEGIN');
    await c.query('SELECT 1 FROM "Account" WHERE "id" = $1 FOR UPDATE', [second]);
    const answer = request(t.http)
      .patch(`${API}/tax-codes/${taxCode.body.id}`)
      .set(bearer(tok))
      .send({ taxAccountId: second })
      .then((r) => r);
    await until('the write waiting for the account', async () => (await waitingOnLocks(c)) >= 1);
    await c.query('SELECT 1 FROM "TaxCode" WHERE "id" = $1 FOR UPDATE', [taxCode.body.id]);
    await c.query('COMMIT');
    const r = await answer;
    expect(r.status).toBe(200);
    expect(r.body.taxAccountId).toBe(second);
  } finally {
    await c.end();
  }
  const entries = await t.db.prisma.changeLog.findMany({ where: { recordId: taxCode.body.id }, orderBy: { seq: 'asc' } });
  expect(entries.map((e) => e.operation)).toEqual(['created', 'updated']);
});
