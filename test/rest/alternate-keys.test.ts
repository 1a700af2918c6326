// Records addressed and synchronised by their alternate key (a customer's debtor number, the
// code of an account, article or academic term), as a campus management system or an ERP
// pushes them: `PUT /customers(debtorNumber='…')` creates or replaces, a repeated identical
// PUT changes nothing and logs nothing, If-Match and If-None-Match hold; GET, PATCH and
// DELETE reach the record by its key; GraphQL's upsert<X> does the same; $metadata declares
// the keys.

import request from 'supertest';
import { bearer, createTestApp, token, WRITER_ID, type TestApp } from '../support/app';
import { fixture } from '../support/fixture';
import { gql, gqlOk } from '../support/graphql';

const API = '/api/v1';
let t: TestApp;
let maintainer: string;

beforeAll(async () => {
  t = await createTestApp();
  maintainer = await token('billing.read billing.maintain billing.pii', WRITER_ID);
});
afterAll(async () => {
  await t.close();
});

let n = 0;
const debtor = () => `77${Date.now().toString().slice(-7)}${n++}`;
const student = (over: Record<string, unknown> = {}) => ({
  firstName: 'Lena',
  lastName: 'Fischer',
  cmsStudentId: 'S00999001',
  email: 'lena.fischer@stud.example',
  addresses: [
    { addressType: 'Billing', street: 'Bertoldstraße 1', city: 'Freiburg', postalCode: '79098', country: 'DE', isDefault: true },
    { addressType: 'Home', street: 'Wiesenweg 3', city: 'Freiburg', postalCode: '79100', country: 'DE' },
  ],
  ...over,
});
const byKey = (key: string) => `${API}/customers(debtorNumber='${key}')`;
const put = (path: string, body: object, headers: Record<string, string> = {}) =>
  request(t.http).put(path).set(bearer(maintainer)).set(headers).send(body);
const logCount = () => t.db.prisma.changeLog.count();

