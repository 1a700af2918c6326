// When the change log's readers wake up (src/events/signal.ts, src/events/waiters.ts).
//
// Commits notify only while a reader waits: a reader about to wait registers, then reads once
// more, so an entry committed before the registration (which notified nobody) is read at once.
// A commit notified while a reader is reading must not wait for the safety poll either: its
// read may have missed that entry, so its wait returns at once and it reads again.
// Here the poll is an hour: an entry comes at once or, were its wake-up lost, an hour later.
// The counts of notifications rely on PostgreSQL delivering them in commit order: when a later
// commit's notification has arrived, an earlier one's would have arrived before it.

import { randomUUID } from 'node:crypto';
import { DEMO_DATA_FILE } from '../../src/config/paths';
import { CHANNEL } from '../../src/events/events';
import { follow } from '../../src/events/live';
import { logHead } from '../../src/events/progress';
import { ChangeRelay, type RelayEntry } from '../../src/events/relay';
import { ChangeSignal } from '../../src/events/signal';
import { FEED_LOCK_KEY, waiterRegistration } from '../../src/events/waiters';
import { createLogger } from '../../src/http/logger';
import { importReferenceData } from '../../src/import/import-service';
import { appendDescriptionChange } from '../support/change-log';
import { createTestDatabase, servicesOf, type TestDatabase } from '../support/database';
import { until } from '../support/until';

const HOUR = 3_600_000;
let db: TestDatabase;
let notified = 0;
/** Every signal of these tests, woken by the one LISTEN session. */
const signals = new Set<ChangeSignal>();
let unlisten: () => Promise<void>;

beforeAll(async () => {
  db = await createTestDatabase();
  await importReferenceData(db, DEMO_DATA_FILE);
  unlisten = await db.listen(CHANNEL, () => {
    notified++;
    for (const s of signals) s.notify();
  });
}, 90_000);
afterAll(async () => {
  await unlisten();
  await db.close();
});
// Each test starts with nobody registered: another test's registration would hold for hours.
beforeEach(() => db.prisma.$executeRawUnsafe(`DELETE FROM "ChangeLogWaiter"`));

/** A signal as the service makes one (src/events/events.ts), with a poll of an hour. */
function newSignal(): ChangeSignal {
  const s = new ChangeSignal({ registration: waiterRegistration(db.background), pollMs: HOUR });
  signals.add(s);
  return s;
}

/** Appends one entry in its own transaction and waits until its notification has arrived. */
async function commitAndNotify(description: string): Promise<void> {
  const before = notified;
  await appendDescriptionChange(db, description, randomUUID());
  await until('the notification of the append', () => notified > before, { everyMs: 5, timeoutMs: 10_000 });
}

/** The log's reader, whose read number n runs during[n] before it returns what it had read. */
function readerWith(during: Readonly<Record<number, () => Promise<void>>>) {
  const changeLog = servicesOf(db).changeLog;
  let reads = 0;
  return async (after: bigint, limit: number) => {
    const batch = await changeLog.changesAfter(after, limit);
    await during[++reads]?.();
    return batch;
  };
}

/** Whether some registration holds now, by the database's clock. */
async function registered(): Promise<boolean> {
  const [r] = await db.prisma.$queryRawUnsafe<Array<{ holds: boolean }>>(
    `SELECT EXISTS (SELECT 1 FROM "ChangeLogWaiter" WHERE "until" > clock_timestamp()) AS holds`,
  );
  return r!.holds;
}

/** A relay that publishes nowhere: what it published and the position it saved. */
async function startRelay(signal: ChangeSignal, read: ReturnType<typeof readerWith>) {
  const start = await logHead(db.prisma);
  const state = { saved: start, published: [] as RelayEntry[] };
  const relay = new ChangeRelay({
    read,
    toMessage: (e) => ({ subject: 'wake-up', msgId: e.id, body: '' }),
    publish: () => Promise.resolve(),
    brokerUp: () => true,
    progress: {
      load: () => Promise.resolve(start),
      save: (seq) => {
        state.saved = seq;
        return Promise.resolve();
      },
    },
    backlog: () => Promise.resolve({ entries: 0, oldest: undefined }),
    lock: () => Promise.resolve({ lost: new Promise<void>(() => undefined), release: () => Promise.resolve() }),
    signal,
    logger: createLogger('silent'),
    onPublished: (e) => state.published.push(e),
  });
  relay.start();
  return { state, stop: () => relay.stop() };
}

async function firstFollowed(signal: ChangeSignal, read: ReturnType<typeof readerWith>): Promise<unknown> {
  const entries = follow({ read, head: () => logHead(db.prisma), signal }, { after: undefined, resource: undefined });
  try {
    let first: IteratorResult<unknown> | undefined;
    void entries.next().then((r) => (first = r));
    await until('an entry to be followed', () => first, { timeoutMs: 10_000 });
    expect(first!.done).toBe(false);
    return first!.value;
  } finally {
    await entries.return?.();
  }
}

