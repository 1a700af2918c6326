import request from 'supertest';
import { createTestApp, type TestApp, bearer } from '../support/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demoData: false, rateLimitPerMinute: 5 });
});
afterAll(async () => {
  await t.close();
});

describe('limits and readiness', () => {
  it('answers 429 RATE_LIMITED with Retry-After past the per-client limit', async () => {
    const auth = bearer(t.tokens.reader);
    const statuses: number[] = [];
    let limited: request.Response | undefined;
    for (let i = 0; i < 7; i++) {
      const res = await request(t.http).get('/api/v1/accounts').set(auth);
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    expect(limited!.body.code).toBe('RATE_LIMITED');
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('/readyz turns 503 when the database is gone; /healthz stays 200', async () => {
    await request(t.http).get('/readyz').expect(200);
    await t.db.close();
    const res = await request(t.http).get('/readyz').expect(503);
    expect(res.body.database).toBe('down');
    await request(t.http).get('/healthz').expect(200);
  });
});
