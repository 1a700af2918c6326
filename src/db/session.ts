import { Client, type QueryResultRow } from 'pg';
import { connectFailure } from './errors';
import type { SqlSession } from './migrate';

// Connections that need a PostgreSQL session of their own: session-level advisory locks
// (the migration runner's, the change-log relay's), LISTEN, anything that must see the
// same server connection from one statement to the next. Behind a transaction-mode pooler
// (DB_POOLER=transaction) each transaction may land on another server connection, so a
// lock taken by one statement would be held by a connection the next statement never
// sees, and never released: these connections go to DATABASE_DIRECT_URL instead.

/** Where and how to open a session connection. */
export interface SessionTarget {
  /** The pool's URL (DATABASE_URL). */
  readonly url: string;
  /** A URL past the pooler (DATABASE_DIRECT_URL); used when given. */
  readonly directUrl?: string | undefined;
  /** CA file for a URL that names no sslrootcert (PGSSLROOTCERT). */
  readonly tlsRootCertFile?: string | undefined;
  readonly connectTimeoutMs?: number | undefined;
}

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
 * Opens a connection of its own, not from a pool, to DATABASE_DIRECT_URL when set (else
 * DATABASE_URL), without the pool's statement timeout (a migration may rewrite a large
 * table; a lock holder waits as long as it must). Fails with a message naming the cause
 * (TLS, refused, …) and never the URL's password. The caller closes it.
 */
export async function openLockSession(target: SessionTarget): Promise<LockSession> {
  const url = withRootCert(target.directUrl ?? target.url, target.tlsRootCertFile);
  let client: Client;
  try {
    client = new Client({ connectionString: url, connectionTimeoutMillis: target.connectTimeoutMs ?? 10_000 });
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
