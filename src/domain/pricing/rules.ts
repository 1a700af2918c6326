import Decimal from 'decimal.js';
import { startOfUtcDay, withinDays } from '../common/days';

// The pricing rules (docs/api-notes.md "Quotes") as pure
// functions: no database, no clock. PricingService loads the data and calls these.
//
// Dates
// - Every date is an instant. A date-only input ("2026-04-01") means midnight UTC of that day.
// - Price: the price with the latest validFrom <= reference date applies, compared by
//   instant; a price whose validFrom equals the reference date applies (the boundary is
//   included). A price valid from 2026-04-01T00:00:00Z therefore applies to any billing
//   date on 2026-04-01, with or without a time of day.
// - Reference date of the price: the price-guarantee date when the line gives one (the
//   contract's reference date, e.g. matriculation), else the billing date.
// - Tax codes and academic terms are periods of whole UTC days: a tax code is valid on the
//   days from the day of validFrom through the day of validTo, both included (validTo
//   2020-12-31 covers all of 31 December 2020; null = open-ended); it must also be active.
//   An academic term covers the days from its startDate's day through its endDate's day
//   (academic-term/rules.ts; whole-day periods in common/days.ts).
// - The tax code follows the billing date (the time of supply), never the guarantee date:
//   a price guarantee fixes the price, not the tax law.
//
// Amounts (exact decimals, never JavaScript floats)
// - netAmount = unitPrice × quantity, rounded half-up to 2 decimals;
// - taxAmount = netAmount × taxRate / 100, rounded half-up to 2 decimals (per line);
// - grossAmount = netAmount + taxAmount; totals are the sums of the rounded line amounts.

/**
 * decimal.js with room for every intermediate product without rounding: a 19-digit unit
 * price × a 15-digit quantity × a 7-digit rate needs 41 significant digits; 80 are kept.
 * Instances are ordinary decimal.js Decimals (Decimal.isDecimal holds).
 */
export const Exact = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -100, toExpPos: 100 });

export const MONEY_SCALE = 2;

/** An exact decimal from its text (or another decimal.js/Prisma Decimal), never via a float. */
export function exact(value: string | { toFixed(): string }): Decimal {
  return new Exact(typeof value === 'string' ? value : value.toFixed());
}

/** Half-up (away from zero) to 2 decimals. */
export function roundMoney(d: Decimal): Decimal {
  return new Exact(d).toDecimalPlaces(MONEY_SCALE, Decimal.ROUND_HALF_UP);
}

// ---------------------------------------------------------------------------------------
// Price

export interface PriceLike {
  readonly id: string;
  readonly validFrom: Date;
}

/** The price with the latest validFrom on or before `at` (instant comparison, boundary included); null when none. */
export function selectPrice<P extends PriceLike>(prices: readonly P[], at: Date): P | null {
  const t = at.getTime();
  let best: P | null = null;
  for (const p of prices) {
    const from = p.validFrom.getTime();
    if (from > t) continue;
    if (best === null) {
      best = p;
      continue;
    }
    const bestFrom = best.validFrom.getTime();
    // (articleId, validFrom) is unique in the database; the id breaks a tie deterministically anyway.
    if (from > bestFrom || (from === bestFrom && p.id < best.id)) best = p;
  }
  return best;
}

/** The date the price is chosen for: the guarantee (contract) date when given, else the billing date. */
export function referenceDate(billingDate: Date, priceGuaranteeDate?: Date | null): Date {
  return priceGuaranteeDate ?? billingDate;
}

// ---------------------------------------------------------------------------------------
// Cost center

export interface CostCenterArticle {
  readonly defaultCostCenterId: string | null;
  readonly useArticleCostCenter: boolean;
}

/** The line's cost center when given, else the article's; with useArticleCostCenter always the article's. */
export function costCenter(article: CostCenterArticle, lineCostCenterId?: string | null): string | null {
  if (article.useArticleCostCenter) return article.defaultCostCenterId;
  return lineCostCenterId ?? article.defaultCostCenterId;
}

// ---------------------------------------------------------------------------------------
// Tax code

export interface TaxCodeLike {
  readonly id: string;
  readonly isActive: boolean;
  readonly validFrom: Date;
  readonly validTo: Date | null;
}

export type TaxCodeProblem = 'inactive' | 'not-yet-valid' | 'expired';

/** Why the tax code cannot be used on `at`, or null when it is active and valid on that day. */
export function taxCodeProblem(taxCode: TaxCodeLike, at: Date): TaxCodeProblem | null {
  if (!taxCode.isActive) return 'inactive';
  if (at.getTime() < startOfUtcDay(taxCode.validFrom).getTime()) return 'not-yet-valid';
  if (!withinDays(at, taxCode.validFrom, taxCode.validTo)) return 'expired';
  return null;
}

/** The tax code id a line uses: its own taxCodeId when given, else the article's default (null: none). */
export function taxCodeIdFor(article: { readonly defaultTaxCodeId: string | null }, lineTaxCodeId?: string | null): string | null {
  return lineTaxCodeId ?? article.defaultTaxCodeId;
}

// ---------------------------------------------------------------------------------------
// Amounts

export interface LineAmounts {
  readonly netAmount: Decimal;
  readonly taxAmount: Decimal;
  readonly grossAmount: Decimal;
}

/** net = round(unitPrice × quantity), tax = round(net × rate / 100), gross = net + tax; half-up, 2 decimals. */
export function lineAmounts(unitPrice: Decimal, quantity: Decimal, taxRate: Decimal): LineAmounts {
  const netAmount = roundMoney(new Exact(unitPrice).times(new Exact(quantity)));
  const taxAmount = roundMoney(netAmount.times(new Exact(taxRate)).dividedBy(100));
  return { netAmount, taxAmount, grossAmount: netAmount.plus(taxAmount) };
}

/** The sums of the (already rounded) line amounts. */
export function totals(lines: readonly LineAmounts[]): LineAmounts {
  let net = new Exact(0);
  let tax = new Exact(0);
  let gross = new Exact(0);
  for (const l of lines) {
    net = net.plus(l.netAmount);
    tax = tax.plus(l.taxAmount);
    gross = gross.plus(l.grossAmount);
  }
  return { netAmount: net, taxAmount: tax, grossAmount: gross };
}
