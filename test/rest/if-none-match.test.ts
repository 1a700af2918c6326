// A REST single-record GET revalidates cheaply: `If-None-Match` naming the record's current
// ETag is answered 304 without a body, and the answer says `private, no-cache` (a browser may
// keep it, and asks again each time). A change of the record answers 200 with the new ETag.

import request from 'supertest';
import { createTestApp, type TestApp, bearer } from '../support/app';
import { fixture } from '../support/fixture';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const get = (path: string, ifNoneMatch?: string) => {
  const req = request(t.http).get(`/api/v1/${path}`).set(bearer(t.tokens.writer));
  return ifNoneMatch === undefined ? req : req.set('If-None-Match', ifNoneMatch);
};

it.each([
  ['accounts', () => fixture.accounts[0]!.id],
  ['customers', () => fixture.customers[0]!.id],
  ['payment-sources', () => fixture.paymentSources[0]!.id],
])('GET /%s/{id}: its ETag back in If-None-Match is 304, with no body', async (set, id) => {
  const first = await get(`${set}/${id()}`).expect(200);
  const etag = first.headers.etag as string;
  expect(etag).toMatch(/^"[^"]+"$/);
  expect(first.headers['cache-control']).toBe('private, no-cache');
  const again = await get(`${set}/${id()}`, etag).expect(304);
  expect(again.text).toBe('');
  expect(again.headers.etag).toBe(etag);
  // Weak comparison, lists and `*`, as RFC 9110 has it for If-None-Match.
  await get(`${set}/${id()}`, `W/${etag}`).expect(304);
  await get(`${set}/${id()}`, `"other", ${etag}`).expect(304);
  await get(`${set}/${id()}`, '*').expect(304);
  await get(`${set}/${id()}`, '"other"').expect(200);
});

it('a changed record answers 200 with its new ETag; the new one is 304 again', async () => {
  const id = fixture.paymentSources[1]!.id;
  const before = (await get(`payment-sources/${id}`).expect(200)).headers.etag as string;
  await request(t.http)
    .patch(`/api/v1/payment-sources/${id}`)
    .set(bearer(t.tokens.writer))
    .send({ description: 'Changed for If-None-Match' })
    .expect(200);
  const after = await get(`payment-sources/${id}`, before).expect(200);
  expect(after.body.description).toBe('Changed for If-None-Match');
  expect(after.headers.etag).not.toBe(before);
  await get(`payment-sources/${id}`, after.headers.etag as string).expect(304);
});

it('$select keeps the record`s ETag (304 while it is unchanged); $expand always answers in full', async () => {
  const article = fixture.articles.find((a) => fixture.articlePrices.some((p) => p.articleId === a.id))!;
  const etag = (await get(`articles/${article.id}`).expect(200)).headers.etag as string;
  await get(`articles/${article.id}?$select=code,name`, etag).expect(304);
  const expanded = await get(`articles/${article.id}?$expand=prices`, etag).expect(200);
  expect(expanded.body.prices.length).toBeGreaterThan(0);
});

it('an unknown id is 404 whatever If-None-Match says', async () => {
  const res = await get('accounts/7e57a7e5-0000-4000-8000-00000000abcd', '*').expect(404);
  expect(res.body.code).toBe('NOT_FOUND');
});
