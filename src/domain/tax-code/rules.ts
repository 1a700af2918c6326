import Decimal from 'decimal.js';

// The rules of tax codes as pure functions: the record schema (API and import) and the
// write path decide with them; the database keeps them too (CHECKs, and an exclusion
// constraint for the periods of one code).

/** A tax code's period: from validFrom through validTo (open-ended without one). */
export interface PeriodLike {
  readonly validFrom: Date;
  readonly validTo: Date | null;
}

export const validityOk = (t: PeriodLike): boolean => t.validTo === null || t.validTo >= t.validFrom;

/** What is wrong with a rate for a tax type (a percentage from 0 to 100; Exempt taxes nothing); undefined when nothing. */
export function rateFault(rate: string, taxType: string): string | undefined {
  const r = new Decimal(rate);
  if (r.isNegative() || r.greaterThan(100)) return 'must be from 0 to 100';
  if (taxType === 'Exempt' && !r.isZero()) return 'must be 0 for an Exempt tax code';
  return undefined;
}

/** Whether two closed periods share an instant (the database's tstzrange(validFrom, validTo, '[]') &&). */
export function periodsOverlap(a: PeriodLike, b: PeriodLike): boolean {
  const aEnd = a.validTo?.getTime() ?? Infinity;
  const bEnd = b.validTo?.getTime() ?? Infinity;
  return a.validFrom.getTime() <= bEnd && b.validFrom.getTime() <= aEnd;
}
