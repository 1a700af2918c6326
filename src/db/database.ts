import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { Client, Pool, type PoolConfig, type QueryResultRow } from 'pg';
import type { Config } from '../config/config';
import { PrismaClient } from './__generated__/prisma/client';
import { lockDataDir, type DataDirLock } from './data-dir-lock';
import { connectFailure, isDatabaseUnavailable } from './errors';
import { PGLITE_EXTENSIONS } from './pglite-extensions';
import { applyMigrations, type SqlSession } from './migrate';
import { transactionPool } from './pooler';
import { guardCheckouts } from './read-timeout';
import { hearTransactions } from './prisma-internals';
import { ReplicaReadsPrismaPg, ReplicaSet, routeReads, type ReplicaHealth } from './replicas';
import { loadSortIndexes, type SortIndexes } from './read/indexes';
import { adapterReader, routedReader, type OnQuery, type RowReader } from './row-reader';
import { claimTransaction, unitAware } from './unit-of-work';
import { listenPostgres, openLockSession, postgresLocks, sessionUrl, withRootCert, type HeldLock, type LockSession } from './session';

// Picks the driver adapter: a postgresql:// URL → PostgreSQL through a pg pool;
// otherwise embedded PGlite (real Postgres compiled to WASM) in <dataDir>/pglite, or in
// memory for tests. Pending migrations are applied when the database is opened.

export type DatabaseKind = 'postgres' | 'pglite';

export interface DatabaseOptions {
  /** postgresql:// URL; absent → embedded PGlite. */
  readonly url?: string | undefined;
  /** PostgreSQL: a URL past a transaction-mode pooler, for migrations and advisory locks (./session.ts). */
  readonly directUrl?: string | undefined;
  /**
   * PostgreSQL: 'transaction' when `url` is a transaction-mode pooler: no startup parameters,
   * the time limits per transaction (./pooler.ts). Default 'none'.
   */
  readonly pooler?: 'none' | 'transaction';
  /** PostgreSQL: name the statements Prisma sends (statementNames); default: only without a pooler. */
  readonly namedStatements?: boolean;
  /** PostgreSQL: CA file for URLs that name no sslrootcert (PGSSLROOTCERT). */
  readonly tlsRootCertFile?: string | undefined;
  /** Data folder of the embedded database; 'memory' keeps it in memory. */
  readonly dataDir?: string;
  readonly poolMax?: number;
  /** Told every SQL statement sent, through Prisma Client or a RowReader (tests count them). */
  readonly onQuery?: OnQuery;
  readonly migrate?: boolean;
  /**
   * PostgreSQL: time limit of one statement (server-side statement_timeout, and a client-side
   * limit a little later for a server that stalls, ./read-timeout.ts). Absent: no limit (the import).
   */
  readonly statementTimeoutMs?: number;
  /** PostgreSQL: longest wait for a pool connection (default 5 s). */
  readonly connectTimeoutMs?: number;
  /** PostgreSQL: how long opening waits for a server that is not up yet (default 0: fail at once). */
  readonly startupTimeoutMs?: number;
  /** Told about each failed attempt while waiting for the server (for the log). */
  readonly onWait?: (info: { attempt: number; retryInMs: number; reason: string }) => void;
  /** postgresql:// URLs of streaming replicas for reads (see ./replicas.ts). */
  readonly replicaUrls?: readonly string[];
  /** A replica further behind than this is skipped (default 2 s). */
  readonly replicaMaxLagMs?: number;
  /**
   * Whether the statement being sent may be answered by a replica (the request's read scope,
   * src/http/read-scope.ts); default never.
   */
  readonly replicaReadsAllowed?: () => boolean;
  /** Told when a replica goes up, down or lagging (for the log). */
  readonly onReplicaChange?: (health: ReplicaHealth) => void;
  /** Who opens an embedded database on disk ("service", "import"): named in the data folder's lock. */
  readonly role?: string;
}

/** The configured database and how to reach it: what the service and the import open alike. */
export function configuredDatabase(
  d: Config['database'],
): Pick<DatabaseOptions, 'url' | 'directUrl' | 'pooler' | 'namedStatements' | 'tlsRootCertFile' | 'dataDir'> {
  return {
    url: d.url,
    directUrl: d.directUrl,
    pooler: d.pooler,
    namedStatements: d.namedStatements,
    tlsRootCertFile: d.tlsRootCertFile,
    dataDir: d.dataDir,
  };
}

