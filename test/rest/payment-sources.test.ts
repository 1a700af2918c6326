import request from 'supertest';
import { createTestApp, token, WRITER_ID, type TestApp, bearer } from '../support/app';
import { activeAssetAccount, defaultSource, fixture, idsOf, inactiveAssetAccount, nonAssetAccount } from '../support/fixture';

const BASE = '/api/v1/payment-sources';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const body = (over: Record<string, unknown> = {}) => ({
  code: `PS-${Math.random().toString(36).slice(2, 10)}`,
  name: 'Test source',
  description: 'made by a test',
  accountId: activeAssetAccount().id,
  sourceType: 'Cash',
  isActive: true,
  isDefault: false,
  ...over,
});
const count = () => t.db.prisma.paymentSource.count();

describe('GET /payment-sources', () => {
  it('lists every payment source with exactly the fields of the spec', async () => {
    const res = await request(t.http).get(`${BASE}?$count=true`).set(bearer(t.tokens.writer)).expect(200);
    expect(res.body['@odata.count']).toBe(fixture.paymentSources.length);
    expect(idsOf(res.body.value)).toEqual(idsOf(fixture.paymentSources));
    for (const s of res.body.value) {
      expect(Object.keys(s).sort()).toEqual(
        [
          'id',
          'code',
          'name',
          'description',
          'accountId',
          'sourceType',
          'isActive',
          'isDefault',
          'createdAt',
          'createdById',
          'updatedAt',
          'updatedById',
        ].sort(),
      );
      const f = fixture.paymentSources.find((x) => x.id === s.id)!;
      expect(s).toMatchObject({
        code: f.code,
        name: f.name,
        description: f.description,
        accountId: f.accountId,
        sourceType: f.sourceType,
        isActive: f.isActive,
        isDefault: f.isDefault,
      });
      expect(s.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
  });

  it('filters on isActive, isDefault and sourceType as the spec examples show', async () => {
    const cases: Array<[string, (s: (typeof fixture.paymentSources)[number]) => boolean]> = [
      ['isActive eq true', (s) => s.isActive],
      ['isActive eq false', (s) => !s.isActive],
      ['isDefault eq true', (s) => s.isDefault],
      ["sourceType eq 'CreditCard'", (s) => s.sourceType === 'CreditCard'],
      ["sourceType ne 'Cash' and isActive eq true", (s) => s.sourceType !== 'Cash' && s.isActive],
      ["sourceType in ('Cash','Check')", (s) => ['Cash', 'Check'].includes(s.sourceType)],
      ["startswith(code,'S')", (s) => s.code.startsWith('S')],
      ["contains(tolower(name),'kart')", (s) => s.name.toLowerCase().includes('kart')],
      ['description eq null', (s) => s.description === null],
      ['description ne null', (s) => s.description !== null],
      ['not (isActive eq true) or isDefault eq true', (s) => !s.isActive || s.isDefault],
    ];
    for (const [f, pred] of cases) {
      const res = await request(t.http).get(BASE).query({ $filter: f }).set(bearer(t.tokens.writer)).expect(200);
      const expected = idsOf(fixture.paymentSources.filter(pred));
      expect({ f, ids: idsOf(res.body.value) }).toEqual({ f, ids: expected });
    }
  });

  it('orders, pages and selects', async () => {
    const sorted = [...fixture.paymentSources].sort((a, b) => (a.code < b.code ? 1 : a.code > b.code ? -1 : 0));
    const res = await request(t.http)
      .get(`${BASE}?$orderby=code desc&$top=3&$skip=1&$select=id,code`)
      .set(bearer(t.tokens.writer))
      .expect(200);
    expect(res.body.value).toEqual(sorted.slice(1, 4).map((s) => ({ id: s.id, code: s.code })));
    expect(res.body['@odata.nextLink']).toBeUndefined();
    expect(res.body['@odata.count']).toBeUndefined();
  });

  it('answers 400 INVALID_QUERY with the position for a bad filter', async () => {
    const res = await request(t.http).get(BASE).query({ $filter: 'isActive eq' }).set(bearer(t.tokens.writer)).expect(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, code: 'INVALID_QUERY' });
    expect(res.body.detail).toMatch(/position \d+/);
    const unknown = await request(t.http).get(BASE).query({ $filter: 'nope eq 1' }).set(bearer(t.tokens.writer)).expect(400);
    expect(unknown.body.code).toBe('INVALID_QUERY');
    expect(unknown.body.detail).toContain('nope');
    await request(t.http).get(`${BASE}?$top=1001`).set(bearer(t.tokens.writer)).expect(400);
    await request(t.http).get(`${BASE}?$top=-1`).set(bearer(t.tokens.writer)).expect(400);
    await request(t.http).get(`${BASE}?$orderby=bogus`).set(bearer(t.tokens.writer)).expect(400);
    await request(t.http).get(`${BASE}?$expand=bogus`).set(bearer(t.tokens.writer)).expect(400);
  });
});

describe('GET /payment-sources/{id}', () => {
  it('returns the record with an ETag', async () => {
    const s = defaultSource();
    const res = await request(t.http).get(`${BASE}/${s.id}`).set(bearer(t.tokens.writer)).expect(200);
    expect(res.body).toMatchObject({ id: s.id, code: s.code, isDefault: true, updatedAt: null, updatedById: null });
    expect(res.headers.etag).toMatch(/^".+"$/);
  });
  it('404 for an unknown id, 400 for a malformed one', async () => {
    const nf = await request(t.http).get(`${BASE}/6f1c2e1a-0000-4000-8000-000000000000`).set(bearer(t.tokens.writer)).expect(404);
    expect(nf.body.code).toBe('NOT_FOUND');
    const bad = await request(t.http).get(`${BASE}/not-a-uuid`).set(bearer(t.tokens.writer)).expect(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'id', message: 'must be a UUID' }] });
  });
});

