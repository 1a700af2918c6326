import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { Pool } from 'pg';
import { PrismaClient } from '../generated/prisma/client';
import type { PoolStats } from '../http/metrics';
import { applyMigrations, type SqlSession } from './migrate';

// Picks the driver adapter: a postgresql:// URL → PostgreSQL through a pg pool;
// otherwise embedded PGlite (real Postgres compiled to WASM) in <dataDir>/pglite, or in
// memory for tests. Pending migrations are applied when the database is opened.

export type DatabaseKind = 'postgres' | 'pglite';

export interface DatabaseOptions {
  /** postgresql:// URL; absent → embedded PGlite. */
  readonly url?: string | undefined;
  /** Data folder of the embedded database; 'memory' keeps it in memory. */
  readonly dataDir?: string;
  readonly poolMax?: number;
  /** Emit Prisma query events (tests count SQL statements with them). */
  readonly logQueries?: boolean;
  readonly migrate?: boolean;
}

export interface Database {
  readonly kind: DatabaseKind;
  readonly prisma: PrismaClient;
  /** Raw access for migrations and the readiness probe only; domain code uses prisma. */
  readonly session: SqlSession;
  ping(): Promise<void>;
  /** Connection pools and their use, for metrics; the embedded database has none. */
  poolStats(): PoolStats[];
  close(): Promise<void>;
}

type AdapterFactory = NonNullable<NonNullable<ConstructorParameters<typeof PrismaClient>[0]>['adapter']>;

function prismaClient(adapter: AdapterFactory, logQueries: boolean): PrismaClient {
  return new PrismaClient({
    adapter,
    log: logQueries ? [{ emit: 'event', level: 'query' }] : [],
  });
}

async function openPostgres(url: string, opts: DatabaseOptions): Promise<Database> {
  const pool = new Pool({
    connectionString: url,
    max: opts.poolMax ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
  // A dropped server connection surfaces on the pool; readiness reports it, the process lives on.
  pool.on('error', () => undefined);
  const session: SqlSession = {
    async exec(sql) {
      await pool.query(sql);
    },
    async query<T>(sql: string, params?: unknown[]) {
      return (await pool.query(sql, params)).rows as T[];
    },
  };
  let closed = false;
  const prisma = prismaClient(new PrismaPg(pool), opts.logQueries ?? false);
  const db: Database = {
    kind: 'postgres',
    prisma,
    session,
    async ping() {
      await pool.query('SELECT 1');
    },
    poolStats() {
      return [{ pool: 'primary', max: pool.options.max, inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }];
    },
    async close() {
      if (closed) return;
      closed = true;
      await prisma.$disconnect();
      await pool.end();
    },
  };
  if (opts.migrate !== false) {
    // Advisory locks are per connection: migrate on one dedicated client.
    const client = await pool.connect();
    try {
      await applyMigrations({
        async exec(sql) {
          await client.query(sql);
        },
        async query<T>(sql: string, params?: unknown[]) {
          return (await client.query(sql, params)).rows as T[];
        },
      });
    } finally {
      client.release();
    }
  }
  return db;
}

async function openPGlite(opts: DatabaseOptions): Promise<Database> {
  const dir = opts.dataDir ?? './data';
  let pg: PGlite;
  if (dir === 'memory') {
    pg = await PGlite.create();
  } else {
    const target = path.resolve(dir, 'pglite');
    fs.mkdirSync(target, { recursive: true });
    pg = await PGlite.create(target);
  }
  const session: SqlSession = {
    async exec(sql) {
      await pg.exec(sql);
    },
    async query<T>(sql: string, params?: unknown[]) {
      return (await pg.query<T>(sql, params)).rows;
    },
  };
  if (opts.migrate !== false) await applyMigrations(session);
  const prisma = prismaClient(
    // pglite-prisma-adapter is typed against an older @prisma/driver-adapter-utils;
    // the interface it implements is the same at run time (see PRISMA-OFFLINE.md).
    new PrismaPGlite(pg) as unknown as AdapterFactory,
    opts.logQueries ?? false,
  );
  let closed = false;
  return {
    kind: 'pglite',
    prisma,
    session,
    async ping() {
      if (pg.closed) throw new Error('the embedded database is closed');
      await pg.query('SELECT 1');
    },
    poolStats() {
      return [];
    },
    async close() {
      if (closed) return;
      closed = true;
      await prisma.$disconnect();
      // PGlite keeps the process alive until it is closed.
      await pg.close();
    },
  };
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  return opts.url ? openPostgres(opts.url, opts) : openPGlite(opts);
}