describe('PUT by alternate key', () => {
  it('creates the customer with that debtor number (201, Location by id), then replaces it (200)', async () => {
    const key = debtor();
    const created = await put(byKey(key), student()).expect(201);
    expect(created.body).toMatchObject({ debtorNumber: key, firstName: 'Lena' });
    expect(created.headers.location).toBe(`${API}/customers/${created.body.id}`);
    expect(created.headers.etag).toBeDefined();

    const replaced = await put(byKey(key), student({ email: 'l.fischer@stud.example' })).expect(200);
    expect(replaced.body).toMatchObject({ id: created.body.id, email: 'l.fischer@stud.example' });
    // the addresses were sent without ids: matched to the ones the customer has, not created again
    expect(replaced.body.addresses.map((a: { id: string }) => a.id).sort()).toEqual(
      created.body.addresses.map((a: { id: string }) => a.id).sort(),
    );
    expect(await t.db.prisma.customer.count({ where: { debtorNumber: key } })).toBe(1);
  });

  it('a repeated identical PUT changes nothing and appends no change-log entry', async () => {
    const key = debtor();
    const first = await put(byKey(key), student()).expect(201);
    const row = await t.db.prisma.customer.findUniqueOrThrow({ where: { id: first.body.id } });
    const before = await logCount();
    const again = await put(byKey(key), student()).expect(200);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(await logCount()).toBe(before);
    expect(await t.db.prisma.customer.findUniqueOrThrow({ where: { id: first.body.id } })).toEqual(row);
  });

  it('an address changed without its id is changed in place: the address of its type keeps its id and its history', async () => {
    const key = debtor();
    const first = await put(byKey(key), student()).expect(201);
    const before = await logCount();
    const moved = student();
    moved.addresses[1] = { ...moved.addresses[1]!, street: 'Wiesenweg 5' };
    const res = await put(byKey(key), moved).expect(200);
    const entries = await t.db.prisma.changeLog.findMany({ where: { seq: { gt: BigInt(before) } }, orderBy: { seq: 'asc' } });
    const home = (body: { addresses: Array<{ id: string; addressType: string }> }) => body.addresses.find((a) => a.addressType === 'Home')!;
    expect(entries.map((e) => [e.resource, e.operation, e.recordId])).toEqual([['address', 'updated', home(first.body).id]]);
    expect(entries[0]!.changes).toEqual({ street: { old: 'Wiesenweg 3', new: 'Wiesenweg 5' } });
    expect(home(res.body)).toMatchObject({ id: home(first.body).id, street: 'Wiesenweg 5' });
    expect(res.body.addresses.find((a: { addressType: string }) => a.addressType === 'Billing').id).toBe(
      first.body.addresses.find((a: { addressType: string }) => a.addressType === 'Billing').id,
    );
    // A type the customer has no address of is a new address; one no longer sent is deleted.
    const other = student();
    other.addresses[1] = { ...other.addresses[1]!, addressType: 'Correspondence' };
    const replaced = await put(byKey(key), other).expect(200);
    expect(replaced.body.addresses.map((a: { id: string }) => a.id)).not.toContain(home(first.body).id);
  });

  it('the body may leave the key out or repeat it; another key in the body is 400 and writes nothing', async () => {
    const key = debtor();
    await put(byKey(key), { ...student(), debtorNumber: key }).expect(201);
    const before = await logCount();
    const res = await put(byKey(key), { ...student(), debtorNumber: debtor() }).expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors).toEqual([{ field: 'debtorNumber', message: expect.stringContaining(key) }]);
    expect(await logCount()).toBe(before);
  });

  it('If-Match: a stale ETag is 412, the current one replaces; with no record there is nothing to match', async () => {
    const key = debtor();
    const created = await put(byKey(key), student()).expect(201);
    await put(byKey(key), student({ firstName: 'Lea' }), { 'If-Match': '"stale"' }).expect(412);
    await put(byKey(key), student({ firstName: 'Lea' }), { 'If-Match': created.headers.etag as string }).expect(200);
    const fresh = debtor();
    const res = await put(byKey(fresh), student(), { 'If-Match': '*' }).expect(412);
    expect(res.body.code).toBe('PRECONDITION_FAILED');
    expect(await t.db.prisma.customer.count({ where: { debtorNumber: fresh } })).toBe(0);
  });

  it('If-None-Match: * creates only', async () => {
    const key = debtor();
    await put(byKey(key), student(), { 'If-None-Match': '*' }).expect(201);
    const before = await logCount();
    await put(byKey(key), student({ firstName: 'Other' }), { 'If-None-Match': '*' }).expect(412);
    expect(await logCount()).toBe(before);
  });

  it('keeps the rules: a bad record is 400 and nothing is created', async () => {
    const key = debtor();
    const res = await put(byKey(key), student({ firstName: '' })).expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(await t.db.prisma.customer.count({ where: { debtorNumber: key } })).toBe(0);
  });

  it('codes are keys regardless of case: an account found by its code in other case is replaced, not duplicated', async () => {
    const account = fixture.accounts.find((a) => a.type === 'Revenue' && a.isActive)!;
    const res = await put(`${API}/accounts(code='${account.code.toLowerCase()}')`, {
      code: account.code,
      name: account.name,
      type: account.type,
    }).expect(200);
    expect(res.body.id).toBe(account.id);
    const created = await put(`${API}/academic-terms(code='SS2099')`, {
      startDate: '2099-04-01T00:00:00.000Z',
      endDate: '2099-09-30T00:00:00.000Z',
    }).expect(201);
    expect(created.body.code).toBe('SS2099');
    await put(`${API}/academic-terms(code='ss2099')`, {
      code: 'SS2099',
      startDate: '2099-04-01T00:00:00.000Z',
      endDate: '2099-09-30T00:00:00.000Z',
    })
      .expect(400)
      .then((r) => expect(r.body.code).toBe('VALIDATION_FAILED'));
  });

  it('two syncs creating one new key at once: one creates, the other replaces; one record', async () => {
    const key = debtor();
    const results = await Promise.all([put(byKey(key), student()), put(byKey(key), student({ email: 'second@stud.example' }))]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 201]);
    expect(await t.db.prisma.customer.count({ where: { debtorNumber: key } })).toBe(1);
  });

  it('needs billing.maintain', async () => {
    const key = debtor();
    await request(t.http).put(byKey(key)).set(bearer(t.tokens.writer)).send(student()).expect(403);
    expect(await t.db.prisma.customer.count({ where: { debtorNumber: key } })).toBe(0);
  });
});

