// Stopping the app waits for handlers still at work, those whose client hung up included, so
// that main closes the database only after them (src/http/in-flight.ts, src/app.ts stop()).

import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../support/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.db.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('stop() resolves only after a request in flight has been answered, though its client hung up', async () => {
  const server = http.createServer(t.http).listen(0, '127.0.0.1');
  try {
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as AddressInfo;
    const responses: ServerResponse[] = [];
    server.on('request', (_req, res: ServerResponse) => responses.push(res));
    // Customers locked for a moment: the request's read waits for the lock.
    let locked!: () => void;
    const lockTaken = new Promise<void>((r) => (locked = r));
    const holding = t.db.prisma.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe('LOCK TABLE "Customer" IN ACCESS EXCLUSIVE MODE');
        locked();
        await sleep(500);
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
    while (responses.length === 0) await sleep(1);
    await sleep(50);
    hangUp.abort();
    expect(await sent).toBe('hung up');
    const res = responses[0]!;
    expect(res.writableEnded).toBe(false); // still waiting for the lock
    await t.app.stop();
    expect(res.writableEnded).toBe(true);
    await holding;
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
