import { randomUUID } from 'node:crypto';
import { appendChanges } from '../../src/domain/change-log/append';
import { inTransaction } from '../../src/db/unit-of-work';
import type { ChangeEntry } from '../../src/domain/change-log/service';
import { usingPostgres, useTestServices } from '../support/database';
import { until } from '../support/until';

// The outbox ordering trap: a transaction that takes its seq and commits late must not land
// behind a cursor that already moved past it. Eight writers take their seq and then wait,
// held open; they are let go in the reverse of the order they started while a reader polls
// the feed throughout. The reader must end with exactly the committed entries, each once,
// in seq order. On PostgreSQL the writers run in parallel transactions; the embedded
// database has one connection, so there they run one after the other.

const t = useTestServices();

/** Every few milliseconds: writers and the reader step in turn, many times over. */
const STEP = { timeoutMs: 30_000, everyMs: 5 };

it('a reader following the cursor sees every committed entry once, in seq order, when writers commit out of order', async () => {
  const WRITERS = 8;
  const reached = Array.from({ length: WRITERS }, () => false);
  const open = Array.from({ length: WRITERS }, () => false);
  const recordIds = Array.from({ length: WRITERS }, () => randomUUID());

  let done = false;
  let polls = 0;
  const seen: ChangeEntry[] = [];
  let cursor = '0';
  const reader = (async () => {
    for (;;) {
      const finished = done;
      const batch = await t.s.changeLog.changesAfter(cursor, 3);
      polls++;
      seen.push(...batch);
      if (batch.length > 0) cursor = batch.at(-1)!.seq;
      else if (finished) return;
      else await new Promise((r) => setImmediate(r));
    }
  })();

  const writer = (i: number) =>
    inTransaction(
      t.db.prisma,
      async () => {
        const changes = { name: { old: `w${i}`, new: `w${i}'` } };
        await appendChanges([{ resource: 'payment-source', recordId: recordIds[i]!, operation: 'updated', changes }], {
          userId: randomUUID(),
          occurredAt: new Date(),
        });
        reached[i] = true;
        await until(`writer ${i}'s gate`, () => open[i]!, STEP);
      },
      { timeout: 60_000, maxWait: 60_000 },
    );
  // One rolls back after taking its seq: its entry must never appear.
  const rolledBack = inTransaction(t.db.prisma, async () => {
    await appendChanges([{ resource: 'payment-source', recordId: randomUUID(), operation: 'created', changes: {} }], {
      userId: randomUUID(),
      occurredAt: new Date(),
    });
    throw new Error('rolled back on purpose');
  }).catch((e: Error) => e.message);

  const writers: Promise<void>[] = [];
  for (let i = 0; i < WRITERS; i++) writers.push(writer(i));

  if (usingPostgres()) {
    // Let go in reverse start order, each after the reader has polled twice more.
    for (let i = WRITERS - 1; i >= 0; i--) {
      const from = polls;
      await until('the reader to poll', () => polls >= from + 2, STEP);
      open[i] = true;
    }
  } else {
    // One connection: a writer holds it until let go, so let each go once it waits.
    for (let n = 0; n < WRITERS; n++) {
      await until('a writer to wait', () => reached.some((r, i) => r && !open[i]), STEP);
      open[reached.findIndex((r, i) => r && !open[i])] = true;
    }
  }
  await Promise.all(writers);
  expect(await rolledBack).toBe('rolled back on purpose');
  done = true;
  await reader;

  const committed = await t.s.changeLog.changesAfter(0n, 1000);
  expect(committed.map((e) => e.recordId).sort()).toEqual([...recordIds].sort());
  expect(seen.map((e) => e.id)).toEqual(committed.map((e) => e.id));
  const seqs = seen.map((e) => BigInt(e.seq));
  expect(seqs.every((q, i) => i === 0 || q > seqs[i - 1]!)).toBe(true);
});