/** One database as /readyz reports it. */
export type DatabaseHealth = { readonly name: 'primary'; readonly role: 'primary'; readonly state: 'up' | 'down' } | ReplicaHealth;

/** Connections of one pool: in use, idle, and callers waiting for one. */
export interface PoolFigures {
  readonly name: string;
  readonly inUse: number;
  readonly idle: number;
  readonly waiting: number;
  readonly max: number;
}

export interface Database {
  readonly kind: DatabaseKind;
  readonly prisma: PrismaClient;
  /** The hot list pages' statements, through the same driver adapter and read routing as prisma (./row-reader.ts). */
  readonly rows: RowReader;
  /**
   * The same clients over a small pool of their own (PostgreSQL; the embedded database's one
   * connection otherwise), for the service's background work, the change relay: its reads
   * and saves never queue behind requests waiting for the request pool.
   */
  readonly background: { readonly prisma: PrismaClient; readonly rows: RowReader };
  /** How the statement and idle-in-transaction limits reach the server (see TimeLimits). */
  readonly timeLimits: TimeLimits;
  /** Raw access for migrations and the readiness probe only; domain code uses prisma. */
  readonly session: SqlSession;
  /**
   * A session of its own for session-level advisory locks (the change-log relay's, like the
   * migration runner's): on PostgreSQL a new connection to DATABASE_DIRECT_URL when set
   * (past a transaction-mode pooler), else to DATABASE_URL; on the embedded database its
   * one connection (close() then leaves it open). Close it when done; locks go with it.
   */
  lockSession(): Promise<LockSession>;
  ping(): Promise<void>;
  /** Each database: the primary (asked now) and every replica (as last measured). */
  health(): Promise<DatabaseHealth[]>;
  /** Pool figures per database (PostgreSQL; empty for the embedded database). */
  poolStats(): PoolFigures[];
  /**
   * Calls onNotify on every NOTIFY on `channel` (after the sending transaction commits), and
   * after a lost LISTEN connection is back; resolves to a function that stops listening.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  /**
   * A session-level advisory lock on `key`, or undefined while another session holds it. The
   * embedded database belongs to one process, so there it is always granted.
   */
  tryLock(key: bigint): Promise<HeldLock | undefined>;
  close(): Promise<void>;
}

type AdapterFactory = NonNullable<NonNullable<ConstructorParameters<typeof PrismaClient>[0]>['adapter']>;

function prismaClient(adapter: AdapterFactory, onQuery: OnQuery | undefined): PrismaClient {
  if (!onQuery) return new PrismaClient({ adapter });
  const client = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  client.$on('query', (e) => onQuery(e.query));
  return client;
}

/** Most distinct statements each connection keeps prepared; the rest are parsed and planned per use. */
const MAX_PREPARED = 300;
const LIKE = /\bI?LIKE\b/i;

/**
 * Names for the statements Prisma sends, so that each pooled connection parses and plans a
 * statement once and afterwards only binds and executes it (a list page's planning cost
 * about as much PostgreSQL CPU as its execution). The same SQL text always gets the same
 * name. Filters can produce many distinct texts (an `in` list of each length), so only the
 * first MAX_PREPARED texts are named; an empty name is node-postgres's unnamed statement.
 * Statements with LIKE stay unnamed: after a few executions PostgreSQL may switch a
 * prepared statement to a generic plan, and only a plan made for the actual pattern turns
 * `LIKE 'M%'` into an index range.
 */
export function statementNames(max = MAX_PREPARED): (query: { readonly sql: string }) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    let name = names.get(sql);
    if (name === undefined) {
      if (names.size >= max || LIKE.test(sql)) return '';
      names.set(sql, (name = `prisma_${names.size}`));
    }
    return name;
  };
}

/** Session settings as startup parameters: cheapest, but a transaction-mode pooler refuses them. */
function startupParameters(opts: DatabaseOptions): Pick<PoolConfig, 'statement_timeout' | 'idle_in_transaction_session_timeout'> {
  const timeout = opts.statementTimeoutMs;
  if (!timeout || opts.pooler === 'transaction') return {};
  return { statement_timeout: timeout, idle_in_transaction_session_timeout: timeout * 2 };
}

function poolConfig(url: string, opts: DatabaseOptions): PoolConfig {
  return {
    connectionString: withRootCert(url, opts.tlsRootCertFile),
    max: opts.poolMax ?? 10,
    idleTimeoutMillis: 30_000,
    // Acquisition is bounded: with the server gone, a request fails (503) instead of queueing.
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5_000,
    // A dead peer (cable, frozen VM) is noticed by the kernel, not only at the next query.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...startupParameters(opts),
  };
}

