import request from 'supertest';
import { createTestApp, type TestApp, bearer } from '../support/app';
import { fixture, idsOf } from '../support/fixture';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

// What the API must answer for a fixture record: the same fields and values, with decimals
// as numbers and date-times in ISO 8601 UTC with milliseconds.
const iso = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? new Date(v).toISOString() : v);
const normalise = (r: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(r).map(([k, v]) => [k, Array.isArray(v) ? v.map((x) => normalise(x as Record<string, unknown>)) : iso(v)]),
  );

const collections = [
  ['accounts', fixture.accounts],
  ['articles', fixture.articles],
  ['tax-codes', fixture.taxCodes],
  ['academic-terms', fixture.academicTerms],
  ['customers', fixture.customers],
] as const;

describe.each(collections)('GET /%s', (path, rows) => {
  it('lists every record, exactly as the spec shapes it', async () => {
    const res = await request(t.http).get(`/api/v1/${path}?$count=true&$top=1000`).set(bearer(t.tokens.reader)).expect(200);
    expect(res.body['@odata.count']).toBe(rows.length);
    expect(idsOf(res.body.value)).toEqual(idsOf([...rows]));
    for (const rec of res.body.value as Array<Record<string, unknown>>) {
      // Exactly its fields: OData's control information (@odata.etag) is for OData clients (test/rest/odata/interop.test.ts).
      const expected: Record<string, unknown> = normalise(rows.find((r) => r.id === rec.id) as Record<string, unknown>);
      if (path === 'customers') {
        const addrs = rec.addresses as Array<{ id: string }>;
        expect(idsOf(addrs)).toEqual(idsOf(expected.addresses as Array<{ id: string }>));
        expect({ ...rec, addresses: idsOf(addrs) }).toEqual({ ...expected, addresses: idsOf(expected.addresses as Array<{ id: string }>) });
      } else {
        expect(rec).toEqual(expected);
      }
    }
  });

  it('gets one by id with an ETag, 404s an unknown id', async () => {
    const first = rows[0]!;
    const res = await request(t.http).get(`/api/v1/${path}/${first.id}`).set(bearer(t.tokens.reader)).expect(200);
    expect(res.body.id).toBe(first.id);
    expect(res.headers.etag).toBeTruthy();
    expect(res.body).not.toHaveProperty('@odata.etag');
    const nf = await request(t.http).get(`/api/v1/${path}/00000000-0000-4000-8000-00000000abcd`).set(bearer(t.tokens.reader)).expect(404);
    expect(nf.body.code).toBe('NOT_FOUND');
    await request(t.http).get(`/api/v1/${path}/xyz`).set(bearer(t.tokens.reader)).expect(400);
  });
});

describe('OData on the read-only collections', () => {
  it('filters customers by name, case-sensitively unless tolower is used', async () => {
    const cases: Array<[string, (c: (typeof fixture.customers)[number]) => boolean]> = [
      ["startswith(lastName,'M')", (c) => c.lastName.startsWith('M')],
      ["startswith(lastName,'m')", (c) => c.lastName.startsWith('m')],
      ["startswith(tolower(lastName),'m')", (c) => c.lastName.toLowerCase().startsWith('m')],
      ["endswith(email,'.example')", (c) => String(c.email).endsWith('.example')],
      ['creditorNumber ne null', (c) => c.creditorNumber !== null],
      ["lastName ge 'M' and lastName lt 'S'", (c) => c.lastName >= 'M' && c.lastName < 'S'],
    ];
    for (const [f, pred] of cases) {
      const res = await request(t.http).get('/api/v1/customers').query({ $filter: f, $top: 1000 }).set(bearer(t.tokens.reader)).expect(200);
      expect({ f, ids: idsOf(res.body.value) }).toEqual({ f, ids: idsOf(fixture.customers.filter(pred)) });
    }
  });

  it('compares decimals, dates and enums', async () => {
    const rate = await request(t.http).get('/api/v1/tax-codes').query({ $filter: 'rate gt 7.5' }).set(bearer(t.tokens.reader)).expect(200);
    expect(idsOf(rate.body.value)).toEqual(idsOf(fixture.taxCodes.filter((c) => Number(c.rate) > 7.5)));
    const since = await request(t.http)
      .get('/api/v1/tax-codes')
      .query({ $filter: 'validFrom ge 2017-01-01' })
      .set(bearer(t.tokens.reader))
      .expect(200);
    expect(idsOf(since.body.value)).toEqual(idsOf(fixture.taxCodes.filter((c) => String(c.validFrom) >= '2017-01-01')));
    const vat = await request(t.http)
      .get('/api/v1/tax-codes')
      .query({ $filter: "taxType eq 'Sales Tax'" })
      .set(bearer(t.tokens.reader))
      .expect(200);
    expect(idsOf(vat.body.value)).toEqual(idsOf(fixture.taxCodes.filter((c) => c.taxType === 'Sales Tax')));
    const assets = await request(t.http)
      .get('/api/v1/accounts')
      .query({ $filter: "type eq 'Asset' and isActive eq true", $orderby: 'code desc' })
      .set(bearer(t.tokens.reader))
      .expect(200);
    expect(assets.body.value.map((a: { id: string }) => a.id)).toEqual(
      fixture.accounts
        .filter((a) => a.type === 'Asset' && a.isActive)
        .sort((a, b) => b.code.localeCompare(a.code))
        .map((a) => a.id),
    );
    const bad = await request(t.http).get('/api/v1/accounts').query({ $filter: "type eq 'Cash'" }).set(bearer(t.tokens.reader)).expect(400);
    expect(bad.body.code).toBe('INVALID_QUERY');
  });
});

