import request from 'supertest';
import { bearer, createTestApp, token, type TestApp } from './support/app';
import { gql, type Json } from './support/graphql';

// Every write passes the same guards, whatever path it takes (docs/architecture.md, "One write
// pipeline"): personal data stays with callers holding billing.pii, in what they write and in
// what writes answer; the reference-data rules hold on update as on create. Each case through
// REST and GraphQL, on PGlite and PostgreSQL; a refused request writes nothing.

const ROOT = '/api/v1';
const PERSONAL = ['firstName', 'lastName', 'email', 'matriculationId', 'cmsStudentId', 'street', 'city', 'postalCode'];

let t: TestApp;
/** billing.read + billing.maintain, without billing.pii. */
let plain: string;
/** billing.maintain alone: no read, no personal data. */
let maintainOnly: string;
/** billing.read + billing.maintain + billing.pii. */
let full: string;
/** A customer with addresses, as a full-scope caller reads it. */
let customer: Json;
/** Every personal value of the demo data's customers and addresses. */
let personalValues: string[];

beforeAll(async () => {
  t = await createTestApp();
  plain = await token('billing.read billing.maintain');
  maintainOnly = await token('billing.maintain');
  full = await token('billing.read billing.maintain billing.pii');
  const all = await request(t.http).get(`${ROOT}/customers?$top=1000`).set(bearer(full)).expect(200);
  const customers = all.body.value as Json[];
  customer = customers.find((c) => c.addresses.length > 0 && c.email !== null);
  personalValues = [
    ...new Set(
      customers.flatMap((c) => [...PERSONAL.map((f) => c[f]), ...(c.addresses as Json[]).flatMap((a) => PERSONAL.map((f) => a[f]))]),
    ),
  ].filter((v): v is string => typeof v === 'string' && v.length > 3);
});
afterAll(() => t.close());

const rest = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, tok: string) =>
  request(t.http)[method](`${ROOT}${path}`).set(bearer(tok));
const read = async (path: string): Promise<Json> => (await rest('get', path, full).expect(200)).body;
const leaked = (text: string): string[] => personalValues.filter((v) => text.includes(v));
const changeCount = async (): Promise<number> =>
  Number((await t.db.prisma.$queryRawUnsafe<Array<{ n: bigint }>>('SELECT count(*) AS n FROM "ChangeLog"'))[0]!.n);

