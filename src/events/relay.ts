import type { EventsState } from '../http/health';
import type { Logger } from '../http/logger';
import type { EventEntry } from './cloudevents';
import type { OutgoingMessage } from './jetstream';
import { BrokerError } from './jetstream';
import type { ChangeSignal } from './signal';

// The relay: reads the change log by seq and publishes every entry to JetStream in seq order,
// each publish awaited until JetStream has stored it; the last published seq is saved in the
// database after every batch. Up to WINDOW publishes are in flight at once, each naming its
// predecessor (Nats-Expected-Last-Msg-Id), so that JetStream stores them in order or refuses
// every one after a lost one; from a failed publish on, the window's entries go one at a time.
//
//  - At least once: progress is saved after the publish, so a crash between the two
//    publishes a batch again; JetStream drops the repeats by Nats-Msg-Id (the entry id)
//    within its duplicate window.
//  - In order per record (and overall): a failed publish is retried, one at a time, before
//    anything after it is sent again; what was sent after it in its window was refused.
//  - One relay at a time: the instance holding a session-level advisory lock publishes; the
//    others try again every takeoverMs and take over when the holder's session ends.
//  - A broker outage never reaches a write: writes only append to the log; the relay retries
//    with backoff (up to 5 s apart) and then catches up from its saved position.

/** An entry as the relay reads it: the event's attributes and its seq (decimal text). */
export interface RelayEntry extends EventEntry {
  readonly seq: string;
}

export interface RelayDeps {
  /** The change log after a seq, in seq order (the service layer's reader). */
  readonly read: (afterSeq: bigint, limit: number) => Promise<readonly RelayEntry[]>;
  readonly toMessage: (e: RelayEntry) => OutgoingMessage;
  /** Stores the message; with `after`, only if the stream's last message has that Nats-Msg-Id. */
  readonly publish: (m: OutgoingMessage, after?: string) => Promise<void>;
  readonly brokerUp: () => boolean;
  /** The saved position (0 before the first publish). */
  readonly progress: { load(): Promise<bigint>; save(seq: bigint): Promise<void> };
  /** Entries after `seq` and the time of the oldest of them. */
  readonly backlog: (afterSeq: bigint) => Promise<{ entries: number; oldest: Date | undefined }>;
  /** The relay lock, or undefined while another instance holds it. */
  readonly lock: () => Promise<{ readonly lost: Promise<void>; release(): Promise<void> } | undefined>;
  readonly signal: ChangeSignal;
  readonly logger: Logger;
  /** Told each entry once JetStream stored it (for the commit-to-broker delay metric). */
  readonly onPublished?: (e: RelayEntry) => void;
  /** How often a standby instance tries the lock. */
  readonly takeoverMs?: number;
}

const BATCH = 200;
/**
 * Most publishes in flight at once. One at a time, each publish waited for its acknowledgement
 * and for the event loop it shares with the service's requests: the relay fell behind at
 * 150 writes/s on a busy machine.
 */
const WINDOW = 64;
/**
 * Least time between two reads of the log that follow a short batch. Without a gap (and when
 * every commit notified), entries committed a few milliseconds apart were read and published
 * one or two at a time, each read followed by a save of the position (60 entries appended
 * one after another: 31 reads on PostgreSQL, test/events/relay-reads.test.ts). Read this much later,
 * one read and one save take whatever committed meanwhile; a full batch (a backlog) is
 * followed by the next read at once. Most of what the relay costs the service's thread comes
 * per read, not per entry (the read, the save, a batch's publishes and acknowledgements going
 * out and coming back together: at 100 entries/s three times as much CPU per entry as at 300),
 * so under a steady stream of writes the gap sets it (`BENCH_RATE=300 BENCH_PARTS=relay npm run
 * bench:writes`: the relay's own CPU 0.29 ms per entry with 20 ms, 0.14 with 50). It adds at
 * most itself to an event's delay.
 */
export const READ_GAP_MS = 50;
const MAX_BACKOFF_MS = 5_000;
const backoff = (failures: number): number => Math.min(100 * 2 ** Math.min(failures, 10), MAX_BACKOFF_MS);

export class ChangeRelay {
  private readonly stopping = new AbortController();
  private running: Promise<void> | undefined;
  private leader = false;
  /** Last published seq while this instance is the leader. */
  private position: bigint | undefined;
  private brokerFailing = false;

  constructor(private readonly d: RelayDeps) {}

  start(): void {
    this.running ??= this.loop();
  }

