// "The log may have grown": woken by the database's notification after a change-log insert
// commits (./live.ts), on every instance. A wake-up carries nothing: readers always read the
// log by seq, so a lost or merged notification costs at most the next poll, never an entry.
//
// A reader takes `heard` before it reads and passes it to next() after: a notification that
// arrived while it read (its entry perhaps committed after the read's snapshot) makes next()
// return at once instead of being lost to a waiter that was not yet registered.

export class ChangeSignal {
  private waiters = new Set<() => void>();
  private count = 0;

  /** How many notifications have arrived: take it before reading the log. */
  get heard(): number {
    return this.count;
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
   * notify(), after `timeoutMs` (the safety poll), or when `abort` fires.
   */
  next(heard: number, timeoutMs: number, abort?: AbortSignal): Promise<void> {
    if (abort?.aborted || this.count !== heard) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        abort?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
      abort?.addEventListener('abort', done, { once: true });
    });
  }
}
