// One test per point measured against the service before the OData work (issue "REST door
// speaks OData 4.01"): each failed on the service as it was and passes now. The OASIS corpus
// and the client libraries have files of their own (oasis-abnf.test.ts, clients.test.ts).
import request from 'supertest';
import { createTestApp, WRITER_ID, type TestApp, bearer } from '../../support/app';
import { activeAssetAccount, fixture } from '../../support/fixture';

const BASE = '/api/v1/payment-sources';
let t: TestApp;
/** GET with the query written exactly as given (no encoding added, a raw `+` stays a `+`). */
const get = (pathAndQuery: string) => request(t.http).get(pathAndQuery).set(bearer(t.tokens.writer));
const enc = encodeURIComponent;

const source = (over: Record<string, unknown>) => ({
  code: `M-${Math.random().toString(36).slice(2, 10)}`,
  name: 'Measured',
  accountId: activeAssetAccount().id,
  sourceType: 'Other',
  ...over,
});

beforeAll(async () => {
  t = await createTestApp();
  // 130 more payment sources: enough for paging, one with a `+` in its name.
  for (let i = 0; i < 130; i++) {
    await t.services.paymentSources.create(source({ code: `MEAS-${String(i).padStart(3, '0')}`, description: i % 2 ? null : `d${i}` }), {
      userId: WRITER_ID,
      personalData: true,
    });
  }
  await t.services.paymentSources.create(source({ code: 'PLUS', name: 'Cash+Card' }), { userId: WRITER_ID, personalData: true });
});
afterAll(async () => {
  await t.close();
});

const total = () => t.db.prisma.paymentSource.count();

describe('grammar edge cases OData 4.01 allows', () => {
  test.each([
    ['a leading +', "$filter=code eq 'PLUS' and 1 eq %2B1"],
    ['an exponent', "$filter=code eq 'PLUS' and 1e2 eq 100"],
    ['INF and NaN', "$filter=code eq 'PLUS' and 1 lt INF and -INF lt 1 and NaN ne NaN"],
    ['a negative year', "$filter=code eq 'PLUS' and createdAt gt -0001-01-01"],
    ['year zero', "$filter=code eq 'PLUS' and createdAt gt 0000-01-01T00:00Z"],
    ['a five-digit year', "$filter=code eq 'PLUS' and createdAt lt 10000-01-01"],
    ['a leap second', "$filter=code eq 'PLUS' and createdAt gt 1972-06-30T23:59:60Z"],
    ['true eq false, negated', "$filter=code eq 'PLUS' and not (true eq false)"],
    ['name in (name)', "$filter=code eq 'PLUS' and name in (name)"],
    ['an option without $', "filter=code eq 'PLUS'"],
    ['an option in another case', "$FILTER=code eq 'PLUS'"],
  ])('%s', async (_what, query) => {
    const [name, value] = query.split(/=(.*)/s) as [string, string];
    const res = await get(`${BASE}?${name}=${value.replace(/ /g, '%20').replace(/'/g, '%27')}`).expect(200);
    expect(res.body.value.map((s: { code: string }) => s.code)).toEqual(['PLUS']);
  });

  test('true eq false matches nothing; an exponent is exact', async () => {
    expect((await get(`${BASE}?$filter=${enc('true eq false')}`).expect(200)).body.value).toEqual([]);
    const res = await get(`/api/v1/tax-codes?$filter=${enc('rate eq 1.9e1')}`).expect(200);
    const expected = fixture.taxCodes
      .filter((c) => Number(c.rate) === 19)
      .map((c) => c.id)
      .sort();
    expect(res.body.value.map((c: { id: string }) => c.id).sort()).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
  });
});