  /** Finishes the publish in flight, saves the position, releases the lock. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running;
  }

  async status(): Promise<EventsState> {
    const last = this.leader && this.position !== undefined ? this.position : await this.d.progress.load();
    const { entries, oldest } = await this.d.backlog(last);
    return {
      broker: this.d.brokerUp() && !this.brokerFailing ? 'up' : 'down',
      relay: this.stopping.signal.aborted ? 'stopped' : this.leader ? 'publishing' : 'standby',
      lastPublishedSeq: last.toString(),
      lagEntries: entries,
      lagSeconds: oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0,
    };
  }

  private async loop(): Promise<void> {
    const stop = this.stopping.signal;
    let failures = 0;
    while (!stop.aborted) {
      let lock: Awaited<ReturnType<RelayDeps['lock']>>;
      try {
        lock = await this.d.lock();
      } catch {
        lock = undefined;
      }
      if (!lock) {
        await wait(this.d.takeoverMs ?? 2_000, stop);
        continue;
      }
      const lost = new AbortController();
      void lock.lost.then(() => lost.abort());
      const either = AbortSignal.any([stop, lost.signal]);
      this.leader = true;
      this.d.logger.info('change relay: this instance publishes the change log to NATS');
      try {
        await this.publishWhileLeader(either);
        failures = 0;
      } catch (e) {
        // The database failed (reading the log or saving the position): start over.
        failures++;
        this.d.logger.warn(
          { err: e instanceof Error ? e.message.slice(0, 200) : String(e), retryInMs: backoff(failures) },
          'change relay: database error; retrying',
        );
        await wait(backoff(failures), stop);
      } finally {
        this.leader = false;
        this.position = undefined;
        await lock.release();
      }
      if (lost.signal.aborted && !stop.aborted)
        this.d.logger.warn('change relay: lost the relay lock (database session ended); trying to take it again');
    }
  }

  private async publishWhileLeader(signal: AbortSignal): Promise<void> {
    let last = await this.d.progress.load();
    this.position = last;
    // The Nats-Msg-Id of the last entry this term published: the predecessor the next names.
    let previous: string | undefined;
    const published = (entry: RelayEntry) => {
      last = BigInt(entry.seq);
      this.position = last;
      previous = entry.id;
      this.d.onPublished?.(entry);
    };
    // When the last short batch was read: the next read waits until READ_GAP_MS after it.
    let shortReadAt = -Infinity;
    while (!signal.aborted) {
      const gap = shortReadAt + READ_GAP_MS - performance.now();
      if (gap > 0) await wait(gap, signal);
      const readAt = performance.now();
      const mark = this.d.signal.mark();
      const batch = await this.d.read(last, BATCH);
      shortReadAt = batch.length < BATCH ? readAt : -Infinity;
      if (batch.length === 0) {
        await this.d.signal.waitAfter(mark, signal);
        continue;
      }
      this.d.signal.found();
      for (let from = 0; from < batch.length && !signal.aborted; from += WINDOW) {
        const window = batch.slice(from, from + WINDOW);
        const outcomes = await Promise.allSettled(
          window.map((e, i) => this.d.publish(this.d.toMessage(e), i === 0 ? previous : window[i - 1]!.id)),
        );
        let i = 0;
        for (; i < window.length && outcomes[i]!.status === 'fulfilled'; i++) published(window[i]!);
        const failed = outcomes[i];
        if (failed?.status === 'rejected' && !(failed.reason instanceof BrokerError)) throw failed.reason;
        // From the first failure on: one at a time, without naming predecessors (a publish that
        // failed may yet have been stored; JetStream drops a repeat by its Nats-Msg-Id).
        for (; i < window.length; i++) {
          if (!(await this.publishOne(window[i]!, signal))) break;
          published(window[i]!);
        }
      }
      await this.d.progress.save(last);
    }
  }

  /** Publishes one entry, retried until JetStream stored it; false when stopped first. */
  private async publishOne(entry: RelayEntry, signal: AbortSignal): Promise<boolean> {
    let failures = 0;
    for (;;) {
      if (signal.aborted) return false;
      try {
        await this.d.publish(this.d.toMessage(entry));
        if (this.brokerFailing) this.d.logger.info('change relay: NATS is back; catching up');
        this.brokerFailing = false;
        return true;
      } catch (e) {
        if (!(e instanceof BrokerError)) throw e;
        failures++;
        if (!this.brokerFailing || failures % 10 === 0)
          this.d.logger.warn({ err: e.message, retryInMs: backoff(failures) }, 'change relay: cannot publish; retrying');
        this.brokerFailing = true;
        await wait(backoff(failures), signal);
      }
    }
  }
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
