// Bulk upsert by natural key, as a campus management system syncs its students: REST PATCH of
// a collection with an OData delta payload and GraphQL upsert<X>s, one result per record
// (created, updated, unchanged, refused), all or nothing unless continue-on-error, one
// change-log entry per changed record and none for an unchanged one, address ids kept, the
// same refusals as the single upsert, and the limits checked before any work.

import request from 'supertest';
import { bearer, createTestApp, token, WRITER_ID, type TestApp } from '../support/app';
import { activeAssetAccount, fixture, inactiveAssetAccount, nonAssetAccount } from '../support/fixture';
import { gql, gqlOk } from '../support/graphql';

const API = '/api/v1';
let t: TestApp;
let maintainer: string;
let withoutPii: string;

beforeAll(async () => {
  t = await createTestApp();
  maintainer = await token('billing.read billing.maintain billing.pii', WRITER_ID);
  withoutPii = await token('billing.read billing.maintain', WRITER_ID);
});
afterAll(async () => {
  await t.close();
});

let n = 0;
const debtor = () => `88${Date.now().toString().slice(-6)}${String(n++).padStart(3, '0')}`;
type Body = Record<string, unknown>;
const student = (debtorNumber: string, over: Body = {}): Body => ({
  debtorNumber,
  firstName: 'Lena',
  lastName: `Fischer ${debtorNumber}`,
  email: `${debtorNumber}@stud.example`,
  receivableAccountId: activeAssetAccount().id,
  addresses: [
    { addressType: 'Billing', street: 'Bertoldstraße 1', city: 'Freiburg', postalCode: '79098', country: 'DE', isDefault: true },
    { addressType: 'Home', street: 'Wiesenweg 3', city: 'Freiburg', postalCode: '79100', country: 'DE' },
  ],
  ...over,
});
const delta = (value: unknown[]) => ({ '@context': '#$delta', value });
const bulk = (set: string, body: unknown, headers: Record<string, string> = {}, who = maintainer) =>
  request(t.http)
    .patch(`${API}/${set}`)
    .set(bearer(who))
    .set(headers)
    .send(body as object);
const logCount = () => t.db.prisma.changeLog.count();
const customers = (keys: string[]) => t.db.prisma.customer.count({ where: { debtorNumber: { in: keys } } });
type Result = {
  index: number;
  key: string | null;
  result: string;
  id?: string;
  record?: Body;
  error?: { code: string; errors: unknown[] };
};