/**
 * How the time limits reach the server: as startup parameters of each session; per
 * transaction as SET LOCAL (behind a transaction-mode pooler, ./pooler.ts); by the server's own
 * defaults for every session (a role's or database's setting, a pooler's connect_query) when
 * those are already as strict, so the service sends nothing; or not at all (no limit set, or
 * the embedded database).
 */
export type TimeLimits = 'startup' | 'transaction' | 'server' | 'none';

/** The limits a session gets from the server when it asks for none, in ms (0: no limit). */
interface ServerDefaults {
  readonly statementTimeoutMs: number;
  readonly idleInTransactionMs: number;
}

/** Whether the server's defaults are at least as strict as the service's limits: then it need not send them. */
const serverEnforces = (d: ServerDefaults | undefined, timeoutMs: number): boolean =>
  d !== undefined &&
  d.statementTimeoutMs > 0 &&
  d.statementTimeoutMs <= timeoutMs &&
  d.idleInTransactionMs > 0 &&
  d.idleInTransactionMs <= timeoutMs * 2;

function timeLimits(opts: DatabaseOptions, defaults: ServerDefaults | undefined): TimeLimits {
  const timeout = opts.statementTimeoutMs ?? 0;
  if (opts.pooler !== 'transaction') return timeout ? 'startup' : 'none';
  if (timeout && serverEnforces(defaults, timeout)) return 'server';
  // A caller that wants no limits (the import) lifts the server's defaults in its transactions.
  const serverLimits = (defaults?.statementTimeoutMs ?? 0) > 0 || (defaults?.idleInTransactionMs ?? 0) > 0;
  return timeout || serverLimits ? 'transaction' : 'none';
}

function newPool(url: string, opts: DatabaseOptions, limits: TimeLimits): Pool {
  const config = poolConfig(url, opts);
  const timeout = opts.statementTimeoutMs ?? 0;
  const pool =
    limits === 'transaction'
      ? transactionPool(config, { statementTimeoutMs: timeout, idleInTransactionMs: timeout * 2 })
      : new Pool(config);
  // A dropped server connection surfaces on the pool; readiness reports it, the process lives on.
  pool.on('error', () => undefined);
  return pool;
}

function poolFigures(name: string, pool: Pool, max: number): PoolFigures {
  return { name, inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount, max };
}

/**
 * Waits for the server with capped exponential backoff, up to startupTimeoutMs, connecting
 * as the pool will (TLS, startup parameters), so that what retrying cannot mend (a
 * certificate that does not verify, a pooler refusing the parameters) stops start-up at
 * once with a message saying so.
 */
async function waitForServer(url: string, opts: DatabaseOptions): Promise<ServerDefaults> {
  const deadline = Date.now() + (opts.startupTimeoutMs ?? 0);
  const config = poolConfig(url, opts);
  for (let attempt = 1; ; attempt++) {
    let c: Client | undefined;
    try {
      c = new Client({
        connectionString: config.connectionString,
        connectionTimeoutMillis: opts.connectTimeoutMs ?? 5_000,
        ...startupParameters(opts),
      });
      c.on('error', () => undefined);
      await c.connect();
      // In ms, whatever unit they were set in; asked with the startup parameters the pool
      // sends, so behind a pooler this is what its server connections give every session.
      const r = await c.query<{ name: string; setting: string }>(
        "SELECT name, setting FROM pg_settings WHERE name IN ('statement_timeout', 'idle_in_transaction_session_timeout')",
      );
      const ms = (name: string) => Number(r.rows.find((row) => row.name === name)?.setting ?? 0);
      return { statementTimeoutMs: ms('statement_timeout'), idleInTransactionMs: ms('idle_in_transaction_session_timeout') };
    } catch (e) {
      const fatal = connectFailure(e, url);
      if (fatal) throw fatal;
      const retryInMs = Math.min(250 * 2 ** (attempt - 1), 5_000);
      if (!isDatabaseUnavailable(e) || Date.now() + retryInMs > deadline) throw e;
      opts.onWait?.({ attempt, retryInMs, reason: e instanceof Error ? e.message : String(e) });
      await new Promise((r) => setTimeout(r, retryInMs));
    } finally {
      await c?.end().catch(() => undefined);
    }
  }
}

