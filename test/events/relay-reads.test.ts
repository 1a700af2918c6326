// The relay reads the log at most once per READ_GAP_MS while writes trickle in
// (src/events/relay.ts): every commit notifies, and a read per notification was most of what
// the change log cost a burst of writes. What committed in between comes with the next read,
// every entry once and in order. Counted as the database layer sends the relay's reads.

import { randomUUID } from 'node:crypto';
import { DEMO_DATA_FILE } from '../../src/config/paths';
import { importReferenceData } from '../../src/import/import-service';
import type { Events } from '../../src/events/events';
import { READ_GAP_MS } from '../../src/events/relay';
import { appendDescriptionChange } from '../support/change-log';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { fixture } from '../support/fixture';
import { privateNats, readStream, type PrivateNats } from '../support/nats';
import { startRelay } from '../support/relay';
import { until } from '../support/until';

const STREAM = 'READS';
let db: TestDatabase;
let nats: PrivateNats;
let events: Events;
/** When the relay sent each read of the log after a seq. */
const reads: number[] = [];

beforeAll(async () => {
  db = await createTestDatabase({
    onQuery: (sql) => {
      if (/FROM "ChangeLog" t WHERE t\."seq" > \$1 ORDER BY t\."seq" ASC LIMIT/.test(sql)) reads.push(performance.now());
    },
  });
  await importReferenceData(db, DEMO_DATA_FILE);
  nats = await privateNats();
  events = await startRelay(db, nats, STREAM);
}, 90_000);
afterAll(async () => {
  await events.stop();
  await nats.destroy();
  await db.close();
});

it('entries committed one after another are read together, at most one read per gap, every one once and in order', async () => {
  const recordId = fixture.paymentSources[0]!.id;
  const requestId = randomUUID();
  const ENTRIES = 60;
  const start = performance.now();
  // Each its own transaction, as a write's entries are, and so each its own notification.
  for (let i = 0; i < ENTRIES; i++) await appendDescriptionChange(db, `trickle ${i}`, requestId, recordId);
  const appended = performance.now() - start;
  const written = await db.prisma.changeLog.findMany({ where: { requestId }, orderBy: { seq: 'asc' } });
  expect(written).toHaveLength(ENTRIES);
  const ids = new Set(written.map((e) => e.id));
  const stored = await until(
    'every entry in the stream',
    async () => {
      const mine = (await readStream(nats.url, STREAM)).filter((e) => e.msgId !== undefined && ids.has(e.msgId));
      return mine.length >= ENTRIES ? mine : undefined;
    },
    { timeoutMs: 20_000 },
  );
  expect(stored.map((e) => e.msgId)).toEqual(written.map((e) => e.id));
  // While they were appended, reads READ_GAP_MS apart (one after the last may follow).
  const during = reads.filter((t) => t >= start && t <= start + appended);
  expect(during.length).toBeLessThanOrEqual(Math.ceil(appended / READ_GAP_MS) + 1);
});