describe('personal data in writes, without billing.pii', () => {
  test('a PATCH that changes nothing answers the record without personal fields (REST, by id and by debtor number)', async () => {
    for (const path of [`/customers/${customer.id}`, `/customers(debtorNumber='${customer.debtorNumber}')`]) {
      const res = await rest('patch', path, plain).send({}).expect(200);
      expect(leaked(res.text)).toEqual([]);
      expect(Object.keys(res.body)).not.toContain('email');
      expect(res.body.addresses[0]).not.toHaveProperty('street');
      expect(res.body.debtorNumber).toBe(customer.debtorNumber);
    }
  });

  test('billing.maintain alone gets no personal value from a write either, nor through $batch', async () => {
    const res = await rest('patch', `/customers/${customer.id}`, maintainOnly)
      .send({ creditorNumber: customer.creditorNumber })
      .expect(200);
    expect(leaked(res.text)).toEqual([]);
    const batch = await request(t.http)
      .post(`${ROOT}/$batch`)
      .set(bearer(maintainOnly))
      .set('Content-Type', 'application/json')
      .send({
        requests: [
          { id: '1', method: 'PATCH', url: `customers/${customer.id}`, headers: { 'content-type': 'application/json' }, body: {} },
        ],
      });
    expect(batch.status).toBe(200);
    expect(leaked(batch.text)).toEqual([]);
  });

  test("a write's ETag is that of the caller's view, and its If-Match is compared with it", async () => {
    const got = await rest('get', `/customers/${customer.id}`, plain).expect(200);
    const etag = got.headers.etag as string;
    const patched = await rest('patch', `/customers/${customer.id}`, plain)
      .set('If-Match', etag)
      .send({ creditorNumber: 'CR-VIEW' })
      .expect(200);
    expect(leaked(patched.text)).toEqual([]);
    const again = await rest('get', `/customers/${customer.id}`, plain).expect(200);
    expect(patched.headers.etag).toBe(again.headers.etag);
    // The full record's ETag is not the view's: a stale or foreign one is 412.
    await rest('patch', `/customers/${customer.id}`, plain).set('If-Match', etag).send({ creditorNumber: 'CR-X' }).expect(412);
    const { data } = await gql(t, `query($id: ID!) { customer(id: $id) { etag } }`, { id: customer.id }, plain);
    expect(data?.customer.etag).toBe(again.headers.etag);
    const full1 = await gql(t, `query($id: ID!) { customer(id: $id) { etag } }`, { id: customer.id }, full);
    expect(full1.data?.customer.etag).not.toBe(again.headers.etag);
  });

  test('the address routes need billing.pii, and write nothing without it', async () => {
    const before = await read(`/customers/${customer.id}`);
    const address = before.addresses[0];
    const entries = await changeCount();
    const patched = await rest('patch', `/customers/${customer.id}/addresses/${address.id}`, plain).send({ city: 'Nowhere' }).expect(403);
    expect(patched.body.code).toBe('FORBIDDEN');
    await rest('post', `/customers/${customer.id}/addresses`, plain)
      .send({ addressType: 'Home', street: 'A 1', city: 'B', postalCode: '1', country: 'DE', isDefault: false })
      .expect(403);
    await rest('delete', `/customers/${customer.id}/addresses/${address.id}`, plain).expect(403);
    expect(await read(`/customers/${customer.id}`)).toEqual(before);
    expect(await changeCount()).toBe(entries);
  });

  test('replacing the address set (even with none) needs billing.pii, in both doors', async () => {
    const before = await read(`/customers/${customer.id}`);
    const res = await rest('patch', `/customers/${customer.id}`, plain).send({ addresses: [] }).expect(403);
    expect(res.body.errors).toEqual([{ field: 'addresses', message: 'needs the scope billing.pii' }]);
    const g = await gql(t, `mutation($id: ID!) { updateCustomer(id: $id, input: { addresses: [] }) { id } }`, { id: customer.id }, plain);
    expect(g.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    expect(await read(`/customers/${customer.id}`)).toEqual(before);
  });

  test("a GraphQL variable's default value is checked as a value sent is", async () => {
    const before = await read(`/customers/${customer.id}`);
    const update = await gql(
      t,
      `mutation($id: ID!, $i: CustomerInput = { email: "x@example.org", lastName: "Default" }) { updateCustomer(id: $id, input: $i) { id } }`,
      { id: customer.id },
      plain,
    );
    expect(update.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    const create = await gql(
      t,
      `mutation($i: CustomerInput = { firstName: "A", lastName: "B", debtorNumber: "DEF-1" }) { createCustomer(input: $i) { id } }`,
      {},
      plain,
    );
    expect(create.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    const addresses = await gql(
      t,
      `mutation($id: ID!, $i: CustomerInput = { addresses: [{ addressType: "Home", street: "S", city: "C", postalCode: "1", country: "DE", isDefault: false }] }) { updateCustomer(id: $id, input: $i) { id } }`,
      { id: customer.id },
      plain,
    );
    expect(addresses.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    expect(await read(`/customers/${customer.id}`)).toEqual(before);
  });

  test('a full replacement (PUT) without billing.pii keeps the personal fields and addresses it cannot see', async () => {
    const before = await read(`/customers/${customer.id}`);
    const { id: _id, addresses: _a, firstName: _f, lastName: _l, email: _e, matriculationId: _m, cmsStudentId: _c, ...visible } = before;
    const res = await rest('put', `/customers/${customer.id}`, plain)
      .send({ ...visible, creditorNumber: 'CR-PUT' })
      .expect(200);
    expect(leaked(res.text)).toEqual([]);
    const after = await read(`/customers/${customer.id}`);
    expect(after).toEqual({ ...before, creditorNumber: 'CR-PUT', updatedAt: after.updatedAt, updatedById: after.updatedById });
  });

  test('a folded condition on a personal field is still a personal field named ($filter=email eq email)', async () => {
    for (const filter of ['email eq email', 'email in (email)', "tolower(email) eq 'ABC'", 'lastName eq null']) {
      const res = await rest('get', `/customers?$filter=${encodeURIComponent(filter)}`, plain);
      expect([filter, res.status]).toEqual([filter, 403]);
    }
  });
});

describe('reference-data rules on update', () => {
  const taxCode = async (code: string): Promise<Json> => ((await read(`/tax-codes?$filter=code%20eq%20'${code}'`)).value as Json[])[0];

  test("a tax code's end moves only to today or later, and an ended period stays (REST and GraphQL)", async () => {
    const v7 = await taxCode('V7');
    const res = await rest('patch', `/tax-codes/${v7.id}`, full).send({ validTo: '2015-01-01T00:00:00Z' }).expect(409);
    expect(res.body.code).toBe('ALREADY_EFFECTIVE');
    const g = await gql(
      t,
      `mutation($id: ID!) { updateTaxCode(id: $id, input: { validTo: "2015-01-01T00:00:00Z" }) { id } }`,
      { id: v7.id },
      full,
    );
    expect(g.errors?.[0]?.extensions.code).toBe('ALREADY_EFFECTIVE');
    const v16 = await taxCode('V16');
    expect((await rest('patch', `/tax-codes/${v16.id}`, full).send({ validTo: null }).expect(409)).body.code).toBe('ALREADY_EFFECTIVE');
    await rest('patch', `/tax-codes/${v16.id}`, full).send({ name: 'Renamed' }).expect(409);
    expect(await taxCode('V7')).toEqual(v7);
    expect(await taxCode('V16')).toEqual(v16);
    // An end today or later is fine (and moving it later again).
    const future = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10);
    await rest('patch', `/tax-codes/${v7.id}`, full)
      .send({ validTo: `${future}T00:00:00Z` })
      .expect(200);
  });

  test('tax-code periods do not overlap for codes equal ignoring case', async () => {
    const v19 = await taxCode('V19');
    const res = await rest('post', '/tax-codes', full)
      .send({ ...newTaxCode('v19'), taxAccountId: v19.taxAccountId, revenueAccountId: v19.revenueAccountId })
      .expect(409);
    expect(res.body.code).toBe('PERIOD_OVERLAP');
  });

  test('an account that records need does not change its type or turn inactive (409 naming them)', async () => {
    const revenue = ((await read(`/accounts?$filter=code%20eq%20'4800'`)).value as Json[])[0];
    const res = await rest('patch', `/accounts/${revenue.id}`, full).send({ type: 'Expense' }).expect(409);
    expect(res.body.code).toBe('IN_USE');
    expect(res.body.detail).toMatch(/articles /);
    await rest('patch', `/accounts/${revenue.id}`, full).send({ isActive: false }).expect(409);
    const g = await gql(t, `mutation($id: ID!) { updateAccount(id: $id, input: { type: Expense }) { id } }`, { id: revenue.id }, full);
    expect(g.errors?.[0]?.extensions.code).toBe('IN_USE');
    expect(((await read(`/accounts?$filter=code%20eq%20'4800'`)).value as Json[])[0]).toEqual(revenue);
    // An account nothing needs changes freely.
    const free = await rest('post', '/accounts', full).send({ code: 'FREE-1', name: 'Free', type: 'Asset' }).expect(201);
    await rest('patch', `/accounts/${free.body.id}`, full).send({ type: 'Expense', isActive: false }).expect(200);
  });

  test("every record's account fits its use: tax codes' and customers' too", async () => {
    const accounts = (await read('/accounts?$top=100')).value as Json[];
    const byCode = (code: string) => accounts.find((a) => a.code === code).id as string;
    const tax = await rest('post', '/tax-codes', full)
      .send({ ...newTaxCode('FIT1'), taxAccountId: byCode('4000'), revenueAccountId: byCode('1200') })
      .expect(422);
    expect(tax.body.code).toBe('ACCOUNT_NOT_USABLE');
    expect(tax.body.errors[0].field).toBe('taxAccountId');
    const c = await rest('patch', `/customers/${customer.id}`, full)
      .send({ receivableAccountId: byCode('4000') })
      .expect(422);
    expect(c.body.errors[0].field).toBe('receivableAccountId');
    await rest('patch', `/customers/${customer.id}`, full)
      .send({ prepaymentAccountId: byCode('6855') })
      .expect(422);
    const g = await gql(
      t,
      `mutation($id: ID!, $a: UUID!) { updateCustomer(id: $id, input: { prepaymentAccountId: $a }) { id } }`,
      { id: customer.id, a: byCode('6855') },
      full,
    );
    expect(g.errors?.[0]?.extensions.code).toBe('ACCOUNT_NOT_USABLE');
  });

  test('a key in parentheses is an OData literal: anything else is 400 and writes nothing', async () => {
    const body = { firstName: 'K', lastName: 'L' };
    for (const key of ["debtorNumber='abc1", 'debtorNumber=abc2', "debtorNumber='a'b3'", "debtorNumber=''", '']) {
      const res = await rest('put', `/customers(${encodeURIComponent(key)})`, full).send(body);
      expect([key, res.status, res.body.code]).toEqual([key, 400, 'VALIDATION_FAILED']);
    }
    const made = await read(
      `/customers?$filter=startswith(debtorNumber,'abc')%20or%20startswith(debtorNumber,'''abc')%20or%20debtorNumber%20eq%20'a''b3'`,
    );
    expect(made.value).toEqual([]);
    // A doubled quote inside is one quote.
    const ok = await rest('put', `/customers(debtorNumber='o''k4')`, full).send(body).expect(201);
    expect(ok.body.debtorNumber).toBe("o'k4");
  });

  test('an upsert by a key compared ignoring case keeps the stored key unless the body names another', async () => {
    await rest('post', '/accounts', full).send({ code: 'UPS1', name: 'Upsert', type: 'Asset' }).expect(201);
    const entries = await changeCount();
    const same = await rest('put', `/accounts(code='ups1')`, full).send({ name: 'Upsert', type: 'Asset' }).expect(200);
    expect(same.body.code).toBe('UPS1');
    expect(await changeCount()).toBe(entries);
    const renamed = await rest('put', `/accounts(code='ups1')`, full).send({ code: 'ups1', name: 'Upsert', type: 'Asset' }).expect(200);
    expect(renamed.body.code).toBe('ups1');
  });
});

describe('the answer shape: control information for OData clients only', () => {
  test('a plain JSON client gets exactly the fields; an OData client gets @odata.etag', async () => {
    const sources = await rest('get', '/payment-sources', full).expect(200);
    expect(sources.body.value[0]).not.toHaveProperty('@odata.etag');
    const one = await rest('get', `/payment-sources/${sources.body.value[0].id}`, full).expect(200);
    expect(Object.keys(one.body)[0]).toBe('id');
    for (const headers of [
      { 'OData-Version': '4.0' },
      { 'OData-MaxVersion': '4.0' },
      { Accept: 'application/json;odata.metadata=minimal' },
    ]) {
      const od = await rest('get', `/payment-sources/${sources.body.value[0].id}`, full).set(headers).expect(200);
      expect(od.body['@odata.etag']).toBe(od.headers.etag);
      const list = await rest('get', '/accounts', full).set(headers).expect(200);
      expect(list.body.value[0]['@odata.etag']).toEqual(expect.any(String));
    }
    const none = await rest('get', '/accounts', full)
      .set({ Accept: 'application/json;odata.metadata=none', 'OData-Version': '4.0' })
      .expect(200);
    expect(none.body.value[0]).not.toHaveProperty('@odata.etag');
    const created = await rest('post', '/accounts', full).send({ code: 'SHAPE-1', name: 'Shape', type: 'Asset' }).expect(201);
    expect(Object.keys(created.body).sort()).toEqual(['code', 'id', 'isActive', 'name', 'type']);
  });
});

function newTaxCode(code: string): Json {
  return { code, name: `Tax ${code}`, rate: 19, taxType: 'VAT', validFrom: new Date(Date.now() + 30 * 86_400_000).toISOString() };
}