/** A database's close(): once, whoever calls it first (main.ts and App.stop() both do). */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}

/** Connections of the background pool: the relay reads, then publishes, then saves, one at a time; /readyz asks its backlog beside. */
const BACKGROUND_POOL = 2;

/** The pools of the primary, of background work and of the replicas, with the guards that give up on a stalled server. */
function openPools(url: string, opts: DatabaseOptions, limits: TimeLimits) {
  const pool = newPool(url, opts, limits);
  const backgroundPool = newPool(url, { ...opts, poolMax: BACKGROUND_POOL }, limits);
  // Replicas are other servers (another pooler, maybe): they carry the limits themselves.
  const replicaPools = (opts.replicaUrls ?? []).map((u) => newPool(u, opts, limits === 'server' ? 'transaction' : limits));
  // A stalled server never cancels anything: the client gives up a little later.
  const timeout = opts.statementTimeoutMs;
  const stopGuards = timeout ? [pool, backgroundPool, ...replicaPools].map((p) => guardCheckouts(p, timeout)) : [];
  const replicas =
    replicaPools.length > 0
      ? new ReplicaSet(replicaPools, { maxLagMs: opts.replicaMaxLagMs ?? 2_000, onStateChange: opts.onReplicaChange })
      : undefined;
  return { pool, backgroundPool, replicaPools, replicas, stopGuards };
}

/** Applies pending migrations on a session of its own (advisory locks are per session), past any pooler. */
async function migrateOn(open: () => Promise<LockSession>): Promise<void> {
  const migrating = await open();
  try {
    // Whatever the server gives a session by default: an index on a large table may take minutes.
    await migrating.exec('SET statement_timeout = 0; SET idle_in_transaction_session_timeout = 0');
    await applyMigrations(migrating);
  } finally {
    await migrating.close();
  }
}

/**
 * Prisma Client and the row reader over the pool: the primary's, and with replicas a read
 * client whose adapter sends plain reads to them, both behind the one client the services use.
 */
async function postgresClients(pool: Pool, replicas: ReplicaSet | undefined, sortIndexes: SortIndexes, opts: DatabaseOptions) {
  // Named statements belong to one server connection; a transaction-mode pooler hands the
  // next transaction another one ("prepared statement already exists", 42P05), unless it
  // tracks them itself (PgBouncer 1.21+ with max_prepared_statements).
  const named = opts.namedStatements ?? opts.pooler !== 'transaction';
  // Units of work (./unit-of-work.ts) learn which adapter transaction is theirs.
  const primaryAdapter = hearTransactions(new PrismaPg(pool, named ? { statementNameGenerator: statementNames() } : {}), claimTransaction);
  const readerAdapter = replicas ? new ReplicaReadsPrismaPg(pool, replicas) : undefined;
  const primary = prismaClient(primaryAdapter, opts.onQuery);
  const reader = readerAdapter ? prismaClient(readerAdapter, opts.onQuery) : undefined;
  const allowed = opts.replicaReadsAllowed ?? (() => false);
  const primaryRows = adapterReader(await primaryAdapter.connect(), sortIndexes, opts.onQuery);
  const outside = readerAdapter
    ? routedReader(primaryRows, adapterReader(await readerAdapter.connect(), sortIndexes, opts.onQuery), allowed)
    : primaryRows;
  const rows = unitAware(outside, opts.onQuery);
  return {
    prisma: reader ? routeReads(primary, reader, allowed) : primary,
    rows,
    async disconnect() {
      await primary.$disconnect();
      await reader?.$disconnect();
    },
  };
}

