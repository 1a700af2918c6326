// Reference data written through REST (billing.maintain): every resource of the common write
// path, its rules with their catalogue codes, If-Match, 405 with Allow; each refused write
// leaves every table and the change log as they were.

import request from 'supertest';
import { bearer, createTestApp, newId, token, WRITER_ID, type TestApp } from '../support/app';
import { activeAssetAccount, fixture, inactiveAssetAccount } from '../support/fixture';

const API = '/api/v1';
let t: TestApp;
let maintainer: string;

beforeAll(async () => {
  t = await createTestApp();
  // billing.pii too: customers' names and addresses are personal data.
  maintainer = await token('billing.read billing.maintain billing.audit billing.pii', WRITER_ID);
});
afterAll(async () => {
  await t.close();
});

const revenueAccount = () => fixture.accounts.find((a) => a.type === 'Revenue' && a.isActive)!;
const liabilityAccount = () => fixture.accounts.find((a) => a.type === 'Liability' && a.isActive)!;
const usedAccount = () => fixture.accounts.find((a) => fixture.paymentSources.some((s) => s.accountId === a.id))!;
const unique = () => Math.random().toString(36).slice(2, 8).toUpperCase();
const FUTURE = '2099-01-01T00:00:00.000Z';

/** Every table the writes touch, and the change log: a refused write leaves them as they were. */
async function snapshot(): Promise<string> {
  const p = t.db.prisma;
  const [accounts, taxCodes, articles, prices, customers, addresses, terms, log] = await Promise.all([
    p.account.findMany({ orderBy: { id: 'asc' } }),
    p.taxCode.findMany({ orderBy: { id: 'asc' } }),
    p.article.findMany({ orderBy: { id: 'asc' } }),
    p.articlePrice.findMany({ orderBy: { id: 'asc' } }),
    p.customer.findMany({ orderBy: { id: 'asc' } }),
    p.address.findMany({ orderBy: { id: 'asc' } }),
    p.academicTerm.findMany({ orderBy: { id: 'asc' } }),
    p.changeLog.count(),
  ]);
  return JSON.stringify({ accounts, taxCodes, articles, prices, customers, addresses, terms, log });
}

type Method = 'post' | 'put' | 'patch' | 'delete';
type Headers = Record<string, string | undefined>;
const send = (method: Method, path: string, body?: object, headers: Headers = {}) => {
  const req = request(t.http)[method](`${API}${path}`).set(bearer(maintainer));
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) void req.set(name, value);
  return body === undefined ? req : req.send(body);
};

/** A write that must be refused with `status`/`code`, changing nothing and logging nothing. */
async function refused(method: Method, path: string, body: object | undefined, status: number, code: string, headers: Headers = {}) {
  const before = await snapshot();
  const res = await send(method, path, body, headers);
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  expect(await snapshot()).toBe(before);
  return res;
}

const logOf = (recordId: string) => t.db.prisma.changeLog.findMany({ where: { recordId }, orderBy: { seq: 'asc' } });