describe('PATCH /customers with a delta payload', () => {
  it('creates, then leaves unchanged, then updates: a result per record, one entry per changed record, address ids kept', async () => {
    const keys = [debtor(), debtor(), debtor()];
    const before = await logCount();
    const created = await bulk('customers', delta(keys.map((k) => student(k)))).expect(200);
    expect(created.body).toMatchObject({ created: 3, updated: 0, unchanged: 0, refused: 0 });
    const results = created.body.value as Result[];
    expect(results.map((r) => [r.index, r.key, r.result])).toEqual(keys.map((k, i) => [i, k, 'created']));
    expect(results[0]!.record).toMatchObject({ id: results[0]!.id, debtorNumber: keys[0], email: `${keys[0]}@stud.example` });
    // 3 customers and their 6 addresses, each created once
    const entries = await t.db.prisma.changeLog.findMany({ where: { seq: { gt: BigInt(before) } }, orderBy: { seq: 'asc' } });
    expect(entries.filter((e) => e.resource === 'customer').map((e) => e.operation)).toEqual(['created', 'created', 'created']);
    expect(entries.filter((e) => e.resource === 'address')).toHaveLength(6);
    expect(new Set(entries.map((e) => e.requestId)).size).toBe(1);
    const viaSingle = await request(t.http).get(`${API}/customers/${results[0]!.id}`).set(bearer(maintainer)).expect(200);
    expect(viaSingle.body).toMatchObject({
      debtorNumber: keys[0],
      addresses: [{ isDefault: true, addressType: 'Billing' }, { addressType: 'Home' }],
    });

    const afterCreate = await logCount();
    const again = await bulk('customers', delta(keys.map((k) => student(k)))).expect(200);
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 3, refused: 0 });
    expect((again.body.value as Result[]).map((r) => r.id)).toEqual(results.map((r) => r.id));
    expect(await logCount()).toBe(afterCreate);

    const moved = student(keys[1]!, { email: 'moved@stud.example' });
    (moved.addresses as Body[])[1] = { ...(moved.addresses as Body[])[1], street: 'Wiesenweg 5' };
    const changed = await bulk('customers', delta([student(keys[0]!), moved])).expect(200);
    expect(changed.body).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    const home = (c: Body) => (c.addresses as Body[]).find((a) => a.addressType === 'Home')!;
    const updated = (changed.body.value as Result[])[1]!.record!;
    expect(home(updated).id).toBe(home(results[1]!.record!).id);
    const last = await t.db.prisma.changeLog.findMany({ where: { seq: { gt: BigInt(afterCreate) } }, orderBy: { seq: 'asc' } });
    expect(last.map((e) => [e.resource, e.operation, e.recordId])).toEqual([
      ['customer', 'updated', results[1]!.id],
      ['address', 'updated', home(updated).id],
    ]);
    expect(last[0]!.changes).toEqual({ email: { old: `${keys[1]}@stud.example`, new: 'moved@stud.example' } });
  });

  it("a customer's history shows the entries of the addresses a bulk upsert wrote, with their customer", async () => {
    const key = debtor();
    const created = (await bulk('customers', delta([student(key)])).expect(200)).body.value[0] as Result;
    await bulk('customers', delta([student(key, { addresses: [(student(key).addresses as Body[])[0]] })])).expect(200);
    const auditor = await token('billing.read billing.audit billing.pii', WRITER_ID);
    const history = await request(t.http).get(`${API}/customers/${created.id}/history`).set(bearer(auditor)).expect(200);
    const entries = (history.body.value as Array<{ resource: string; operation: string }>).map((e) => `${e.resource} ${e.operation}`);
    expect(entries).toEqual(['customer created', 'address created', 'address created', 'address deleted']);
  });

  it('changes only the fields a record gives (as PATCH), and identifies records by @id', async () => {
    const key = debtor();
    await bulk('customers', delta([student(key)])).expect(200);
    const res = await bulk('customers', delta([{ '@id': `customers(debtorNumber='${key}')`, lastName: 'Schmidt' }])).expect(200);
    expect((res.body.value as Result[])[0]).toMatchObject({
      key,
      result: 'updated',
      record: { lastName: 'Schmidt', email: `${key}@stud.example` },
    });
    expect(((res.body.value as Result[])[0]!.record!.addresses as unknown[]).length).toBe(2);
  });

  it('Prefer: return=minimal answers 204 without a body when every record went through', async () => {
    const res = await bulk('customers', delta([student(debtor())]), { Prefer: 'return=minimal' }).expect(204);
    expect(res.text).toBe('');
    expect(res.headers['preference-applied']).toBe('return=minimal');
  });

  it('all or nothing: one refused record refuses the request (422 naming it), nothing is written', async () => {
    const keys = [debtor(), debtor()];
    const before = await logCount();
    const res = await bulk(
      'customers',
      delta([student(keys[0]!), student(keys[1]!, { receivableAccountId: inactiveAssetAccount().id })]),
    ).expect(422);
    expect(res.body.code).toBe('RECORDS_REFUSED');
    expect(res.body.errors).toEqual([{ field: 'value[1].receivableAccountId', message: expect.stringMatching(/^ACCOUNT_NOT_USABLE: /) }]);
    expect(await customers(keys)).toBe(0);
    expect(await logCount()).toBe(before);
  });

  it('continue-on-error keeps the valid records and answers the refused ones with their code', async () => {
    const keys = [debtor(), debtor(), debtor()];
    const res = await bulk(
      'customers',
      delta([student(keys[0]!), student(keys[1]!, { receivableAccountId: nonAssetAccount().id }), student(keys[2]!, { lastName: '' })]),
      { Prefer: 'odata.continue-on-error, return=minimal' },
    ).expect(200);
    expect(res.headers['preference-applied']).toBe('return=minimal, odata.continue-on-error');
    expect(res.body).toMatchObject({ created: 1, refused: 2 });
    expect((res.body.value as Result[]).map((r) => [r.index, r.key, r.result, r.error?.code])).toEqual([
      [1, keys[1], 'refused', 'ACCOUNT_NOT_USABLE'],
      [2, keys[2], 'refused', 'VALIDATION_FAILED'],
    ]);
    expect(await customers(keys)).toBe(1);
  });

  it("OData 4.01's name of the preference, continue-on-error, is taken too", async () => {
    const keys = [debtor(), debtor()];
    const res = await bulk('customers', delta([student(keys[0]!), student(keys[1]!, { lastName: '' })]), {
      Prefer: 'continue-on-error',
    }).expect(200);
    expect(res.headers['preference-applied']).toBe('continue-on-error');
    expect(res.body).toMatchObject({ created: 1, refused: 1 });
  });

  it('two requests creating the same new keys at once: one record each key, one created, the other unchanged or updated', async () => {
    const keys = [debtor(), debtor(), debtor()];
    const [a, b] = await Promise.all([
      bulk('customers', delta(keys.map((k) => student(k)))),
      bulk('customers', delta([...keys].reverse().map((k) => student(k, { creditorNumber: 'K-2' })))),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    for (const k of keys) expect(await customers([k])).toBe(1);
    const results = [...(a.body.value as Result[]), ...(b.body.value as Result[])];
    expect(results.filter((r) => r.result === 'created')).toHaveLength(3);
  });

  it('a key the database cannot hold (a NUL, too long) is refused as the single upsert refuses it, not a 5xx', async () => {
    const res = await bulk('customers', delta([student('A\u0000B'), student('9'.repeat(500))]), {
      Prefer: 'odata.continue-on-error',
    }).expect(200);
    expect((res.body.value as Result[]).map((r) => [r.result, r.error?.code])).toEqual([
      ['refused', 'VALIDATION_FAILED'],
      ['refused', 'VALIDATION_FAILED'],
    ]);
    expect((res.body.value as Result[])[0]!.error!.errors).toEqual([{ field: 'debtorNumber', message: expect.any(String) }]);
  });

  it('a key named twice in one request: the later record is refused', async () => {
    const key = debtor();
    const res = await bulk('customers', delta([student(key), student(key, { lastName: 'Other' })]), {
      Prefer: 'odata.continue-on-error',
    }).expect(200);
    expect((res.body.value as Result[]).map((r) => [r.result, r.error?.code])).toEqual([
      ['created', undefined],
      ['refused', 'DUPLICATE_KEY'],
    ]);
  });

  it('without billing.pii a record naming a personal field refuses the whole request (403) before anything is read', async () => {
    const keys = [debtor(), debtor()];
    const res = await bulk('customers', delta([{ debtorNumber: keys[0], creditorNumber: 'K1' }, student(keys[1]!)]), {}, withoutPii).expect(
      403,
    );
    expect(res.body.code).toBe('FORBIDDEN');
    expect(await customers(keys)).toBe(0);
  });

  it('without billing.pii the answer leaves the personal fields out and an update keeps them', async () => {
    const key = debtor();
    await bulk('customers', delta([student(key)])).expect(200);
    const res = await bulk('customers', delta([{ debtorNumber: key, creditorNumber: 'K-77' }]), {}, withoutPii).expect(200);
    const record = (res.body.value as Result[])[0]!.record!;
    expect(record).toMatchObject({ debtorNumber: key, creditorNumber: 'K-77' });
    for (const f of ['firstName', 'lastName', 'email']) expect(record).not.toHaveProperty(f);
    for (const a of record.addresses as Body[]) for (const f of ['street', 'city', 'postalCode']) expect(a).not.toHaveProperty(f);
    const stored = await t.db.prisma.customer.findFirstOrThrow({ where: { debtorNumber: key }, include: { addresses: true } });
    expect(stored).toMatchObject({ email: `${key}@stud.example`, creditorNumber: 'K-77' });
    expect(stored.addresses).toHaveLength(2);
  });

  it('refuses what is not a delta payload, @removed and a foreign @id (400), writing nothing', async () => {
    const key = debtor();
    await bulk('customers', [student(key)]).expect(400);
    await bulk('customers', { '@context': '#Customers', value: [student(key)] }).expect(400);
    await bulk('customers', delta([{ '@removed': { reason: 'deleted' }, '@id': `customers(debtorNumber='${key}')` }])).expect(400);
    await bulk('customers', delta([{ '@id': `articles(code='${key}')`, lastName: 'X' }])).expect(400);
    expect(await customers([key])).toBe(0);
  });
});

