import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import type { Redis } from 'ioredis';
import { createApp, type App } from '../../src/app';
import { createTokenVerifier } from '../../src/auth/tokens';
import { loadConfig } from '../../src/config/config';
import { databaseFailure } from '../../src/db/errors';
import { connectRedis } from '../../src/http/redis';
import type { Logger } from '../../src/http/logger';
import { TEST_SECRET, token } from '../support/app';
import { createTestDatabase, type TestDatabase, servicesOf } from '../support/database';
import { deleteKeys, REDIS_URL, testKeyPrefix } from '../support/redis';

// Identical instances behind a load balancer share one rate-limit budget per client through
// Redis (127.0.0.1:6379 on every machine here; a key prefix of this run's own, never a
// flush). With Redis unreachable an instance keeps serving with its own count and says so.

const LIMIT = 10;
const prefix = testKeyPrefix('rate');

let db: TestDatabase;
let auth: string;
const clients: Redis[] = [];
const apps: App[] = [];

function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

async function instance(redisUrl: string, logger: Logger): Promise<App> {
  const config = loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: TEST_SECRET,
    RATE_LIMIT_PER_MINUTE: String(LIMIT),
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: prefix,
    DATA_DIR: '/nonexistent',
  });
  // A generous command timeout: this test is about sharing, and a loaded CI machine can
  // stall the event loop past the default (the fallback has a test of its own below).
  const client = connectRedis(redisUrl, logger, { commandTimeoutMs: 10_000 });
  clients.push(client);
  if (redisUrl === REDIS_URL) await new Promise((resolve) => client.once('ready', resolve));
  const app = await createApp({
    config,
    services: servicesOf(db),
    verify: createTokenVerifier({ secret: TEST_SECRET }),
    logger,
    ping: () => db.ping(),
    classifyError: databaseFailure,
    redis: { client, keyPrefix: prefix },
  });
  apps.push(app);
  return app;
}

beforeAll(async () => {
  db = await createTestDatabase();
  auth = `Bearer ${await token('billing.read')}`;
});

afterAll(async () => {
  for (const a of apps) await a.stop();
  await deleteKeys(prefix);
  for (const c of clients) c.disconnect();
  await db.close();
});

it(`two instances with one Redis share one budget of ${LIMIT} exactly`, async () => {
  const { logger, lines } = capturingLogger();
  const a = await instance(REDIS_URL, logger);
  const b = await instance(REDIS_URL, logger);
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) {
    for (const app of [a, b]) statuses.push((await request(app.express).get('/api/v1/tax-codes?$top=1').set('Authorization', auth)).status);
  }
  expect(lines.join('')).not.toContain('Redis unreachable');
  expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
  expect(statuses.filter((s) => s === 429)).toHaveLength(16 - LIMIT);
  // The first LIMIT requests passed, whichever instance took them; every later one was refused.
  expect(statuses.slice(0, LIMIT).every((s) => s === 200)).toBe(true);
  const refused = await request(b.express).get('/api/v1/tax-codes').set('Authorization', auth);
  expect(refused.status).toBe(429);
  expect(refused.body.code).toBe('RATE_LIMITED');
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
});

it('with Redis unreachable, an instance keeps serving with its own limit and logs it', async () => {
  const { logger, lines } = capturingLogger();
  // Nothing listens there: the port belongs to this test's range.
  const lonely = await instance('redis://127.0.0.1:4669', logger);
  const statuses: number[] = [];
  for (let i = 0; i < LIMIT + 2; i++)
    statuses.push((await request(lonely.express).get('/api/v1/tax-codes?$top=1').set('Authorization', auth)).status);
  expect(statuses.slice(0, LIMIT).every((s) => s === 200)).toBe(true);
  expect(statuses.slice(LIMIT)).toEqual([429, 429]);
  expect(lines.join('')).toContain('Redis unreachable, counting in this process');
});
