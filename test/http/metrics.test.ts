import request from 'supertest';
import { createTestApp, type TestApp, bearer } from '../support/app';
import { usingPostgres } from '../support/database';
import { gqlRequest } from '../support/graphql';

// GET /metrics: Prometheus text, no token; labels are route templates and GraphQL operation
// names, never ids, query strings, user ids or tokens.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimitPerMinute: 30 });
});
afterAll(async () => {
  await t.close();
});

const scrape = async () => {
  const res = await request(t.http).get('/metrics').expect(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text;
};
/** The value of one sample line, e.g. `name{a="b"} 3`. */
const sample = (text: string, name: string, labels: Record<string, string>): number | undefined => {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const [, body, value] = /^[^{]+\{(.*)\} (\S+)$/.exec(line) ?? [];
    if (body !== undefined && Object.entries(labels).every(([k, v]) => body.includes(`${k}="${v}"`))) return Number(value);
  }
  return undefined;
};

describe('/metrics', () => {
  it('times REST requests by door and route template, never by id or query', async () => {
    const auth = bearer(t.tokens.reader);
    const list = await request(t.http).get('/api/v1/payment-sources?$filter=isActive eq true').set(auth).expect(200);
    const id = list.body.value[0].id as string;
    await request(t.http).get(`/api/v1/payment-sources/${id}`).set(auth).expect(200);
    await request(t.http).get('/api/v1/payment-sources/00000000-0000-4000-8000-00000000beef').set(auth).expect(404);
    await request(t.http).get('/api/v1/payment-sources/not-a-uuid').set(auth).expect(400);

    const text = await scrape();
    const byId = { door: 'rest', method: 'GET', route: '/api/v1/payment-sources/:id' };
    expect(sample(text, 'http_request_duration_seconds_count', { ...byId, status: '200' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { ...byId, status: '404' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { ...byId, status: '400' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_bucket', { ...byId, status: '200', le: '+Inf' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { door: 'rest', route: '/api/v1/payment-sources', status: '200' })).toBe(1);
    expect(text).not.toContain(id);
    expect(text).not.toContain('beef');
    expect(text).not.toContain('not-a-uuid');
    expect(text).not.toContain('isActive');
  });

  it('counts GraphQL requests under their door and operations by name', async () => {
    const gql = (query: string, operationName?: string) => gqlRequest(t.http, { query, operationName }, t.tokens.reader);
    await gql('query SourcesForDashboard { paymentSources(first: 2) { totalCount } }').expect(200);
    await gql('query SourcesForDashboard { paymentSources(first: 2) { totalCount } }').expect(200);
    await gql('{ accounts { totalCount } }').expect(200);
    await gql('query Broken { noSuchField }').expect(400);

    const text = await scrape();
    expect(
      sample(text, 'graphql_operation_duration_seconds_count', { operation: 'SourcesForDashboard', type: 'query', outcome: 'ok' }),
    ).toBe(2);
    expect(sample(text, 'graphql_operation_duration_seconds_count', { operation: '(anonymous)', type: 'query', outcome: 'ok' })).toBe(1);
    expect(sample(text, 'graphql_operation_duration_seconds_count', { operation: '(unmatched)', outcome: 'error' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { door: 'graphql', method: 'POST', route: '/graphql', status: '200' })).toBe(
      3,
    );
    expect(text).not.toContain('Broken'); // a document that did not validate names nothing
  });

  it('counts rate-limit refusals by door', async () => {
    let limited = 0;
    for (let i = 0; i < 40 && limited < 2; i++) {
      const res = await request(t.http).get('/api/v1/accounts').set(bearer(t.tokens.reader));
      if (res.status === 429) limited++;
    }
    expect(limited).toBe(2);
    const text = await scrape(); // no token, and not rate limited itself
    expect(sample(text, 'http_rate_limited_total', { door: 'rest' })).toBe(2);
  });

  it('shows process metrics and the database pool, and no token or user id', async () => {
    const text = await scrape();
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    if (usingPostgres()) {
      expect(sample(text, 'db_pool_connections_max', { pool: 'primary' })).toBe(12);
      expect(sample(text, 'db_pool_connections_idle', { pool: 'primary' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'db_pool_connections_in_use', { pool: 'primary' })).toBe(0);
      expect(sample(text, 'db_pool_waiting_requests', { pool: 'primary' })).toBe(0);
      // The change relay's own pool (src/db/database.ts BACKGROUND_POOL).
      expect(sample(text, 'db_pool_connections_max', { pool: 'background' })).toBe(2);
    } else {
      expect(text).not.toContain('db_pool_connections_in_use{'); // the embedded database has no pool
    }
    for (const secret of [t.tokens.reader, t.tokens.writer.split('.')[1]!]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/11111111-1111-4111-8111-111111111111|22222222-2222-4222-8222-222222222222/);
  });
});

describe('METRICS=off', () => {
  it('has no /metrics', async () => {
    const off = await createTestApp({ demoData: false, metrics: false });
    try {
      const res = await request(off.http).get('/metrics').expect(404);
      expect(res.body.code).toBe('NOT_FOUND');
    } finally {
      await off.close();
    }
  });
});
