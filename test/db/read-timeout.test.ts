// The client-side limit for a stalled PostgreSQL (src/db/read-timeout.ts): a statement on a
// connection that stops answering fails as "database unavailable" a little after the
// statement timeout, the pool then serves the next statement on a new connection, and a
// statement within the limit is left alone. Runs on the machine's PostgreSQL through a TCP
// relay that can stop passing bytes, as a frozen server does, without touching the server.

import net from 'node:net';
import { Prisma } from '../../src/db/__generated__/prisma/client';
import { openDatabase, type Database } from '../../src/db/database';
import { isDatabaseUnavailable } from '../../src/db/errors';
import { CHECK_EVERY_MS, STALL_GRACE_MS } from '../../src/db/read-timeout';

const SERVER = { host: '127.0.0.1', port: 5432 };
const STATEMENT_TIMEOUT_MS = 300;
// The statement timeout, the grace, the watchdog's period, and a second of slack.
const GIVES_UP_WITHIN_MS = STATEMENT_TIMEOUT_MS + STALL_GRACE_MS + CHECK_EVERY_MS + 1_000;

/** A relay to the server whose connections can be frozen: bytes stop, sockets stay open. */
function relay(): Promise<{ port: number; freeze(): void; thaw(): void; close(): Promise<void> }> {
  const pairs = new Set<[net.Socket, net.Socket]>();
  let frozen = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(SERVER);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    if (frozen) for (const s of pair) s.pause();
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', drop).on('error', drop);
    upstream.on('close', drop).on('error', drop);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        freeze() {
          frozen = true;
          for (const pair of pairs) for (const s of pair) s.pause();
        },
        thaw() {
          frozen = false;
          for (const pair of pairs) for (const s of pair) s.resume();
        },
        close: () =>
          new Promise<void>((done) => {
            for (const pair of pairs) for (const s of pair) s.destroy();
            server.close(() => done());
          }),
      }),
    ),
  );
}

const page = Prisma.sql`SELECT g AS id, md5(g::text) AS name, g * 1.5 AS amount FROM generate_series(1, 50) AS g`;

describe('a stalled PostgreSQL', () => {
  let r: Awaited<ReturnType<typeof relay>>;
  let db: Database;

  beforeAll(async () => {
    r = await relay();
    db = await openDatabase({
      url: `postgresql://postgres@127.0.0.1:${r.port}/postgres`,
      migrate: false,
      poolMax: 2,
      statementTimeoutMs: STATEMENT_TIMEOUT_MS,
    });
  });

  afterAll(async () => {
    r.thaw();
    await db.close();
    await r.close();
  });

  it('fails a statement as unavailable a little after the statement timeout, then the pool answers again', async () => {
    expect((await db.rows.read(page)).rows).toHaveLength(50);
    r.freeze();
    const started = Date.now();
    const failure = await db.rows.read(page).then(
      () => undefined,
      (e: unknown) => e,
    );
    const waited = Date.now() - started;
    expect(failure).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(waited).toBeGreaterThanOrEqual(STATEMENT_TIMEOUT_MS + STALL_GRACE_MS);
    expect(waited).toBeLessThan(GIVES_UP_WITHIN_MS);
    r.thaw();
    expect((await db.rows.read(page)).rows).toHaveLength(50);
  }, 20_000);

  it('leaves a statement alone that answers within the limit, however many run', async () => {
    const slow = Prisma.sql`SELECT pg_sleep(0.2) IS NULL AS slept`;
    const results = await Promise.all([db.rows.read(slow), db.rows.read(slow), db.rows.read(page)]);
    expect(results.map((x) => x.rows.length)).toEqual([1, 1, 50]);
  });
});
