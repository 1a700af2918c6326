// The relay's statements (reading the log, saving its position) go through the database's
// background pool, not the request pool: with every connection of the request pool held by
// transactions that wait, an entry committed meanwhile (by a session of the test's own) still
// reaches JetStream. Under a burst of writes the request pool has callers queued, and the
// relay's read waiting behind them was most of its lag (npm run bench:writes).
// (PostgreSQL leg only, jest.config.js POSTGRES_ONLY: the embedded database has one connection.)

import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { APPEND } from '../../src/domain/change-log/append';
import type { Events } from '../../src/events/events';
import { WRITER_ID } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { fixture } from '../support/fixture';
import { privateNats, readStream, type PrivateNats } from '../support/nats';
import { startRelay } from '../support/relay';
import { until } from '../support/until';

const STREAM = 'BACKGROUND';
let db: TestDatabase;
let nats: PrivateNats;
let events: Events;

beforeAll(async () => {
  db = await createTestDatabase();
  nats = await privateNats();
  events = await startRelay(db, nats, STREAM);
}, 60_000);
afterAll(async () => {
  await events.stop();
  await nats.destroy();
  await db.close();
});

it('publishes an entry committed while every connection of the request pool is held', async () => {
  const primary = () => db.poolStats().find((p) => p.name === 'primary')!;
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  // Interactive transactions keep their connection until they end.
  const holders = Array.from({ length: primary().max }, () =>
    db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        await gate;
      },
      { maxWait: 30_000, timeout: 30_000 },
    ),
  );
  try {
    await until('every request-pool connection to be held', () => primary().inUse === primary().max, { timeoutMs: 20_000 });
    const recordId = fixture.paymentSources[0]!.id;
    const writer = new Client({ connectionString: db.url });
    await writer.connect();
    try {
      const changes = { description: { old: null, new: `held ${randomUUID()}` } };
      await writer.query(APPEND, [
        JSON.stringify([{ resource: 'payment-source', recordId, operation: 'updated', changes }]),
        WRITER_ID,
        new Date().toISOString(),
        null,
        null,
      ]);
    } finally {
      await writer.end();
    }
    const published = await until(
      'the entry in the stream',
      async () => (await readStream(nats.url, STREAM)).find((m) => m.event.subject === recordId),
      { timeoutMs: 15_000 },
    );
    expect(published.event.type).toBe('billing.payment-source.updated');
    // Still held: the relay did not wait for the request pool.
    expect(primary().inUse).toBe(primary().max);
  } finally {
    release();
    await Promise.all(holders);
  }
});