describe('GET, PATCH and DELETE by alternate key', () => {
  it('a key the database cannot hold (a NUL character) is 400 on every method, never a 5xx', async () => {
    const paths = ["/customers(debtorNumber='A%00B')", "/accounts(code='A%00B')", "/articles(code='A%00B')"];
    for (const path of paths)
      for (const method of ['get', 'patch', 'put', 'delete'] as const) {
        const res = await request(t.http)[method](`${API}${path}`).set(bearer(maintainer)).send({ name: 'x' });
        expect([method, path, res.status, res.body.code]).toEqual([method, path, 400, 'VALIDATION_FAILED']);
      }
  });

  it('read, change and delete the record with that key; an unknown key is 404; a key that is not one is 400', async () => {
    const key = debtor();
    const created = await put(byKey(key), student()).expect(201);
    const read = await request(t.http).get(byKey(key)).set(bearer(maintainer)).expect(200);
    expect(read.body.id).toBe(created.body.id);
    expect(read.headers.etag).toBe(created.headers.etag);
    // a path below the record too: an address added to the customer with that key
    await request(t.http)
      .post(`${byKey(key)}/addresses`)
      .set(bearer(maintainer))
      .send({ addressType: 'Correspondence', street: 'Postfach 1', city: 'Freiburg', postalCode: '79001', country: 'DE' })
      .expect(201);
    expect(await t.db.prisma.address.count({ where: { customerId: created.body.id } })).toBe(3);
    const current = await request(t.http).get(byKey(key)).set(bearer(maintainer)).expect(200);

    const patched = await request(t.http)
      .patch(byKey(key))
      .set(bearer(maintainer))
      .set('If-Match', current.headers.etag as string)
      .send({ email: 'new@stud.example' })
      .expect(200);
    expect(patched.body.email).toBe('new@stud.example');

    const missing = await request(t.http).get(byKey(debtor())).set(bearer(maintainer)).expect(404);
    expect(missing.body.code).toBe('NOT_FOUND');
    const notAKey = await request(t.http).get(`${API}/customers(lastName='Fischer')`).set(bearer(maintainer)).expect(400);
    expect(notAKey.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'lastName', message: expect.stringContaining('debtorNumber') }],
    });
    await request(t.http).get(`${API}/tax-codes(code='V19')`).set(bearer(maintainer)).expect(400);

    await request(t.http).delete(byKey(key)).set(bearer(maintainer)).expect(204);
    await request(t.http).get(byKey(key)).set(bearer(maintainer)).expect(404);
  });

  it('a reader without billing.read learns nothing about which keys exist', async () => {
    const res = await request(t.http)
      .get(byKey(String(fixture.customers[0]!.debtorNumber)))
      .set(bearer(await token('billing.write')))
      .expect(403);
    expect(res.body.code).toBe('FORBIDDEN');
  });
});