describe('POST /payment-sources', () => {
  it('creates: 201 with Location, ETag and the audit fields of the caller', async () => {
    const b = body();
    const res = await request(t.http).post(BASE).set(bearer(t.tokens.writer)).send(b).expect(201);
    expect(res.body).toMatchObject({ ...b, createdById: WRITER_ID, updatedAt: null, updatedById: null });
    expect(res.headers.location).toBe(`${BASE}/${res.body.id}`);
    expect(res.headers.etag).toBeTruthy();
    const again = await request(t.http).get(res.headers.location!).set(bearer(t.tokens.writer)).expect(200);
    expect(again.body).toEqual(res.body);
    expect(again.headers.etag).toBe(res.headers.etag);
  });

  it('applies defaults: description null, isActive true, isDefault false', async () => {
    const res = await request(t.http)
      .post(BASE)
      .set(bearer(t.tokens.writer))
      .send({ code: 'MIN-1', name: 'Minimal', accountId: activeAssetAccount().id, sourceType: 'Other' })
      .expect(201);
    expect(res.body).toMatchObject({ description: null, isActive: true, isDefault: false });
  });

  const refusals: Array<[string, () => Record<string, unknown>, number, string, string?]> = [
    ['duplicate code in another case', () => body({ code: defaultSource().code.toLowerCase() }), 409, 'DUPLICATE_CODE', 'code'],
    ['a second default', () => body({ isDefault: true }), 409, 'DEFAULT_ALREADY_SET', 'isDefault'],
    ['an inactive account', () => body({ accountId: inactiveAssetAccount().id }), 422, 'ACCOUNT_NOT_USABLE', 'accountId'],
    ['a non-Asset account', () => body({ accountId: nonAssetAccount().id }), 422, 'ACCOUNT_NOT_USABLE', 'accountId'],
    ['an unknown account', () => body({ accountId: '0b9a2c55-1111-4222-8333-444455556666' }), 422, 'ACCOUNT_NOT_USABLE', 'accountId'],
    [
      'a missing code',
      () => {
        const b = body();
        delete (b as Record<string, unknown>).code;
        return b;
      },
      400,
      'VALIDATION_FAILED',
      'code',
    ],
    ['an unknown sourceType', () => body({ sourceType: 'PayPal' }), 400, 'VALIDATION_FAILED', 'sourceType'],
    ['a code over 50 characters', () => body({ code: 'X'.repeat(51) }), 400, 'VALIDATION_FAILED', 'code'],
    ['an empty name', () => body({ name: '' }), 400, 'VALIDATION_FAILED', 'name'],
    ['a description over 1000 characters', () => body({ description: 'd'.repeat(1001) }), 400, 'VALIDATION_FAILED', 'description'],
    ['a malformed accountId', () => body({ accountId: 'abc' }), 400, 'VALIDATION_FAILED', 'accountId'],
    ['isActive as a string', () => body({ isActive: 'yes' }), 400, 'VALIDATION_FAILED', 'isActive'],
    ['a server-assigned id', () => body({ id: '0b9a2c55-1111-4222-8333-444455556666' }), 400, 'VALIDATION_FAILED', 'id'],
    ['a server-assigned createdAt', () => body({ createdAt: '2026-01-01T00:00:00Z' }), 400, 'VALIDATION_FAILED', 'createdAt'],
    ['an unknown property', () => body({ colour: 'red' }), 400, 'VALIDATION_FAILED', 'colour'],
  ];
  it.each(refusals)('refuses %s and changes nothing', async (_what, make, status, code, field) => {
    const before = await count();
    const res = await request(t.http).post(BASE).set(bearer(t.tokens.writer)).send(make()).expect(status);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status, code, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
    if (field) expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(res.body).not.toHaveProperty('stack');
    expect(await count()).toBe(before);
  });

  it('refuses a body that is not a JSON object, or not JSON', async () => {
    await request(t.http).post(BASE).set(bearer(t.tokens.writer)).send([1, 2]).expect(400);
    const res = await request(t.http)
      .post(BASE)
      .set(bearer(t.tokens.writer))
      .set('Content-Type', 'application/json')
      .send('{"code":')
      .expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
  });

  it('refuses a body over 100 KiB with 413', async () => {
    const res = await request(t.http)
      .post(BASE)
      .set(bearer(t.tokens.writer))
      .send(body({ description: 'x'.repeat(110 * 1024) }))
      .expect(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('PUT /payment-sources/{id}', () => {
  it('replaces the record, records the updater, omitted description becomes null', async () => {
    const created = (await request(t.http).post(BASE).set(bearer(t.tokens.writer)).send(body()).expect(201)).body;
    const editor = await token('billing.read billing.write', '33333333-3333-4333-8333-333333333333');
    const { description: _d, ...rest } = body({ code: created.code, name: 'Renamed', sourceType: 'Check' });
    const res = await request(t.http).put(`${BASE}/${created.id}`).set(bearer(editor)).send(rest).expect(200);
    expect(res.body).toMatchObject({
      id: created.id,
      name: 'Renamed',
      sourceType: 'Check',
      description: null,
      createdById: WRITER_ID,
      createdAt: created.createdAt,
      updatedById: '33333333-3333-4333-8333-333333333333',
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.createdAt));
    expect(res.headers.etag).toBeTruthy();
  });

  it('honours If-Match: stale → 412 and nothing changes; current → 200', async () => {
    const created = await request(t.http).post(BASE).set(bearer(t.tokens.writer)).send(body()).expect(201);
    const etag = created.headers.etag!;
    const first = await request(t.http)
      .put(`${BASE}/${created.body.id}`)
      .set(bearer(t.tokens.writer))
      .set('If-Match', etag)
      .send(body({ code: created.body.code, name: 'v2' }))
      .expect(200);
    const stale = await request(t.http)
      .put(`${BASE}/${created.body.id}`)
      .set(bearer(t.tokens.writer))
      .set('If-Match', etag)
      .send(body({ code: created.body.code, name: 'v3' }))
      .expect(412);
    expect(stale.body.code).toBe('PRECONDITION_FAILED');
    const now = await request(t.http).get(`${BASE}/${created.body.id}`).set(bearer(t.tokens.writer)).expect(200);
    expect(now.body.name).toBe('v2');
    expect(now.headers.etag).toBe(first.headers.etag);
  });

  it('keeps the rules on update and 404s an unknown id', async () => {
    const created = (await request(t.http).post(BASE).set(bearer(t.tokens.writer)).send(body()).expect(201)).body;
    const dup = await request(t.http)
      .put(`${BASE}/${created.id}`)
      .set(bearer(t.tokens.writer))
      .send(body({ code: defaultSource().code.toUpperCase() }))
      .expect(409);
    expect(dup.body.code).toBe('DUPLICATE_CODE');
    const def = await request(t.http)
      .put(`${BASE}/${created.id}`)
      .set(bearer(t.tokens.writer))
      .send(body({ code: created.code, isDefault: true }))
      .expect(409);
    expect(def.body.code).toBe('DEFAULT_ALREADY_SET');
    const acc = await request(t.http)
      .put(`${BASE}/${created.id}`)
      .set(bearer(t.tokens.writer))
      .send(body({ code: created.code, accountId: nonAssetAccount().id }))
      .expect(422);
    expect(acc.body.code).toBe('ACCOUNT_NOT_USABLE');
    const unchanged = await request(t.http).get(`${BASE}/${created.id}`).set(bearer(t.tokens.writer)).expect(200);
    expect(unchanged.body).toEqual(created);
    // Its own code in another case is not a duplicate of itself.
    await request(t.http)
      .put(`${BASE}/${created.id}`)
      .set(bearer(t.tokens.writer))
      .send(body({ code: created.code.toUpperCase() }))
      .expect(200);
    await request(t.http).put(`${BASE}/5d6c7b8a-0000-4000-8000-000000000000`).set(bearer(t.tokens.writer)).send(body()).expect(404);
  });
});

describe('DELETE /payment-sources/{id}', () => {
  it('deletes a source without payments (204), then it is gone (404)', async () => {
    const created = (await request(t.http).post(BASE).set(bearer(t.tokens.writer)).send(body()).expect(201)).body;
    await request(t.http).delete(`${BASE}/${created.id}`).set(bearer(t.tokens.writer)).expect(204);
    await request(t.http).get(`${BASE}/${created.id}`).set(bearer(t.tokens.writer)).expect(404);
    await request(t.http).delete(`${BASE}/${created.id}`).set(bearer(t.tokens.writer)).expect(404);
  });

  it('refuses a source with payments (409 HAS_PAYMENTS) and keeps it', async () => {
    const created = (await request(t.http).post(BASE).set(bearer(t.tokens.writer)).send(body()).expect(201)).body;
    await request(t.http)
      .post('/api/v1/payments')
      .set(bearer(t.tokens.writer))
      .send({ paymentSourceId: created.id, customerId: fixture.customers[0]!.id, amount: 10 })
      .expect(201);
    const res = await request(t.http).delete(`${BASE}/${created.id}`).set(bearer(t.tokens.writer)).expect(409);
    expect(res.body.code).toBe('HAS_PAYMENTS');
    await request(t.http).get(`${BASE}/${created.id}`).set(bearer(t.tokens.writer)).expect(200);
  });

  it('honours If-Match on delete', async () => {
    const created = await request(t.http).post(BASE).set(bearer(t.tokens.writer)).send(body()).expect(201);
    await request(t.http).delete(`${BASE}/${created.body.id}`).set(bearer(t.tokens.writer)).set('If-Match', '"stale"').expect(412);
    await request(t.http)
      .delete(`${BASE}/${created.body.id}`)
      .set(bearer(t.tokens.writer))
      .set('If-Match', created.headers.etag!)
      .expect(204);
  });
});

describe('rules under concurrency', () => {
  it('20 parallel creates of one code: exactly one 201, the rest 409 DUPLICATE_CODE', async () => {
    const code = `RACE-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(t.http)
          .post(BASE)
          .set(bearer(t.tokens.writer))
          .send(body({ code: i % 2 ? code : code.toLowerCase() })),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'DUPLICATE_CODE')).toBe(true);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(await t.db.prisma.paymentSource.count({ where: { code: { equals: code, mode: 'insensitive' } } })).toBe(1);
  });

  it('10 parallel creates with isDefault: exactly one default', async () => {
    // Free the default first, so that one of the racers can take it.
    const current = defaultSource();
    const cur = (await request(t.http).get(`${BASE}/${current.id}`).set(bearer(t.tokens.writer)).expect(200)).body;
    await request(t.http)
      .put(`${BASE}/${current.id}`)
      .set(bearer(t.tokens.writer))
      .send({
        code: cur.code,
        name: cur.name,
        description: cur.description,
        accountId: cur.accountId,
        sourceType: cur.sourceType,
        isActive: cur.isActive,
        isDefault: false,
      })
      .expect(200);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        request(t.http)
          .post(BASE)
          .set(bearer(t.tokens.writer))
          .send(body({ isDefault: true })),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.code === 'DEFAULT_ALREADY_SET')).toHaveLength(9);
    expect(await t.db.prisma.paymentSource.count({ where: { isDefault: true } })).toBe(1);
  });
});

describe('server paging', () => {
  it('cuts a page at 100 without $top and links to the next one', async () => {
    const total = await count();
    const extra = Math.max(0, 130 - total);
    for (let i = 0; i < extra; i++) {
      await t.services.paymentSources.create(body({ code: `PAGE-${String(i).padStart(3, '0')}` }), {
        userId: WRITER_ID,
        personalData: true,
      });
    }
    const all = await count();
    const first = await request(t.http).get(`${BASE}?$count=true&$orderby=code`).set(bearer(t.tokens.writer)).expect(200);
    expect(first.body.value).toHaveLength(100);
    expect(first.body['@odata.count']).toBe(all);
    const next = new URL(first.body['@odata.nextLink']);
    expect(next.searchParams.get('$skip')).toBe('100');
    expect(next.searchParams.get('$orderby')).toBe('code');
    const second = await request(t.http).get(`${next.pathname}${next.search}`).set(bearer(t.tokens.writer)).expect(200);
    expect(second.body.value).toHaveLength(all - 100);
    expect(second.body['@odata.nextLink']).toBeUndefined();
    const seen = [...first.body.value, ...second.body.value].map((s: { id: string }) => s.id);
    expect(new Set(seen).size).toBe(all);
    // A $top above the page size is answered in one response (the contract changed: it used
    // to be cut at 100 with a link for the rest).
    const chosen = await request(t.http).get(`${BASE}?$top=120&$orderby=code`).set(bearer(t.tokens.writer)).expect(200);
    expect(chosen.body.value).toHaveLength(120);
    expect(chosen.body.value.map((s: { id: string }) => s.id)).toEqual(seen.slice(0, 120));
    expect(chosen.body['@odata.nextLink']).toBeUndefined();
    // A $top within the page size is not cut.
    const small = await request(t.http).get(`${BASE}?$top=100`).set(bearer(t.tokens.writer)).expect(200);
    expect(small.body['@odata.nextLink']).toBeUndefined();
  });
});
