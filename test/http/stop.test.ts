// Stopping the app waits for handlers still at work, those whose client hung up included, so
// that main closes the database only after them (src/http/in-flight.ts, src/app.ts stop()).

import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../support/app';

let t: TestApp;
/** Told when the app sends a statement reading customers (the page reader tells it as it sends). */
let onCustomerRead: (() => void) | undefined;
beforeAll(async () => {
  t = await createTestApp({ onQuery: (sql) => (sql.includes('"Customer"') ? onCustomerRead?.() : undefined) });
});
afterAll(async () => {
  await t.db.close();
});

it('stop() resolves only after a request in flight has been answered, though its client hung up', async () => {
  const server = http.createServer(t.http).listen(0, '127.0.0.1');
  try {
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as AddressInfo;
    const arrived = new Promise<ServerResponse>((r) => server.once('request', (_req, res: ServerResponse) => r(res)));
    const reading = new Promise<void>((r) => (onCustomerRead = r));
    // Customers locked until the test lets go: the request's read waits for the lock.
    let locked!: () => void;
    let unlock!: () => void;
    const lockTaken = new Promise<void>((r) => (locked = r));
    const released = new Promise<void>((r) => (unlock = r));
    const holding = t.db.prisma.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe('LOCK TABLE "Customer" IN ACCESS EXCLUSIVE MODE');
        locked();
        await released;
      },
      { timeout: 10_000 },
    );
    await lockTaken;
    const hangUp = new AbortController();
    const sent = fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.tokens.reader}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ customers(first: 5) { nodes { id } } }' }),
      signal: hangUp.signal,
    }).then(
      () => 'answered',
      () => 'hung up',
    );
    const res = await arrived;
    await reading; // the page's read is sent, and waits for the lock
    hangUp.abort();
    expect(await sent).toBe('hung up');
    expect(res.writableEnded).toBe(false); // still waiting for the lock
    const stopped = t.app.stop();
    unlock();
    await stopped;
    expect(res.writableEnded).toBe(true);
    await holding;
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