describe('limits', () => {
  it('5,000 records are one request; 5,001 are refused (413) before any work', async () => {
    const prefix = debtor();
    const many = Array.from({ length: 5000 }, (_, i) => ({ debtorNumber: `${prefix}-${i}`, firstName: 'A', lastName: `B${i}` }));
    const res = await bulk('customers', delta(many), { Prefer: 'return=minimal' }).expect(204);
    expect(res.text).toBe('');
    expect(await t.db.prisma.customer.count({ where: { debtorNumber: { startsWith: `${prefix}-` } } })).toBe(5000);
    const before = await logCount();
    const tooMany = await bulk('customers', delta([...many, { debtorNumber: `${prefix}-x`, firstName: 'A', lastName: 'B' }])).expect(413);
    expect(tooMany.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await logCount()).toBe(before);
  });

  it('a body over 8 MiB is refused (413); a plain PATCH of a record keeps the 100 KiB limit', async () => {
    const big = delta([{ debtorNumber: debtor(), firstName: 'A', lastName: 'x'.repeat(9 * 1024 * 1024) }]);
    expect((await bulk('customers', big)).status).toBe(413);
    const id = fixture.customers[0]!.id;
    const res = await request(t.http)
      .patch(`${API}/customers/${id}`)
      .set(bearer(maintainer))
      .send({ lastName: 'x'.repeat(200 * 1024) });
    expect(res.status).toBe(413);
  });
});

