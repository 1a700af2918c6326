import { Client } from 'pg';

// Sessions of their own, outside the pool, for what only a session can hold and must be
// told it lost: LISTEN (notifications) and the relay's session-level advisory lock. Both die
// with their connection, so each is one plain Client whose loss is reported. The caller
// gives the URL past any transaction-mode pooler (DATABASE_DIRECT_URL, ./session.ts).

/** A session-level advisory lock this process holds until release() or until `lost` resolves. */
export interface HeldLock {
  /** Resolves when the connection holding the lock is gone (the lock with it). */
  readonly lost: Promise<void>;
  release(): Promise<void>;
}

const client = (url: string): Client => new Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });

/**
 * Session-level advisory locks on connections of their own: each call tries
 * `pg_try_advisory_lock(key)` once and resolves to the lock, or undefined while another
 * session holds it (or the database cannot be reached). A connection that did not get the
 * lock is kept for the next try, so an instance on standby does not open a connection each time.
 */
export function postgresLocks(url: string): (key: bigint) => Promise<HeldLock | undefined> {
  let waiting: Client | undefined;
  return async (key) => {
    const c = waiting ?? client(url);
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
    const c = client(url);
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
