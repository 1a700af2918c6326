// "The log may have grown": woken by the database's notification after a change-log entry
// commits (./live.ts), on every instance. A wake-up carries nothing: readers always read the
// log by seq, so a lost or merged notification costs at most the next poll, never an entry.
//
// Commits notify only while a reader waits (./waiters.ts registers this instance): a reader
// that finds nothing new waits only if a registration held when it started that read and
// holds through its wait; if not, it registers and reads once more, since an entry committed
// before the registration sent no notification. Under a steady stream of writes the
// readers keep reading: a few reads in a row that find entries end the registration
// (found()), and commits notify nobody.
//
// A reader takes a mark() before it reads, with the count of notifications: a notification that
// arrived while it read (its entry perhaps committed after the read's snapshot) makes next()
// return at once instead of being lost to a waiter that was not yet registered.

import type { WaiterRegistration } from './waiters';

/** Slack between a registration's end and a wait's: the round trip that made it, timers firing late. */
const MARGIN_MS = 500;
/**
 * Reads that found entries, one after another with no reader waiting between them, after which
 * the readers are taken to keep up by reading and the registration is ended. A writer's pause
 * of a few tens of milliseconds lets a reader find nothing and register; without an end, its
 * registration made every commit notify for seconds (npm run bench:writes).
 */
const BUSY_READS = 3;

/** Where a reader stood before a read (ChangeSignal.mark), for its wait after it. */
export interface ReadMark {
  /** How many notifications had arrived. */
  readonly heard: number;
  /** Whether a registration had been made (and still held) when the read began. */
  readonly registered: boolean;
}

export class ChangeSignal {
  private waiters = new Set<() => void>();
  private count = 0;
  /** performance.now() until which this instance's registration certainly holds. */
  private registeredUntil = -Infinity;
  private registering: Promise<boolean> | undefined;
  /** The last statement about the registration: each waits for the one before, so they apply in order. */
  private statements: Promise<unknown> = Promise.resolve();
  /** Reads that found entries since a reader last waited. */
  private busyReads = 0;

  /** `pollMs` is the longest a reader waits for a notification (its safety poll). */
  constructor(private readonly o: { readonly registration: WaiterRegistration; readonly pollMs: number }) {}

  /** Take before reading the log. */
  mark(): ReadMark {
    return { heard: this.count, registered: this.holds() };
  }

  /**
   * A reader's wait after a read (mark() taken before it) that found nothing new. Waits for a
   * notification (at most the safety poll) if commits notified already when the read began
   * and will until the wait ends. Otherwise registers and returns at once: the reader reads
   * again first, since an entry committed before the registration notified nobody. If the
   * registration fails (the database is unreachable), waits for the poll.
   */
  async waitAfter(m: ReadMark, abort?: AbortSignal): Promise<void> {
    if (!(m.registered && this.holds()) && (await this.register())) return;
    await this.next(m.heard, abort);
  }

  /**
   * A reader's read found entries. After BUSY_READS such reads with no wait between them, and
   * nobody waiting, the registration ends: commits stop notifying until a reader waits again.
   */
  found(): void {
    if (++this.busyReads < BUSY_READS || this.waiters.size > 0 || this.registering || !(this.registeredUntil > performance.now())) return;
    // At once here: a reader that checks holds() from now on registers again, after this.
    this.registeredUntil = -Infinity;
    this.statements = this.statements.then(() => this.o.registration.cancel()).catch(() => undefined);
  }

  /** Makes commits notify, one statement that concurrent callers share; false if it failed. */
  private register(): Promise<boolean> {
    this.registering ??= (async () => {
      const validMs = 2 * this.o.pollMs + 2 * MARGIN_MS;
      try {
        await this.statements;
        const from = performance.now();
        const done = this.o.registration.register(validMs);
        this.statements = done.catch(() => undefined);
        await done;
        this.registeredUntil = Math.max(this.registeredUntil, from + validMs);
        return true;
      } catch {
        return false;
      } finally {
        this.registering = undefined;
      }
    })();
    return this.registering;
  }

  /** Whether this instance's registration holds through a wait that starts now. */
  private holds(): boolean {
    return this.registeredUntil - performance.now() > this.o.pollMs + MARGIN_MS;
  }

  /** Wakes everyone waiting in next(). */
  notify(): void {
    this.count++;
    const woken = this.waiters;
    this.waiters = new Set();
    for (const wake of woken) wake();
  }

  /**
   * Resolves at once if a notification arrived since `heard` was taken, else at the next
   * notify(), after the safety poll, or when `abort` fires.
   */
  private next(heard: number, abort?: AbortSignal): Promise<void> {
    this.busyReads = 0;
    if (abort?.aborted || this.count !== heard) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        abort?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, this.o.pollMs);
      this.waiters.add(done);
      abort?.addEventListener('abort', done, { once: true });
    });
  }
}