describe('the bulk path refuses exactly what the single upsert refuses', () => {
  const cases: Array<[string, (key: string) => Body]> = [
    ['a missing required field', (k) => ({ ...student(k), lastName: undefined })],
    ['an unknown field', (k) => ({ ...student(k), nickname: 'Lenny' })],
    ['an inactive receivable account', (k) => student(k, { receivableAccountId: inactiveAssetAccount().id })],
    ['a receivable account of another type', (k) => student(k, { receivableAccountId: nonAssetAccount().id })],
    ['an unknown account', (k) => student(k, { prepaymentAccountId: '00000000-0000-4000-8000-000000000001' })],
    ['two default addresses', (k) => student(k, { addresses: (student(k).addresses as Body[]).map((a) => ({ ...a, isDefault: true })) })],
    ['a bad e-mail', (k) => student(k, { email: 'not an address' })],
  ];
  it.each(cases)('%s', async (_what, make) => {
    const key = debtor();
    const body = JSON.parse(JSON.stringify(make(key))) as Body;
    const single = await request(t.http).put(`${API}/customers(debtorNumber='${key}')`).set(bearer(maintainer)).send(body);
    expect(single.status).toBeGreaterThanOrEqual(400);
    const res = await bulk('customers', delta([body]), { Prefer: 'odata.continue-on-error' }).expect(200);
    const result = (res.body.value as Result[])[0]!;
    expect(result.result).toBe('refused');
    expect(result.error).toEqual({ code: single.body.code, message: single.body.detail, errors: single.body.errors ?? [] });
    expect(await customers([key])).toBe(0);
  });
});