describe('scope billing.maintain', () => {
  it('is required for every maintained resource; billing.write is not enough', async () => {
    const before = await snapshot();
    const res = await request(t.http).post(`${API}/accounts`).set(bearer(t.tokens.writer)).send({ code: 'X1', name: 'x', type: 'Asset' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
    await request(t.http).delete(`${API}/academic-terms/${fixture.academicTerms[0]!.id}`).set(bearer(t.tokens.writer)).expect(403);
    expect(await snapshot()).toBe(before);
  });

  it('does not write payment sources (they keep billing.write)', async () => {
    const res = await request(t.http)
      .post(`${API}/payment-sources`)
      .set(bearer(maintainer))
      .send({ code: 'M-PS', name: 'x', accountId: activeAssetAccount().id, sourceType: 'Cash' });
    expect(res.status).toBe(403);
  });
});

describe('accounts', () => {
  it('creates, replaces, merges and deletes with ETag, Location, audit in the change log', async () => {
    const code = `A${unique()}`;
    const created = await send('post', '/accounts', { code, name: 'Kasse Test', type: 'Asset' }).expect(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      code,
      name: 'Kasse Test',
      type: 'Asset',
      isActive: true,
    });
    expect(created.headers.location).toBe(`${API}/accounts/${created.body.id}`);
    const read = await request(t.http).get(`${API}/accounts/${created.body.id}`).set(bearer(maintainer)).expect(200);
    expect(read.headers.etag).toBe(created.headers.etag);

    const replaced = await send(
      'put',
      `/accounts/${created.body.id}`,
      { code, name: 'Kasse 2', type: 'Asset' },
      { 'If-Match': read.headers.etag },
    ).expect(200);
    expect(replaced.body.name).toBe('Kasse 2');
    expect(replaced.headers.etag).not.toBe(read.headers.etag);
    await refused('patch', `/accounts/${created.body.id}`, { name: 'stale' }, 412, 'PRECONDITION_FAILED', {
      'If-Match': read.headers.etag,
    });
    const merged = await send(
      'patch',
      `(${created.body.id})`.replace('(', '/accounts('),
      { isActive: false },
      { 'If-Match': replaced.headers.etag },
    ).expect(200);
    expect(merged.body).toMatchObject({ code, name: 'Kasse 2', isActive: false });

    await send('delete', `/accounts/${created.body.id}`).expect(204);
    await request(t.http).get(`${API}/accounts/${created.body.id}`).set(bearer(maintainer)).expect(404);
    const log = await logOf(created.body.id);
    expect(log.map((e) => e.operation)).toEqual(['created', 'updated', 'updated', 'deleted']);
    expect(log.every((e) => e.userId === WRITER_ID && e.resource === 'account')).toBe(true);
  });

  it('refuses server-assigned and unknown properties, and bad values, with 400', async () => {
    const r1 = await refused(
      'post',
      '/accounts',
      { id: newId(), code: `A${unique()}`, name: 'x', type: 'Asset' },
      400,
      'VALIDATION_FAILED',
    );
    expect(r1.body.errors).toEqual([{ field: 'id', message: 'is not a known property' }]);
    await refused('post', '/accounts', { code: `A${unique()}`, name: 'x', type: 'Cash' }, 400, 'VALIDATION_FAILED');
    await refused('patch', `/accounts/${usedAccount().id}`, { id: newId() }, 400, 'VALIDATION_FAILED');
    await refused('put', '/accounts/not-a-uuid', { code: 'X', name: 'x', type: 'Asset' }, 400, 'VALIDATION_FAILED');
    await refused('put', `/accounts/${newId()}`, { code: `A${unique()}`, name: 'x', type: 'Asset' }, 404, 'NOT_FOUND');
  });

  it('keeps codes unique ignoring case', async () => {
    const existing = fixture.accounts[0]!;
    const res = await refused(
      'post',
      '/accounts',
      { code: existing.code.toLowerCase() + '', name: 'x', type: 'Asset' },
      409,
      'DUPLICATE_CODE',
    );
    expect(res.body.errors).toEqual([{ field: 'code', message: 'already used' }]);
    const code = `Ab${unique()}`;
    await send('post', '/accounts', { code, name: 'x', type: 'Expense' }).expect(201);
    await refused('post', '/accounts', { code: code.toUpperCase(), name: 'y', type: 'Expense' }, 409, 'DUPLICATE_CODE');
    await refused('patch', `/accounts/${existing.id}`, { code: code.toLowerCase() }, 409, 'DUPLICATE_CODE');
  });

  it('keeps an account that payment sources use an active Asset account (409 naming them)', async () => {
    const res = await refused('patch', `/accounts/${usedAccount().id}`, { isActive: false }, 409, 'IN_USE');
    expect(res.body.detail).toMatch(/payment sources/);
    await refused('patch', `/accounts/${usedAccount().id}`, { type: 'Revenue' }, 409, 'IN_USE');
  });

  it('refuses to delete an account that others refer to, naming them', async () => {
    const used = usedAccount();
    const res = await refused('delete', `/accounts/${used.id}`, undefined, 409, 'IN_USE');
    const codes = fixture.paymentSources.filter((s) => s.accountId === used.id).map((s) => s.code);
    for (const c of codes.slice(0, 5)) expect(res.body.detail).toContain(c);
    await refused('delete', `/accounts/${revenueAccount().id}`, undefined, 409, 'IN_USE');
  });
});

describe('tax codes', () => {
  const body = (over: Record<string, unknown> = {}) => ({
    code: `T${unique()}`,
    name: 'Test tax',
    rate: 19,
    taxType: 'VAT',
    taxAccountId: liabilityAccount().id,
    revenueAccountId: revenueAccount().id,
    validFrom: FUTURE,
    ...over,
  });

  it('creates a future tax code with audit fields and an exact rate', async () => {
    const res = await send('post', '/tax-codes', body({ rate: 7.25 })).expect(201);
    expect(res.body).toMatchObject({
      rate: 7.25,
      description: null,
      validTo: null,
      isActive: true,
      createdById: WRITER_ID,
      updatedAt: null,
    });
    const patched = await send('patch', `/tax-codes/${res.body.id}`, { rate: '7.5' }, { 'If-Match': res.headers.etag }).expect(200);
    expect(patched.body).toMatchObject({ rate: 7.5, updatedById: WRITER_ID });
    await send('delete', `/tax-codes/${res.body.id}`).expect(204);
  });

  it('refuses rates outside 0..100, more than two decimals, an Exempt rate above 0, validTo before validFrom', async () => {
    for (const [over, field] of [
      [{ rate: 100.01 }, 'rate'],
      [{ rate: -1 }, 'rate'],
      [{ rate: 1.234 }, 'rate'],
      [{ taxType: 'Exempt', rate: 5 }, 'rate'],
      [{ validTo: '2098-12-31T00:00:00Z' }, 'validTo'],
    ] as const) {
      const res = await refused('post', '/tax-codes', body(over), 400, 'VALIDATION_FAILED');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    await send('post', '/tax-codes', body({ taxType: 'Exempt', rate: 0 })).expect(201);
  });

  it('refuses a period that overlaps another of the same code, naming it', async () => {
    const code = `T${unique()}`;
    const first = await send(
      'post',
      '/tax-codes',
      body({ code, validFrom: '2099-01-01T00:00:00Z', validTo: '2099-06-30T00:00:00Z' }),
    ).expect(201);
    const res = await refused('post', '/tax-codes', body({ code, validFrom: '2099-06-30T00:00:00Z' }), 409, 'PERIOD_OVERLAP');
    expect(res.body.detail).toContain(first.body.id);
    await send('post', '/tax-codes', body({ code, validFrom: '2099-07-01T00:00:00Z' })).expect(201);
    // The same code in another case is the same code.
    await refused('post', '/tax-codes', body({ code: code.toLowerCase(), validFrom: '2099-03-01T00:00:00Z' }), 409, 'PERIOD_OVERLAP');
  });

  it('keeps the rate, type and start of a tax code that took effect; ending and renaming stay possible', async () => {
    const v19 = fixture.taxCodes.find((c) => c.code === 'V19')!;
    const res = await refused('patch', `/tax-codes/${v19.id}`, { rate: 20 }, 409, 'ALREADY_EFFECTIVE');
    expect(res.body.errors).toEqual([{ field: 'rate', message: 'cannot change once the tax code took effect' }]);
    await refused('patch', `/tax-codes/${v19.id}`, { validFrom: '2008-01-01T00:00:00Z' }, 409, 'ALREADY_EFFECTIVE');
    await refused('patch', `/tax-codes/${v19.id}`, { taxType: 'Sales Tax' }, 409, 'ALREADY_EFFECTIVE');
    await refused('delete', `/tax-codes/${v19.id}`, undefined, 409, 'ALREADY_EFFECTIVE');
    const ended = await send('patch', `/tax-codes/${v19.id}`, { validTo: '2098-12-31T23:59:59Z', name: 'USt 19 % (bis 2098)' }).expect(200);
    expect(ended.body).toMatchObject({ rate: 19, validTo: '2098-12-31T23:59:59.000Z' });
    // Its successor from the next day.
    await send('post', '/tax-codes', body({ code: 'V19', rate: 21, validFrom: '2099-01-01T00:00:00Z' })).expect(201);
  });

  it('refuses a start in the past through the API, and inactive accounts', async () => {
    await refused('post', '/tax-codes', body({ validFrom: '2020-01-01T00:00:00Z' }), 409, 'ALREADY_EFFECTIVE');
    const res = await refused('post', '/tax-codes', body({ taxAccountId: inactiveAssetAccount().id }), 422, 'ACCOUNT_NOT_USABLE');
    expect(res.body.errors).toEqual([{ field: 'taxAccountId', message: 'the account must be active and of type Liability' }]);
    await refused('post', '/tax-codes', body({ revenueAccountId: newId() }), 422, 'ACCOUNT_NOT_USABLE');
  });

  it('refuses to delete a future tax code articles use', async () => {
    const tax = await send('post', '/tax-codes', body()).expect(201);
    const article = await send('post', '/articles', { code: `AR${unique()}`, name: 'uses tax', defaultTaxCodeId: tax.body.id }).expect(201);
    const res = await refused('delete', `/tax-codes/${tax.body.id}`, undefined, 409, 'IN_USE');
    expect(res.body.detail).toContain(article.body.code);
  });
});

describe('articles and prices', () => {
  it('creates an article and a future price, changes and deletes the future price', async () => {
    const article = await send('post', '/articles', {
      code: `AR${unique()}`,
      name: 'Semesterbeitrag',
      revenueAccountId: revenueAccount().id,
    }).expect(201);
    expect(article.body).toMatchObject({ isActive: true, useArticleCostCenter: false, createdById: WRITER_ID, defaultTaxCodeId: null });
    const price = await send('post', '/article-prices', { articleId: article.body.id, amount: 171.5, validFrom: FUTURE }).expect(201);
    expect(price.body).toEqual({
      id: expect.any(String),
      articleId: article.body.id,
      amount: 171.5,
      validFrom: FUTURE,
    });
    expect(price.headers.etag).toBeDefined();
    await refused('patch', `/article-prices/${price.body.id}`, { amount: 1 }, 412, 'PRECONDITION_FAILED', { 'If-Match': '"stale"' });
    const changed = await send(
      'patch',
      `/article-prices/${price.body.id}`,
      { amount: '180.1234' },
      { 'If-Match': price.headers.etag },
    ).expect(200);
    expect(changed.body.amount).toBe(180.1234);
    await refused('post', '/article-prices', { articleId: article.body.id, amount: 1, validFrom: FUTURE }, 409, 'DUPLICATE_KEY');
    await refused('delete', `/articles/${article.body.id}`, undefined, 409, 'IN_USE');
    await send('delete', `/article-prices/${price.body.id}`).expect(204);
    await send('delete', `/articles/${article.body.id}`).expect(204);
  });

  it('keeps prices that took effect, and refuses prices starting in the past', async () => {
    const old = fixture.articlePrices[0]!;
    await refused('patch', `/article-prices/${old.id}`, { amount: 1 }, 409, 'ALREADY_EFFECTIVE');
    await refused('delete', `/article-prices/${old.id}`, undefined, 409, 'ALREADY_EFFECTIVE');
    await refused(
      'post',
      '/article-prices',
      { articleId: old.articleId, amount: 1, validFrom: '2020-01-01T00:00:00Z' },
      409,
      'ALREADY_EFFECTIVE',
    );
    const unknown = await refused(
      'post',
      '/article-prices',
      { articleId: newId(), amount: 1, validFrom: FUTURE },
      400,
      'VALIDATION_FAILED',
    );
    expect(unknown.body.errors).toEqual([{ field: 'articleId', message: 'unknown article' }]);
  });

  it("refuses an article's revenue account that is not an active Revenue account, and duplicate codes", async () => {
    await refused(
      'post',
      '/articles',
      { code: `AR${unique()}`, name: 'x', revenueAccountId: activeAssetAccount().id },
      422,
      'ACCOUNT_NOT_USABLE',
    );
    await refused('post', '/articles', { code: fixture.articles[0]!.code.toLowerCase(), name: 'x' }, 409, 'DUPLICATE_CODE');
    await refused('post', '/articles', { code: `AR${unique()}`, name: 'x', defaultTaxCodeId: newId() }, 400, 'VALIDATION_FAILED');
    await refused('post', '/articles', { code: `AR${unique()}`, name: 'x', createdAt: FUTURE }, 400, 'VALIDATION_FAILED');
  });
});

describe('customers with addresses', () => {
  const customer = (over: Record<string, unknown> = {}) => ({
    firstName: 'Erika',
    lastName: 'Mustermann',
    debtorNumber: `9${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(0, 12),
    addresses: [
      { addressType: 'Billing', street: 'Hauptstr. 1', city: 'Musterstadt', postalCode: '12345', country: 'DE', isDefault: true },
      { addressType: 'Home', street: 'Nebenweg 2', city: 'Musterstadt', postalCode: '12345', country: 'DE' },
    ],
    ...over,
  });

  it('creates a customer with its addresses; PUT replaces the set; the log holds every address', async () => {
    const created = await send('post', '/customers', customer()).expect(201);
    expect(created.body.addresses).toHaveLength(2);
    expect(created.body.addresses[0]).toMatchObject({ addressType: 'Billing', isDefault: true, customerId: created.body.id });
    const read = await request(t.http).get(`${API}/customers/${created.body.id}`).set(bearer(maintainer)).expect(200);
    expect(read.headers.etag).toBe(created.headers.etag);

    const billing = created.body.addresses[0];
    const { customerId: _c, ...kept } = billing;
    const replaced = await send(
      'put',
      `/customers/${created.body.id}`,
      { ...customer({ debtorNumber: created.body.debtorNumber }), addresses: [{ ...kept, city: 'Neustadt' }] },
      { 'If-Match': read.headers.etag },
    ).expect(200);
    expect(replaced.body.addresses).toEqual([{ ...billing, city: 'Neustadt' }]);
    const addressLog = await logOf(created.body.addresses[1].id);
    expect(addressLog.map((e) => e.operation)).toEqual(['created', 'deleted']);
    expect((await logOf(billing.id)).map((e) => e.operation)).toEqual(['created', 'updated']);

    const merged = await send('patch', `/customers/${created.body.id}`, { email: 'erika@example.org' }).expect(200);
    expect(merged.body.addresses).toEqual(replaced.body.addresses);
    await send('delete', `/customers/${created.body.id}`).expect(204);
    expect(await t.db.prisma.address.count({ where: { customerId: created.body.id } })).toBe(0);
  });

  it('refuses two default addresses, a taken debtor number, an inactive account, another customer’s address', async () => {
    const two = customer();
    two.addresses[1] = { ...two.addresses[1]!, isDefault: true };
    await refused('post', '/customers', two, 400, 'VALIDATION_FAILED');
    await refused('post', '/customers', customer({ debtorNumber: fixture.customers[0]!.debtorNumber }), 409, 'DUPLICATE_KEY');
    await refused('post', '/customers', customer({ receivableAccountId: inactiveAssetAccount().id }), 422, 'ACCOUNT_NOT_USABLE');
    const other = fixture.customers.find((c) => c.addresses.length > 0)!;
    const res = await refused(
      'post',
      '/customers',
      customer({ addresses: [{ ...other.addresses[0]!, id: newId() }] }),
      400,
      'VALIDATION_FAILED',
    );
    expect(res.body.errors).toEqual([{ field: 'addresses[0].customerId', message: 'is not a known property' }]);
    const { customerId: _x, ...values } = other.addresses[0]!;
    const res2 = await refused('post', '/customers', customer({ addresses: [values] }), 400, 'VALIDATION_FAILED');
    expect(res2.body.errors).toEqual([{ field: 'addresses[0].id', message: 'is an address of another customer' }]);
  });

  it("writes one address at the customer's address paths, with its own ETag, one default per customer", async () => {
    const c = await send('post', '/customers', customer()).expect(201);
    const [billing] = c.body.addresses;
    const added = await send('post', `/customers(${c.body.id})/addresses`, {
      addressType: 'Correspondence',
      street: 'Postfach 9',
      city: 'Musterstadt',
      postalCode: '12340',
      country: 'DE',
    }).expect(201);
    expect(added.body).toMatchObject({ customerId: c.body.id, addressType: 'Correspondence', isDefault: false });
    expect(added.headers.location).toBe(`${API}/customers/${c.body.id}/addresses/${added.body.id}`);
    const second = await refused(
      'post',
      `/customers/${c.body.id}/addresses`,
      { addressType: 'X', street: 's', city: 'c', postalCode: 'p', country: 'DE', isDefault: true },
      409,
      'DEFAULT_ALREADY_SET',
    );
    expect(second.body.detail).toContain(billing.id);
    await refused(
      'post',
      `/customers/${c.body.id}/addresses`,
      { id: newId(), addressType: 'X', street: 's', city: 'c', postalCode: 'p', country: 'DE' },
      400,
      'VALIDATION_FAILED',
    );
    await refused('patch', `/customers/${c.body.id}/addresses/${added.body.id}`, { city: 'Alt' }, 412, 'PRECONDITION_FAILED', {
      'If-Match': '"old"',
    });
    const changed = await send(
      'patch',
      `/customers/${c.body.id}/addresses/${added.body.id}`,
      { city: 'Neustadt' },
      { 'If-Match': added.headers.etag },
    ).expect(200);
    expect(changed.body).toEqual({ ...added.body, city: 'Neustadt' });
    await send('patch', `/customers/${c.body.id}/addresses/${billing.id}`, { isDefault: false }).expect(200);
    await send('patch', `/customers/${c.body.id}/addresses/${added.body.id}`, { isDefault: true }).expect(200);
    await send('delete', `/customers/${c.body.id}/addresses/${billing.id}`).expect(204);
    await refused('delete', `/customers/${c.body.id}/addresses/${billing.id}`, undefined, 404, 'NOT_FOUND');
    const now = await request(t.http).get(`${API}/customers/${c.body.id}`).set(bearer(maintainer)).expect(200);
    expect(now.body.addresses.map((a: { id: string; isDefault: boolean }) => [a.id, a.isDefault])).toEqual([
      [added.body.id, true],
      [c.body.addresses[1].id, false],
    ]);
    const res = await send('put', `/customers/${c.body.id}/addresses`, {});
    expect([res.status, res.headers.allow]).toEqual([405, 'POST']);
  });

  it('refuses to delete a customer with payments', async () => {
    const c = fixture.customers[0]!;
    const pay = await request(t.http).post(`${API}/payments`).set(bearer(t.tokens.writer)).send({ customerId: c.id, amount: 10 });
    expect(pay.status).toBe(201);
    const res = await refused('delete', `/customers/${c.id}`, undefined, 409, 'IN_USE');
    expect(res.body.detail).toContain(pay.body.id);
  });
});

describe('academic terms', () => {
  it('creates, refuses a code used in another case, deletes', async () => {
    const code = `SS${unique()}`.slice(0, 20);
    const term = await send('post', '/academic-terms', { code, startDate: '2099-04-01T00:00:00Z', endDate: '2099-09-30T00:00:00Z' }).expect(
      201,
    );
    expect(term.body).toMatchObject({ code, statisticalSemester: null, externalSystemId: null });
    await refused(
      'post',
      '/academic-terms',
      { code: code.toLowerCase(), startDate: '2099-04-01T00:00:00Z', endDate: '2099-09-30T00:00:00Z' },
      409,
      'DUPLICATE_CODE',
    );
    await refused('patch', `/academic-terms/${term.body.id}`, { endDate: '2099-01-01T00:00:00Z' }, 400, 'VALIDATION_FAILED');
    await send('delete', `/academic-terms/${term.body.id}`, undefined, { 'If-Match': term.headers.etag }).expect(204);
  });
});

describe('methods a path does not take', () => {
  it('answers 405 with Allow', async () => {
    const cases: Array<[Method, string, string]> = [
      // a collection whose records have a code or debtor number takes PATCH: the bulk upsert
      ['delete', '/accounts', 'GET, HEAD, POST, PATCH'],
      ['patch', '/tax-codes', 'GET, HEAD, POST'],
      ['post', `/accounts/${usedAccount().id}`, 'GET, HEAD, PUT, PATCH, DELETE'],
      ['put', `/payments/${newId()}`, 'GET, HEAD'],
      ['post', '/accounts/$count', 'GET, HEAD'],
      ['patch', '/article-prices', 'GET, HEAD, POST'],
      ['delete', '/payment-sources', 'GET, HEAD, POST'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await send(method, path, method === 'delete' ? undefined : {});
      expect({ path, status: res.status, code: res.body.code, allow: res.headers.allow }).toEqual({
        path,
        status: 405,
        code: 'METHOD_NOT_ALLOWED',
        allow,
      });
    }
    await request(t.http).post(`${API}/nothing-here`).set(bearer(maintainer)).expect(404);
  });
});

describe('what the descriptions say is writable', () => {
  it('$metadata annotates every entity set with Capabilities Insertable, Updatable, Deletable as its paths take them', async () => {
    const res = await request(t.http).get(`${API}/$metadata?$format=json`).set(bearer(maintainer)).expect(200);
    const all: Record<string, Record<string, unknown>> = res.body.Billing.$Annotations;
    const of = (set: string) => {
      const key = Object.keys(all).find((k) => k.endsWith(`/${set}`))!;
      const a = all[key]!;
      return [a['@Capabilities.InsertRestrictions'], a['@Capabilities.UpdateRestrictions'], a['@Capabilities.DeleteRestrictions']];
    };
    const every = [{ Insertable: true }, { Updatable: true }, { Deletable: true }];
    for (const set of ['Accounts', 'TaxCodes', 'Articles', 'Customers', 'AcademicTerms', 'PaymentSources'])
      expect([set, of(set)]).toEqual([set, every]);
    expect(of('Payments')).toEqual([{ Insertable: true }, { Updatable: false }, { Deletable: false }]);
    expect(of('Changes')).toEqual([{ Insertable: false }, { Updatable: false }, { Deletable: false }]);
    const xml = await request(t.http).get(`${API}/$metadata`).set(bearer(maintainer)).expect(200);
    expect(xml.text).toMatch(
      /Target="[^"]+\/Accounts"><Annotation Term="Capabilities.InsertRestrictions"><Record><PropertyValue Property="Insertable" Bool="true"\/>/,
    );
  });

  it('the OpenAPI document has the writes and their bodies, without server-assigned fields', async () => {
    const doc = (await request(t.http).get(`${API}/openapi.json`).expect(200)).body;
    for (const path of ['/tax-codes', '/article-prices'])
      expect([path, Object.keys(doc.paths[path]).sort()]).toEqual([path, ['get', 'post']]);
    // by a natural key, many at once
    for (const path of ['/accounts', '/articles', '/customers', '/academic-terms'])
      expect([path, Object.keys(doc.paths[path]).sort()]).toEqual([path, ['get', 'patch', 'post']]);
    for (const path of ['/accounts/{id}', '/tax-codes/{id}', '/article-prices/{id}'])
      expect(Object.keys(doc.paths[path])).toEqual(expect.arrayContaining(['put', 'patch', 'delete']));
    expect(Object.keys(doc.paths['/payments/{id}'])).toEqual(['get']);
    const input = doc.components.schemas.TaxCodeInput;
    expect(Object.keys(input.properties)).not.toEqual(expect.arrayContaining(['id']));
    for (const f of ['id', 'createdAt', 'createdById', 'updatedAt', 'updatedById']) expect(input.properties[f]).toBeUndefined();
    expect(input.additionalProperties).toBe(false);
    expect(doc.components.schemas.TaxCodePatch.required).toBeUndefined();
  });
});
