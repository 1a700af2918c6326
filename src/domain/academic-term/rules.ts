import { withinDays } from '../common/days';

// Which academic term a date belongs to, as a pure function (quotes use it).

export interface TermLike {
  readonly id: string;
  readonly startDate: Date;
  readonly endDate: Date;
}

/**
 * The term whose days contain `at`: the days from its startDate's day through its
 * endDate's day (endDate names the term's last day, all of which belongs to it). The
 * latest-starting one if several, then the smallest id; null when none.
 */
export function termContaining<T extends TermLike>(terms: readonly T[], at: Date): T | null {
  let best: T | null = null;
  for (const term of terms) {
    if (!withinDays(at, term.startDate, term.endDate)) continue;
    if (
      best === null ||
      term.startDate.getTime() > best.startDate.getTime() ||
      (term.startDate.getTime() === best.startDate.getTime() && term.id < best.id)
    )
      best = term;
  }
  return best;
}

/** A term ends on or after its start. */
export const termDatesOk = (t: { readonly startDate: Date; readonly endDate: Date }): boolean => t.endDate >= t.startDate;