async function openPostgres(url: string, opts: DatabaseOptions): Promise<Database> {
  const limits = timeLimits(opts, await waitForServer(url, opts));
  const max = opts.poolMax ?? 10;
  const { pool, backgroundPool, replicaPools, replicas, stopGuards } = openPools(url, opts, limits);
  const session: SqlSession = {
    async exec(sql) {
      await pool.query(sql);
    },
    async query<T>(sql: string, params?: unknown[]) {
      return (await pool.query<T & QueryResultRow>(sql, params)).rows;
    },
  };
  const direct = sessionUrl(url, opts.directUrl, opts.tlsRootCertFile);
  const lockSession = () => openLockSession(direct, opts.connectTimeoutMs);
  if (opts.migrate !== false) await migrateOn(lockSession);
  const sortIndexes = await loadSortIndexes(session);
  const clients = await postgresClients(pool, replicas, sortIndexes, opts);
  // The primary's: the relay publishes what committed there, never a replica's view of it.
  const background = await postgresClients(backgroundPool, undefined, sortIndexes, opts);
  await replicas?.start();
  const up = () =>
    pool.query('SELECT 1').then(
      () => 'up' as const,
      () => 'down' as const,
    );
  return {
    kind: 'postgres',
    prisma: clients.prisma,
    rows: clients.rows,
    background: { prisma: background.prisma, rows: background.rows },
    timeLimits: limits,
    session,
    lockSession,
    async ping() {
      await pool.query('SELECT 1');
    },
    async health() {
      return [{ name: 'primary', role: 'primary', state: await up() }, ...(replicas?.health() ?? [])];
    },
    poolStats() {
      return [
        poolFigures('primary', pool, max),
        poolFigures('background', backgroundPool, BACKGROUND_POOL),
        ...replicaPools.map((p, i) => poolFigures(`replica ${i + 1}`, p, max)),
      ];
    },
    // Sessions of their own, past a transaction-mode pooler like the lock session above.
    listen: (channel, onNotify) => listenPostgres(direct, channel, onNotify),
    tryLock: postgresLocks(direct),
    close: once(async () => {
      replicas?.stop();
      for (const stop of stopGuards) stop();
      await clients.disconnect();
      await background.disconnect();
      await Promise.all([pool.end(), backgroundPool.end(), ...replicaPools.map((p) => p.end())]);
    }),
  };
}

/** The embedded database: in memory, or in its folder, which one process holds at a time. */
async function startPGlite(opts: DatabaseOptions): Promise<{ pg: PGlite; lock: DataDirLock | undefined }> {
  const dir = opts.dataDir ?? './data';
  if (dir === 'memory') return { pg: await PGlite.create({ extensions: PGLITE_EXTENSIONS }), lock: undefined };
  // Before anything in the folder is touched: refused at once when another process holds it.
  const lock = lockDataDir(dir, opts.role ?? 'service');
  try {
    const target = path.resolve(dir, 'pglite');
    fs.mkdirSync(target, { recursive: true });
    return { pg: await PGlite.create(target, { extensions: PGLITE_EXTENSIONS }), lock };
  } catch (e) {
    lock.release();
    throw e;
  }
}

async function openPGlite(opts: DatabaseOptions): Promise<Database> {
  const { pg, lock } = await startPGlite(opts);
  const session: SqlSession = {
    async exec(sql) {
      await pg.exec(sql);
    },
    async query<T>(sql: string, params?: unknown[]) {
      return (await pg.query<T>(sql, params)).rows;
    },
  };
  // PGlite keeps the process alive until it is closed.
  const shut = async () => {
    await pg.close();
    lock?.release();
  };
  if (opts.migrate !== false) {
    try {
      await applyMigrations(session);
    } catch (e) {
      await shut();
      throw e;
    }
  }
  // Both adapters share one @prisma/driver-adapter-utils (package.json overrides; prisma/README.md).
  const adapter = hearTransactions(new PrismaPGlite(pg), claimTransaction);
  const prisma = prismaClient(adapter, opts.onQuery);
  // Inside a unit of work the reads go through its transaction: the one connection is its.
  const rows = unitAware(adapterReader(await adapter.connect(), await loadSortIndexes(session), opts.onQuery), opts.onQuery);
  const up = async () =>
    !pg.closed &&
    (await pg.query('SELECT 1').then(
      () => true,
      () => false,
    ));
  return {
    kind: 'pglite',
    prisma,
    rows,
    background: { prisma, rows },
    timeLimits: 'none',
    session,
    // One connection: its advisory locks are session locks already; it closes with the database.
    lockSession: () => Promise.resolve({ ...session, close: () => Promise.resolve() }),
    async ping() {
      if (pg.closed) throw new Error('the embedded database is closed');
      await pg.query('SELECT 1');
    },
    async health() {
      return [{ name: 'primary', role: 'primary', state: (await up()) ? 'up' : 'down' }];
    },
    poolStats: () => [],
    async listen(channel, onNotify) {
      const stop = await pg.listen(channel, onNotify);
      return async () => {
        if (!pg.closed) await stop();
      };
    },
    tryLock: () => Promise.resolve({ lost: new Promise<void>(() => undefined), release: () => Promise.resolve() }),
    close: once(async () => {
      await prisma.$disconnect();
      await shut();
    }),
  };
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  return opts.url ? openPostgres(opts.url, opts) : openPGlite(opts);
}