describe('null ordering', () => {
  test('nulls first ascending, last descending', async () => {
    const all = await total();
    const asc = (await get(`${BASE}?$orderby=description&$top=1000`).expect(200)).body.value as { description: string | null }[];
    const desc = (await get(`${BASE}?$orderby=${enc('description desc')}&$top=1000`).expect(200)).body.value as {
      description: string | null;
    }[];
    const nulls = asc.filter((s) => s.description === null).length;
    expect(asc).toHaveLength(all);
    expect(nulls).toBeGreaterThan(0);
    expect(asc.slice(0, nulls).every((s) => s.description === null)).toBe(true);
    expect(desc.slice(all - nulls).every((s) => s.description === null)).toBe(true);
  });
});

test("`not code in ('A','B')` is not (code in ('A','B'))", async () => {
  const res = await get(`${BASE}?$filter=${enc("not code in ('PLUS','MEAS-000')")}&$top=1000`).expect(200);
  const codes = res.body.value.map((s: { code: string }) => s.code);
  expect(codes).toHaveLength((await total()) - 2);
  expect(codes).not.toContain('PLUS');
});

describe('options without $, in any case', () => {
  test('filter=isActive eq false filters', async () => {
    const res = await get(`${BASE}?filter=${enc('isActive eq false')}`).expect(200);
    const inactive = fixture.paymentSources
      .filter((s) => !s.isActive)
      .map((s) => s.id)
      .sort();
    expect(res.body.value.map((s: { id: string }) => s.id).sort()).toEqual(inactive);
  });

  test('expand=Foo names an unknown relation: 400', async () => {
    const res = await get(`${BASE}?expand=Foo`).expect(400);
    expect(res.body.code).toBe('INVALID_QUERY');
    expect(res.body.detail).toContain("unknown relation 'Foo'");
  });

  test('the same option in two spellings, or an unsupported one, is 400', async () => {
    await get(`${BASE}?top=1&$TOP=2`).expect(400);
    await get(`${BASE}?search=x`).expect(400);
    await get(`${BASE}?sap-client=100`).expect(200);
  });
});

describe('paging and nextLink', () => {
  test('$Top=150 is answered in one response, without a link', async () => {
    const res = await get(`${BASE}?$Top=150&$orderby=code`).expect(200);
    expect(res.body.value).toHaveLength(Math.min(150, await total()));
    expect(res.body['@odata.nextLink']).toBeUndefined();
  });

  test.each(['$Skip=0', 'skip=0', 'SKIP=0'])('a nextLink after %s carries one skip and works when followed', async (skip) => {
    const first = await get(`${BASE}?${skip}&$orderby=code`).expect(200);
    const link = new URL(first.body['@odata.nextLink']);
    expect(link.search.match(/skip=/gi)).toHaveLength(1);
    const second = await get(`${link.pathname}${link.search}`).expect(200);
    expect(second.body.value).toHaveLength((await total()) - 100);
  });

  test('a legacy client asking for $top=500 gets every record in one response', async () => {
    const res = await get(`${BASE}?$top=500`).expect(200);
    expect(res.body.value).toHaveLength(Math.min(500, await total()));
    expect(res.body.value.length).toBeGreaterThan(100);
    expect(res.body['@odata.nextLink']).toBeUndefined();
  });
});

test('a raw + in the query string is a plus sign', async () => {
  const res = await get(`${BASE}?$filter=contains(name,'+')`).expect(200);
  expect(res.body.value.map((s: { code: string }) => s.code)).toEqual(['PLUS']);
});

test('a $filter with an in list of 100 GUIDs is accepted; the limit is 8,000 characters', async () => {
  const ids = (await t.db.prisma.paymentSource.findMany({ select: { id: true }, take: 100, orderBy: { id: 'asc' } })).map((r) => r.id);
  const filter = `id in (${ids.join(', ')})`;
  expect(filter.length).toBeGreaterThan(2000);
  const res = await get(`${BASE}?$filter=${enc(filter)}&$top=1000`).expect(200);
  expect(res.body.value).toHaveLength(100);
  const long = `code eq '${'x'.repeat(8000)}'`;
  const refused = await get(`${BASE}?$filter=${enc(long)}`).expect(400);
  expect(refused.body.detail).toContain('longer than 8000 characters');
});
