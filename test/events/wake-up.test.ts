// A commit notified while a reader is reading the log must not wait for the safety poll
// (src/events/signal.ts): the reader's read may have missed that entry, so its wait after the
// read returns at once and it reads again. Here the poll is an hour, and each reader's first
// read appends an entry and lets its notification arrive before returning what it had read:
// the entry comes at once or, were the wake-up lost, an hour later.

import { randomUUID } from 'node:crypto';
import { DEMO_DATA_FILE } from '../../src/config/paths';
import { CHANNEL } from '../../src/events/events';
import { follow } from '../../src/events/live';
import { logHead } from '../../src/events/progress';
import { ChangeRelay, type RelayEntry } from '../../src/events/relay';
import { ChangeSignal } from '../../src/events/signal';
import { createLogger } from '../../src/http/logger';
import { importReferenceData } from '../../src/import/import-service';
import { appendDescriptionChange } from '../support/change-log';
import { createTestDatabase, servicesOf, type TestDatabase } from '../support/database';
import { until } from '../support/until';

const HOUR = 3_600_000;
let db: TestDatabase;
let signal: ChangeSignal;
let notified = 0;
let unlisten: () => Promise<void>;

beforeAll(async () => {
  db = await createTestDatabase();
  await importReferenceData(db, DEMO_DATA_FILE);
  signal = new ChangeSignal();
  unlisten = await db.listen(CHANNEL, () => {
    notified++;
    signal.notify();
  });
}, 90_000);
afterAll(async () => {
  await unlisten();
  await db.close();
});

/** Appends one entry in its own transaction and waits until its notification has arrived. */
async function commitAndNotify(description: string): Promise<void> {
  const before = notified;
  await appendDescriptionChange(db, description, randomUUID());
  await until('the notification of the append', () => notified > before, { everyMs: 5, timeoutMs: 10_000 });
}

/** The log's reader, whose first read commits an entry (notified) before it returns. */
function readerThatMissesOne(description: string) {
  const changeLog = servicesOf(db).changeLog;
  let reads = 0;
  return async (after: bigint, limit: number) => {
    const batch = await changeLog.changesAfter(after, limit);
    if (++reads === 1) await commitAndNotify(description);
    return batch;
  };
}

it('a follower reads again when a commit was notified during its read', async () => {
  const description = `during a follower's read ${randomUUID()}`;
  const read = readerThatMissesOne(description);
  const entries = follow({ read, head: () => logHead(db.prisma), signal, pollMs: HOUR }, { after: undefined, resource: undefined });
  try {
    let first: IteratorResult<unknown> | undefined;
    void entries.next().then((r) => (first = r));
    await until('the entry committed during the read to be followed', () => first, { timeoutMs: 10_000 });
    expect(first!.done).toBe(false);
    expect(JSON.stringify(first!.value)).toContain(description);
  } finally {
    await entries.return?.();
  }
}, 20_000);

it('the relay reads again when a commit was notified during a read that found nothing', async () => {
  const description = `during the relay's read ${randomUUID()}`;
  const read = readerThatMissesOne(description);
  const start = await logHead(db.prisma);
  let saved = start;
  const published: RelayEntry[] = [];
  const relay = new ChangeRelay({
    read,
    toMessage: (e) => ({ subject: 'wake-up', msgId: e.id, body: '' }),
    publish: () => Promise.resolve(),
    brokerUp: () => true,
    progress: {
      load: () => Promise.resolve(start),
      save: (seq) => {
        saved = seq;
        return Promise.resolve();
      },
    },
    backlog: () => Promise.resolve({ entries: 0, oldest: undefined }),
    lock: () => Promise.resolve({ lost: new Promise<void>(() => undefined), release: () => Promise.resolve() }),
    signal,
    logger: createLogger('silent'),
    onPublished: (e) => published.push(e),
    pollMs: HOUR,
  });
  relay.start();
  try {
    const entry = await until('the entry committed during the read to be published', () => published[0], { timeoutMs: 10_000 });
    expect(JSON.stringify(entry)).toContain(description);
    await until('the position saved past it', () => saved >= BigInt(entry.seq), { timeoutMs: 10_000 });
  } finally {
    await relay.stop();
  }
}, 20_000);