describe('GET /article-prices?articleId=', () => {
  it('answers a bare array of the article prices, newest validFrom first', async () => {
    const article = fixture.articles.find((a) => fixture.articlePrices.filter((p) => p.articleId === a.id).length > 1)!;
    const res = await request(t.http)
      .get('/api/v1/article-prices')
      .query({ articleId: article.id })
      .set(bearer(t.tokens.reader))
      .expect(200);
    const expected = fixture.articlePrices
      .filter((p) => p.articleId === article.id)
      .sort((a, b) => Date.parse(b.validFrom) - Date.parse(a.validFrom))
      .map((p) => ({ ...p, validFrom: new Date(p.validFrom).toISOString() }));
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toEqual(expected);
  });
  it('400 for a missing or malformed articleId, 404 for an unknown article', async () => {
    const missing = await request(t.http).get('/api/v1/article-prices').set(bearer(t.tokens.reader)).expect(400);
    expect(missing.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'articleId' }] });
    const bad = await request(t.http).get('/api/v1/article-prices?articleId=42').set(bearer(t.tokens.reader)).expect(400);
    expect(bad.body.errors[0].field).toBe('articleId');
    const nf = await request(t.http)
      .get('/api/v1/article-prices?articleId=00000000-0000-4000-8000-00000000beef')
      .set(bearer(t.tokens.reader))
      .expect(404);
    expect(nf.body.code).toBe('NOT_FOUND');
  });
});

describe('the rest of the door', () => {
  it('answers an unknown path with 404 problem+json', async () => {
    const res = await request(t.http).get('/api/v1/nothing-here').set(bearer(t.tokens.reader)).expect(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });
  it('sets security headers and a request id', async () => {
    const res = await request(t.http).get('/api/v1/accounts').set(bearer(t.tokens.reader)).set('X-Request-Id', 'abc-123').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toBe('abc-123');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
  it('publishes an OpenAPI 3.1 document naming every path', async () => {
    const doc = (await request(t.http).get('/api/v1/openapi.json').expect(200)).body;
    for (const p of [
      '/payment-sources',
      '/payment-sources/{id}',
      '/payments',
      '/payments/{id}',
      '/accounts',
      '/articles',
      '/articles/{id}',
      '/article-prices',
      '/customers',
      '/customers/{id}',
      '/tax-codes',
      '/tax-codes/{id}',
      '/academic-terms',
      '/academic-terms/{id}',
    ]) {
      expect(doc.paths).toHaveProperty([p]);
    }
    expect(doc.components.schemas.PaymentSourceInput.required).toEqual(expect.arrayContaining(['code', 'name', 'accountId', 'sourceType']));
    expect(doc.components.schemas.PaymentSourceInput.additionalProperties).toBe(false);
  });
});