it('a commit notifies only while a registration holds, checked at commit (the import: at its statement)', async () => {
  // The registration takes the lock under which commits take their seq and check for waiters.
  const functions = await db.prisma.$queryRawUnsafe<Array<{ name: string; body: string }>>(
    `SELECT proname AS name, prosrc AS body FROM pg_proc WHERE proname IN ('change_log_seq_at_commit', 'change_log_assign_seq') ORDER BY 1`,
  );
  expect(functions.map((f) => f.name)).toEqual(['change_log_assign_seq', 'change_log_seq_at_commit']);
  for (const f of functions) expect(f.body).toContain(`pg_advisory_xact_lock(${FEED_LOCK_KEY})`);

  const registration = waiterRegistration(db.background);
  const before = notified;
  await appendDescriptionChange(db, `nobody waits ${randomUUID()}`, randomUUID());
  await registration.register(60_000);
  await appendDescriptionChange(db, `one waits ${randomUUID()}`, randomUUID());
  await until('the notification of the second append', () => notified > before, { everyMs: 5, timeoutMs: 10_000 });
  expect(notified).toBe(before + 1);

  // The import's entries take their seq at their statement, under the feed's lock (change_log_notify).
  await appendDescriptionChange(db, `as the import appends ${randomUUID()}`, randomUUID(), undefined, { seqAtInsert: true });
  await until('the notification of the import-like append', () => notified > before + 1, { everyMs: 5, timeoutMs: 10_000 });

  // A registration past its time is ignored.
  await registration.register(1);
  await until('the registration to expire', async () => !(await registered()));
  const expired = notified;
  await appendDescriptionChange(db, `expired ${randomUUID()}`, randomUUID());
  await registration.register(60_000);
  await appendDescriptionChange(db, `registered again ${randomUUID()}`, randomUUID());
  await until('the notification of the last append', () => notified > expired, { everyMs: 5, timeoutMs: 10_000 });
  expect(notified).toBe(expired + 1);
}, 30_000);

it('a follower that registers reads again: an entry committed before the registration notified nobody', async () => {
  const description = `before the registration ${randomUUID()}`;
  const read = readerWith({ 1: () => appendDescriptionChange(db, description, randomUUID()) });
  expect(JSON.stringify(await firstFollowed(newSignal(), read))).toContain(description);
}, 20_000);

it('a registered follower is woken by the next commit', async () => {
  const description = `after the registration ${randomUUID()}`;
  // Its first read finds nothing and it registers, its second finds nothing and it waits.
  let secondRead = false;
  const read = readerWith({
    2: () => {
      secondRead = true;
      return Promise.resolve();
    },
  });
  const followed = firstFollowed(newSignal(), read);
  await until('the follower to wait', () => secondRead, { everyMs: 20 });
  await appendDescriptionChange(db, description, randomUUID());
  expect(JSON.stringify(await followed)).toContain(description);
}, 20_000);

it('a follower reads again when a commit was notified during its read', async () => {
  const description = `during a follower's read ${randomUUID()}`;
  // Read 1 finds nothing and the follower registers; read 2, registered, misses the entry committed during it.
  const read = readerWith({ 2: () => commitAndNotify(description) });
  expect(JSON.stringify(await firstFollowed(newSignal(), read))).toContain(description);
}, 20_000);

it('the relay reads again when a commit was notified during a read that found nothing', async () => {
  const description = `during the relay's read ${randomUUID()}`;
  // Read 1 finds nothing and the relay registers; read 2, registered, misses the entry committed during it.
  const relay = await startRelay(newSignal(), readerWith({ 2: () => commitAndNotify(description) }));
  try {
    const entry = await until('the entry committed during the read to be published', () => relay.state.published[0], { timeoutMs: 10_000 });
    expect(JSON.stringify(entry)).toContain(description);
    await until('the position saved past it', () => relay.state.saved >= BigInt(entry.seq), { timeoutMs: 10_000 });
  } finally {
    await relay.stop();
  }
}, 20_000);

it('a relay that keeps finding entries ends its registration, and registers again when it finds none', async () => {
  const append = (n: number) => () => appendDescriptionChange(db, `busy ${n} ${randomUUID()}`, randomUUID());
  let waiting = false;
  let cancelled = false;
  // Reads 1 and 2 find nothing (the relay registers, then waits); reads 3-5 each find the
  // entry committed during the read before; read 6 finds nothing once the registration ended.
  const relay = await startRelay(
    newSignal(),
    readerWith({
      2: () => {
        waiting = true;
        return Promise.resolve();
      },
      3: append(2),
      4: append(3),
      6: async () => {
        await until('the registration to end', async () => !(await registered()), { everyMs: 20, timeoutMs: 10_000 });
        cancelled = true;
      },
    }),
  );
  try {
    await until('the relay to wait', () => waiting, { everyMs: 20 });
    expect(await registered()).toBe(true);
    await append(1)();
    await until('three entries published', () => relay.state.published.length === 3, { timeoutMs: 10_000 });
    await until('the registration ended after three reads that found entries', () => cancelled, { timeoutMs: 10_000 });
    await until('a registration again, after a read that found nothing', registered, { timeoutMs: 10_000 });
  } finally {
    await relay.stop();
  }
}, 30_000);
