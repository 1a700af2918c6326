import { randomUUID } from 'node:crypto';
import { signToken } from '../../src/auth/tokens';
import { createTokenVerifier } from '../../src/auth/tokens';
import { loadConfig } from '../../src/config/config';
import { importReferenceData } from '../../src/import/import-service';
import type { Services } from '../../src/domain/services';
import { createApp, type App, type AppDeps } from '../../src/app';
import { createLogger } from '../../src/http/logger';
import { DEMO_DATA_FILE } from '../../src/config/paths';
import { databaseFailure } from '../../src/db/errors';
import type { OnQuery } from '../../src/db/row-reader';
import { createTestDatabase, type TestDatabase, servicesOf } from './database';

export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123456789';
export const READER_ID = '11111111-1111-4111-8111-111111111111';
export const WRITER_ID = '22222222-2222-4222-8222-222222222222';

export interface TestApp {
  readonly app: App;
  /** The Express app, for supertest. */
  readonly http: App['express'];
  readonly db: TestDatabase;
  readonly services: Services;
  /** Tokens: read+write (writer), read only, write only, read+audit (auditor: the change log). */
  readonly tokens: { writer: string; reader: string; writeOnly: string; auditor: string };
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Load prisma/demo/reference-data.json (the shared fixture) first. Default true. */
  readonly demoData?: boolean;
  readonly rateLimitPerMinute?: number;
  /** Told every SQL statement the app sends (Prisma Client's, and the read path's with their values). */
  readonly onQuery?: OnQuery;
  /** GET /metrics; default on (METRICS=off turns it off). */
  readonly metrics?: boolean;
}

export async function token(scope: string, sub = WRITER_ID, extra: { expiresIn?: string | number } = {}): Promise<string> {
  return signToken(TEST_SECRET, { sub, scope, ...extra });
}

/** A real app on a fresh real database (PGlite in memory, or PostgreSQL with DATABASE_URL). */
export async function createTestApp(o: TestAppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase({ onQuery: o.onQuery });
  if (o.demoData !== false) await importReferenceData(db, DEMO_DATA_FILE);
  const services = servicesOf(db);
  const app = await appOn(db, services, {
    RATE_LIMIT_PER_MINUTE: String(o.rateLimitPerMinute ?? 0),
    METRICS: o.metrics === false ? 'off' : 'on',
  });
  // The personal-data scope with every reading token: tests of other rules see whole records;
  // test/personal-data.test.ts holds what a token without it sees.
  const tokens = {
    writer: await token('billing.read billing.write billing.pii', WRITER_ID),
    reader: await token('billing.read billing.pii', READER_ID),
    writeOnly: await token('billing.write', WRITER_ID),
    auditor: await token('billing.read billing.audit billing.pii', READER_ID),
  };
  return {
    app,
    http: app.express,
    db,
    services,
    tokens,
    async close() {
      await app.stop();
      await db.close();
    },
  };
}

function appOn(db: TestDatabase, services: Services, env: Readonly<Record<string, string>>, extra: Partial<AppDeps> = {}): Promise<App> {
  const config = loadConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_SECRET, RATE_LIMIT_PER_MINUTE: '0', DATA_DIR: '/nonexistent', ...env });
  return createApp({
    config,
    services,
    verify: createTokenVerifier({ secret: TEST_SECRET }),
    logger: createLogger('silent'),
    ping: () => db.ping(),
    databases: () => db.health(),
    classifyError: databaseFailure,
    poolStats: () => db.poolStats(),
    ...extra,
  });
}

/**
 * A second app over the same database with other configuration (e.g. NODE_ENV=production,
 * CORS_ORIGINS), as the environment would give it, and other dependencies (`extra`: a Redis
 * connection, a persisted-query store). The caller stops it.
 */
export function createVariantApp(t: TestApp, env: Readonly<Record<string, string>>, extra: Partial<AppDeps> = {}): Promise<App> {
  return appOn(t.db, t.services, env, extra);
}

export const newId = (): string => randomUUID();

/** The Authorization header of a request with this token. */
export const bearer = (token: string): { Authorization: string } => ({ Authorization: `Bearer ${token}` });
