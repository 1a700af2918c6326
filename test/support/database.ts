import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { openDatabase, type Database } from '../../src/db/database';
import type { OnQuery } from '../../src/db/row-reader';
import { createServices, type Services } from '../../src/domain/services';

// Every test runs on a real database: embedded PGlite in memory by default, PostgreSQL
// when DATABASE_URL is set (.ci/run does both). On PostgreSQL each caller gets a fresh
// database of its own, dropped on close, so test files can run in parallel.

export const usingPostgres = (): boolean => Boolean(process.env.DATABASE_URL);

/** The service layer on a test's database, as main.ts builds it. */
export const servicesOf = (db: Database): Services => createServices({ prisma: db.prisma, rows: db.rows });

export interface TestDatabase extends Database {
  /** The postgresql:// URL of this test's own database (PostgreSQL runs only). */
  readonly url: string | undefined;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** `migrate: false` leaves the database empty, for a test that applies the migrations itself. */
export async function createTestDatabase(opts: { onQuery?: OnQuery | undefined; migrate?: boolean } = {}): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const db = await openDatabase({ dataDir: 'memory', onQuery: opts.onQuery, migrate: opts.migrate });
    return Object.assign(db, { url: undefined });
  }
  const name = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(base, name);
  const db = await openDatabase({ url, poolMax: 12, onQuery: opts.onQuery, migrate: opts.migrate });
  const close = db.close.bind(db);
  return Object.assign(db, {
    url,
    async close() {
      await close();
      const c = new Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  });
}

/**
 * A test database and its services for the file's tests (made before them, closed after),
 * for files that need nothing else: `const t = useTestServices();` then `t.db`, `t.s`.
 */
export function useTestServices(): { readonly db: TestDatabase; readonly s: Services } {
  let db: TestDatabase | undefined;
  let s: Services | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    s = servicesOf(db);
  });
  afterAll(() => db?.close());
  const made = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('useTestServices: used before its beforeAll ran');
    return v;
  };
  return {
    get db() {
      return made(db);
    },
    get s() {
      return made(s);
    },
  };
}
