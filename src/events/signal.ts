// "The log may have grown": woken by the database's notification after a change-log insert
// commits (./live.ts), on every instance. A wake-up carries nothing: readers always read the
// log by seq, so a lost or merged notification costs at most the next poll, never an entry.

export class ChangeSignal {
  private waiters = new Set<() => void>();

  /** Wakes everyone waiting in next(). */
  notify(): void {
    const woken = this.waiters;
    this.waiters = new Set();
    for (const wake of woken) wake();
  }

  /** Resolves at the next notify(), after `timeoutMs` (the safety poll), or when `abort` fires. */
  next(timeoutMs: number, abort?: AbortSignal): Promise<void> {
    if (abort?.aborted) return Promise.resolve();
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