describe('GraphQL upsert<X>', () => {
  const UPSERT =
    'mutation($key: String!, $input: CustomerInput!, $ifMatch: String) { upsertCustomer(debtorNumber: $key, input: $input, ifMatch: $ifMatch) { id debtorNumber email etag addresses { id street } } }';

  it('creates, replaces, and changes nothing when repeated; REST and GraphQL see one record', async () => {
    const key = debtor();
    const created = await gqlOk<{ upsertCustomer: { id: string; etag: string } }>(t, UPSERT, { key, input: student() }, maintainer);
    const rest = await request(t.http).get(byKey(key)).set(bearer(maintainer)).expect(200);
    expect(rest.body.id).toBe(created.upsertCustomer.id);
    expect(rest.headers.etag).toBe(created.upsertCustomer.etag);
    const before = await logCount();
    const again = await gqlOk<{ upsertCustomer: { id: string; etag: string } }>(t, UPSERT, { key, input: student() }, maintainer);
    expect(again.upsertCustomer).toEqual(created.upsertCustomer);
    expect(await logCount()).toBe(before);
    const changed = await gqlOk<{ upsertCustomer: { email: string } }>(
      t,
      UPSERT,
      { key, input: student({ email: 'x@stud.example' }), ifMatch: created.upsertCustomer.etag },
      maintainer,
    );
    expect(changed.upsertCustomer.email).toBe('x@stud.example');
  });

  it('a stale ifMatch is PRECONDITION_FAILED; without billing.maintain FORBIDDEN; nothing written', async () => {
    const key = debtor();
    await gqlOk(t, UPSERT, { key, input: student() }, maintainer);
    const before = await logCount();
    const stale = await gql(t, UPSERT, { key, input: student({ email: 'y@stud.example' }), ifMatch: '"stale"' }, maintainer);
    expect(stale.errors?.map((e) => e.extensions.code)).toEqual(['PRECONDITION_FAILED']);
    const other = debtor();
    const forbidden = await gql(t, UPSERT, { key: other, input: student() }, await token('billing.read billing.write billing.pii'));
    expect(forbidden.errors?.map((e) => e.extensions.code)).toEqual(['FORBIDDEN']);
    expect(await logCount()).toBe(before);
  });

  it('upserts the codes of articles, accounts and academic terms', async () => {
    const revenue = fixture.accounts.find((a) => a.type === 'Revenue' && a.isActive)!;
    const code = `UP-${debtor()}`;
    const res = await gqlOk<{ upsertArticle: { code: string; name: string } }>(
      t,
      'mutation($code: String!, $input: ArticleInput!) { upsertArticle(code: $code, input: $input) { code name } }',
      { code, input: { name: 'Semesterbeitrag', revenueAccountId: revenue.id } },
      maintainer,
    );
    expect(res.upsertArticle).toEqual({ code, name: 'Semesterbeitrag' });
  });
});

describe('$metadata', () => {
  it('declares the alternate keys (Core.AlternateKeys) in XML and JSON', async () => {
    const xml = await request(t.http).get(`${API}/$metadata`).set(bearer(maintainer)).expect(200);
    expect(xml.text).toContain('Namespace="Org.OData.Core.V1" Alias="Core"');
    for (const [type, field] of [
      ['Customer', 'debtorNumber'],
      ['Account', 'code'],
      ['Article', 'code'],
      ['AcademicTerm', 'code'],
    ])
      expect(xml.text).toMatch(new RegExp(`Target="[\\w.]+\\.${type}"><Annotation Term="Core.AlternateKeys">.*?PropertyPath="${field}"`));
    expect(xml.text).not.toMatch(/Target="[\w.]+\.TaxCode"><Annotation Term="Core.AlternateKeys">/);
    const json = await request(t.http).get(`${API}/$metadata?$format=json`).set(bearer(maintainer)).expect(200);
    const annotations = Object.values(json.body as Record<string, { $Annotations?: Record<string, Record<string, unknown>> }>).find(
      (v) => typeof v === 'object' && v.$Annotations,
    )!.$Annotations!;
    const customer = Object.entries(annotations).find(([target]) => target.endsWith('.Customer'))![1];
    expect(customer['@Core.AlternateKeys']).toEqual([{ Key: [{ Name: 'debtorNumber', Alias: 'debtorNumber' }] }]);
  });
});
