import { inspect } from 'node:util';

// The one way tests wait: for a condition, polled, with a deadline. A fixed sleep is either
// too short on a loaded machine or longer than the condition needs.

export interface UntilOptions {
  /** Longest wait; default 60 s. */
  readonly timeoutMs?: number;
  /** Pause between probes; default 100 ms. */
  readonly everyMs?: number;
  /** Added to the timeout's message (what was last seen). */
  readonly detail?: () => string;
}

/**
 * Resolves with the first value `probe` gives that is neither undefined nor false, probing
 * every `everyMs`. A probe that throws has not seen the condition yet (a service that is
 * restarting refuses connections); the last error is in the timeout's message.
 */
export async function until<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  o: UntilOptions = {},
): Promise<T> {
  const timeoutMs = o.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  let failure: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (e) {
      failure = e;
    }
    if (Date.now() > deadline) {
      const last = failure === undefined ? '' : `\nlast error: ${failure instanceof Error ? failure.message : inspect(failure)}`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last}${o.detail ? `\n${o.detail()}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, o.everyMs ?? 100));
  }
}