describe('GraphQL upsert<X>s', () => {
  const mutation = `mutation($input: [CustomerInput!]!, $go: Boolean) {
    upsertCustomers(input: $input, continueOnError: $go) {
      created updated unchanged refused
      results { index key result id record { id debtorNumber addresses { id addressType } } error { code message fields { field message } } }
    }
  }`;
  it('creates, leaves unchanged and refuses as REST does', async () => {
    const keys = [debtor(), debtor()];
    const first = await gqlOk<{ upsertCustomers: Body }>(t, mutation, { input: keys.map((k) => student(k)) }, maintainer);
    expect(first.upsertCustomers).toMatchObject({ created: 2, unchanged: 0, refused: 0 });
    const before = await logCount();
    const again = await gqlOk<{ upsertCustomers: { unchanged: number; results: Result[] } }>(
      t,
      mutation,
      { input: keys.map((k) => student(k)) },
      maintainer,
    );
    expect(again.upsertCustomers.unchanged).toBe(2);
    expect(again.upsertCustomers.results.map((r) => r.result)).toEqual(['UNCHANGED', 'UNCHANGED']);
    expect(await logCount()).toBe(before);

    const bad = [student(debtor()), student(debtor(), { receivableAccountId: inactiveAssetAccount().id })];
    const refused = await gql(t, mutation, { input: bad }, maintainer);
    expect(refused.errors?.[0]?.extensions.code).toBe('RECORDS_REFUSED');
    expect(await customers(bad.map((b) => b.debtorNumber as string))).toBe(0);
    const kept = await gqlOk<{ upsertCustomers: { created: number; results: Array<{ result: string; error: { code: string } | null }> } }>(
      t,
      mutation,
      { input: bad, go: true },
      maintainer,
    );
    expect(kept.upsertCustomers.created).toBe(1);
    expect(kept.upsertCustomers.results.map((r) => [r.result, r.error?.code ?? null])).toEqual([
      ['CREATED', null],
      ['REFUSED', 'ACCOUNT_NOT_USABLE'],
    ]);
  });

  it('without billing.pii a record naming a personal field is refused (FORBIDDEN), nothing written', async () => {
    const key = debtor();
    const res = await gql(t, mutation, { input: [{ debtorNumber: key, email: 'x@stud.example' }] }, withoutPii);
    expect(res.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    expect(await customers([key])).toBe(0);
  });

  it('academic terms and accounts by code (compared ignoring case; a stored code keeps its case)', async () => {
    const code = `BT${n++}${Date.now() % 100000}`;
    const term = { code, startDate: '2031-04-01T00:00:00.000Z', endDate: '2031-09-30T00:00:00.000Z', statisticalSemester: 'SS 2031' };
    const q = `mutation($input: [AcademicTermInput!]!) { upsertAcademicTerms(input: $input) { created updated unchanged results { result record { code statisticalSemester } } } }`;
    expect((await gqlOk<{ upsertAcademicTerms: Body }>(t, q, { input: [term] }, maintainer)).upsertAcademicTerms).toMatchObject({
      created: 1,
    });
    const res = await bulk(
      'academic-terms',
      delta([{ '@id': `academic-terms(code='${code.toLowerCase()}')`, statisticalSemester: 'Summer 2031' }]),
    ).expect(200);
    expect((res.body.value as Result[])[0]).toMatchObject({ result: 'updated', record: { code, statisticalSemester: 'Summer 2031' } });
    const account = fixture.accounts.find((a) => a.isActive)!;
    const same = await bulk('accounts', delta([{ code: account.code, name: account.name, type: account.type, isActive: true }])).expect(
      200,
    );
    expect((same.body.value as Result[])[0]).toMatchObject({ result: 'unchanged', id: account.id });
  });
});
