import { Client, type QueryResultRow } from 'pg';
import { connectFailure } from './errors';
import type { SqlSession } from './migrate';

// Connections that need a PostgreSQL session of their own: session-level advisory locks
// (the migration runner's, the change-log relay's), LISTEN, anything that must see the
// same server connection from one statement to the next. Behind a transaction-mode pooler
// (DB_POOLER=transaction) each transaction may land on another server connection, so a
// lock taken by one statement would be held by a connection the next statement never
// sees, and never released: these connections go to DATABASE_DIRECT_URL instead. The
// LISTEN session and the relay's lock die with their connection: each is one plain client
// whose loss is reported (watched sessions, below the migration runner's).

/** A session connection as the migration runner and lock holders use it; close() ends it. */
export interface LockSession extends SqlSession {
  close(): Promise<void>;
}

/**
 * The URL as node-postgres should read it: with `sslrootcert` set to PGSSLROOTCERT's file
 * when the URL names no CA file of its own (libpq's order: the URL's parameter wins).
 * node-postgres reads `sslrootcert` itself (pg-connection-string); it ignores PGSSLROOTCERT.
 */
export function withRootCert(url: string, caFile: string | undefined): string {
  if (!caFile) return url;
  const u = new URL(url);
  if (u.searchParams.has('sslrootcert')) return url;
  u.searchParams.set('sslrootcert', caFile);
  return u.toString();
}

/**
 * Where sessions connect: DATABASE_DIRECT_URL when set (past the pooler), else DATABASE_URL,
 * with the CA file of PGSSLROOTCERT where the URL names none.
 */
export const sessionUrl = (url: string, directUrl: string | undefined, caFile: string | undefined): string =>
  withRootCert(directUrl ?? url, caFile);

/**
 * A plain client, not from a pool. A `watched` one holds what dies with its connection (a
 * LISTEN, a lock the caller must be told it lost), so TCP keepalive finds a dead peer.
 */
function sessionClient(url: string, connectTimeoutMs: number, watched: boolean): Client {
  const keepAlive = watched ? { keepAlive: true, keepAliveInitialDelayMillis: 10_000 } : {};
  return new Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs, ...keepAlive });
}

/**
 * Opens a session connection (see sessionUrl) without the pool's statement timeout (a
 * migration may rewrite a large table; a lock holder waits as long as it must). Fails with a
 * message naming the cause (TLS, refused, …) and never the URL's password. The caller closes it.
 */
export async function openLockSession(url: string, connectTimeoutMs = 10_000): Promise<LockSession> {
  let client: Client;
  try {
    client = sessionClient(url, connectTimeoutMs, false);
    client.on('error', () => undefined);
    await client.connect();
  } catch (e) {
    throw connectFailure(e, url) ?? e;
  }
  return {
    async exec(sql) {
      await client.query(sql);
    },
    async query<T>(sql: string, params?: unknown[]) {
      return (await client.query<T & QueryResultRow>(sql, params)).rows;
    },
    async close() {
      await client.end().catch(() => undefined);
    },
  };
}

/** A session-level advisory lock this process holds until release() or until `lost` resolves. */
export interface HeldLock {
  /** Resolves when the connection holding the lock is gone (the lock with it). */
  readonly lost: Promise<void>;
  release(): Promise<void>;
}

/** Watched sessions wait this long for a connection; they are retried. */
const WATCHED_CONNECT_MS = 5_000;

/**
 * Session-level advisory locks on connections of their own: each call tries
 * `pg_try_advisory_lock(key)` once and resolves to the lock, or undefined while another
 * session holds it (or the database cannot be reached). A connection that did not get the
 * lock is kept for the next try, so an instance on standby does not open a connection each time.
 */
export function postgresLocks(url: string): (key: bigint) => Promise<HeldLock | undefined> {
  let waiting: Client | undefined;
  return async (key) => {
    const c = waiting ?? sessionClient(url, WATCHED_CONNECT_MS, true);
    waiting = undefined;
    let markLost!: () => void;
    const lost = new Promise<void>((resolve) => (markLost = resolve));
    c.removeAllListeners('error').removeAllListeners('end');
    c.on('error', () => markLost());
    c.on('end', () => markLost());
    try {
      if (!connected.has(c)) {
        await c.connect();
        connected.add(c);
      }
      const { rows } = await c.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1) AS held', [key.toString()]);
      if (rows[0]?.held !== true) {
        waiting = c;
        return undefined;
      }
    } catch {
      await c.end().catch(() => undefined);
      return undefined;
    }
    // A connection that breaks silently (a frozen peer) is found by this probe, not only by TCP keepalive.
    const probe = setInterval(() => void c.query('SELECT 1').catch(() => markLost()), 5_000);
    probe.unref();
    void lost.then(() => clearInterval(probe));
    return {
      lost,
      async release() {
        clearInterval(probe);
        await c.end().catch(() => undefined);
        markLost();
      },
    };
  };
}

const connected = new WeakSet<Client>();

/**
 * LISTEN on `channel` on a connection of its own, reconnecting with backoff when it breaks.
 * onNotify is called for every notification, and once after each reconnect (notifications
 * sent while disconnected are lost; the caller reads what it missed). Resolves once the
 * first LISTEN is in place, or throws when the database cannot be reached at all.
 */
export async function listenPostgres(url: string, channel: string, onNotify: () => void): Promise<() => Promise<void>> {
  let stopped = false;
  let current: Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const open = async (): Promise<void> => {
    const c = sessionClient(url, WATCHED_CONNECT_MS, true);
    c.on('notification', () => onNotify());
    // Until LISTEN is in place a failure is openWithRetry's alone to retry: a second retry
    // chain from this client's own error or end doubled the chains at each failed attempt,
    // and a database back after an outage met dozens of connections at once.
    c.on('error', () => undefined);
    try {
      await c.connect();
      await c.query(`LISTEN "${channel.replace(/"/g, '')}"`);
    } catch (e) {
      await c.end().catch(() => undefined);
      throw e;
    }
    let down = false;
    const reconnect = () => {
      if (down || stopped) return;
      down = true;
      current = undefined;
      void c.end().catch(() => undefined);
      retry = setTimeout(() => void openWithRetry(0), 250);
      retry.unref();
    };
    c.on('error', reconnect);
    c.on('end', reconnect);
    current = c;
  };
  const openWithRetry = async (attempt: number): Promise<void> => {
    if (stopped) return;
    try {
      await open();
      onNotify();
    } catch {
      retry = setTimeout(() => void openWithRetry(attempt + 1), Math.min(250 * 2 ** attempt, 5_000));
      retry.unref();
    }
  };
  await open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await current?.end().catch(() => undefined);
  };
}
