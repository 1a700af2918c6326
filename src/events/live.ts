import type { ChangeSignal } from './signal';

// Following the change log: the entries after a cursor, then each new one as it commits.
// Read by seq from the log itself (the service layer's changesAfter, one statement per read),
// so a follower gets every committed entry once, in seq order, whatever notifications it
// missed: a wake-up only says when to read.

/** The few fields following needs; the entries themselves are passed on as they are. */
interface Sequenced {
  readonly seq: string;
  readonly resource: string;
}

export interface FollowOptions {
  /** Start after this seq; undefined: after the newest entry now (new entries only). */
  readonly after: bigint | undefined;
  /** Only entries of this resource (the cursor still moves past the others). */
  readonly resource: string | undefined;
}

export interface LiveSource<E extends Sequenced> {
  readonly read: (afterSeq: bigint, limit: number) => Promise<readonly E[]>;
  /** The newest seq now (0 when the log is empty). */
  readonly head: () => Promise<bigint>;
  readonly signal: ChangeSignal;
}

const BATCH = 100;

/** The iterator ends when return() is called (the subscription ends), at once, even while it waits. */
export function follow<E extends Sequenced>(src: LiveSource<E>, o: FollowOptions): AsyncIterableIterator<E> {
  const stop = new AbortController();
  const run = async function* (): AsyncGenerator<E> {
    let cursor = o.after ?? (await src.head());
    while (!stop.signal.aborted) {
      const mark = src.signal.mark();
      const batch = await src.read(cursor, BATCH);
      if (batch.length > 0) src.signal.found();
      for (const e of batch) {
        cursor = BigInt(e.seq);
        if (o.resource === undefined || e.resource === o.resource) yield e;
        if (stop.signal.aborted) return;
      }
      if (batch.length < BATCH) await src.signal.waitAfter(mark, stop.signal);
    }
  };
  const entries = run();
  return {
    next: () => entries.next(),
    async return() {
      stop.abort();
      return entries.return(undefined);
    },
    async throw(e?: unknown) {
      stop.abort();
      return entries.throw(e);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
