import type { z } from 'zod';
import { AppError, validationFailed, type FieldError } from '../../errors/catalogue';
import { termContaining, type TermLike } from '../academic-term/rules';
import { startOfUtcDay } from '../common/days';
import { costCenter, exact, lineAmounts, selectPrice, taxCodeIdFor, taxCodeProblem, totals, type TaxCodeProblem } from './rules';
import type { quoteLineInput } from './schema';
import type { Quote, QuoteLine } from './types';

// The steps of a quote after PricingService has loaded its data: pure (no database, no
// clock), each reporting every line it refuses at once, in the order a client fixes them:
// ids that name nothing, then prices, then tax codes, then amounts too large to store.

export type QuoteLineIn = z.output<typeof quoteLineInput>;

export interface ArticleRow {
  id: string;
  code: string;
  defaultTaxCodeId: string | null;
  defaultCostCenterId: string | null;
  useArticleCostCenter: boolean;
}

export interface TaxCodeRow {
  id: string;
  code: string;
  rate: { toFixed(): string };
  isActive: boolean;
  validFrom: Date;
  validTo: Date | null;
}

export interface PriceRow {
  id: string;
  articleId: string;
  amount: { toFixed(): string };
  validFrom: Date;
}

/** What a quote reads, by id. */
export interface QuoteData {
  readonly articleById: ReadonlyMap<string, ArticleRow>;
  readonly taxCodeById: ReadonlyMap<string, TaxCodeRow>;
  readonly pricesByArticle: ReadonlyMap<string, PriceRow[]>;
  readonly terms: readonly TermLike[];
}

/** A line amount must fit the money columns (numeric(19,4)): below 10^15. */
const MAX_AMOUNT = exact('1e15');

const iso = (d: Date): string => d.toISOString();
const describe = (errors: readonly FieldError[]): string => errors.map((e) => `${e.field}: ${e.message}`).join('; ');

/** 1. Ids that name nothing: VALIDATION_FAILED naming every such field. */
export function checkIdsExist(lines: readonly QuoteLineIn[], data: QuoteData): void {
  const invalid: FieldError[] = [];
  lines.forEach((l, i) => {
    if (!data.articleById.has(l.articleId)) invalid.push({ field: `lines[${i}].articleId`, message: `no article with id ${l.articleId}` });
    if (l.taxCodeId && !data.taxCodeById.has(l.taxCodeId))
      invalid.push({ field: `lines[${i}].taxCodeId`, message: `no tax code with id ${l.taxCodeId}` });
  });
  if (invalid.length > 0) throw validationFailed(invalid);
}

/** 2. Prices on each line's reference date: NO_PRICE naming every line without one. */
export function choosePrices(lines: readonly QuoteLineIn[], refDates: readonly Date[], data: QuoteData): PriceRow[] {
  const noPrice: FieldError[] = [];
  const chosen: PriceRow[] = [];
  lines.forEach((l, i) => {
    const price = selectPrice(data.pricesByArticle.get(l.articleId) ?? [], refDates[i]!);
    if (price) {
      chosen.push(price);
      return;
    }
    const article = data.articleById.get(l.articleId)!;
    const field = l.priceGuaranteeDate ? `lines[${i}].priceGuaranteeDate` : `lines[${i}].billingDate`;
    noPrice.push({ field, message: `article ${article.code} (${article.id}) has no price valid on ${iso(refDates[i]!)}` });
  });
  if (noPrice.length > 0) throw new AppError('NO_PRICE', describe(noPrice), noPrice);
  return chosen;
}

/** 3. Tax codes, on the billing date: NO_TAX_CODE naming every line without a usable one. */
export function chooseTaxCodes(lines: readonly QuoteLineIn[], data: QuoteData): TaxCodeRow[] {
  const noTax: FieldError[] = [];
  const chosen: TaxCodeRow[] = [];
  lines.forEach((l, i) => {
    const article = data.articleById.get(l.articleId)!;
    const id = taxCodeIdFor(article, l.taxCodeId);
    const field = `lines[${i}].taxCodeId`;
    const taxCode = id === null ? undefined : data.taxCodeById.get(id);
    if (!taxCode) {
      noTax.push({ field, message: `article ${article.code} (${article.id}) has no default tax code; the line must name taxCodeId` });
      return;
    }
    const problem = taxCodeProblem(taxCode, l.billingDate);
    if (problem)
      noTax.push({ field, message: taxProblemMessage(taxCode, problem, l.billingDate, l.taxCodeId === undefined ? article.code : null) });
    else chosen.push(taxCode);
  });
  if (noTax.length > 0) throw new AppError('NO_TAX_CODE', describe(noTax), noTax);
  return chosen;
}

/** 4. Amounts, cost center and term of each line, and the totals: VALIDATION_FAILED naming every line too large to store. */
export function priceLines(
  lines: readonly QuoteLineIn[],
  refDates: readonly Date[],
  prices: readonly PriceRow[],
  taxCodes: readonly TaxCodeRow[],
  data: QuoteData,
): Quote {
  const tooLarge: FieldError[] = [];
  const out: QuoteLine[] = lines.map((l, i) => {
    const article = data.articleById.get(l.articleId)!;
    const price = prices[i]!;
    const taxCode = taxCodes[i]!;
    const quantity = exact(l.quantity);
    const unitPrice = exact(price.amount);
    const taxRate = exact(taxCode.rate);
    const amounts = lineAmounts(unitPrice, quantity, taxRate);
    if (amounts.grossAmount.abs().greaterThanOrEqualTo(MAX_AMOUNT))
      tooLarge.push({ field: `lines[${i}].quantity`, message: 'the line amount is too large (it must stay below 10^15)' });
    return {
      articleId: article.id,
      quantity,
      billingDate: l.billingDate,
      referenceDate: refDates[i]!,
      priceId: price.id,
      unitPrice,
      netAmount: amounts.netAmount,
      taxCodeId: taxCode.id,
      taxRate,
      taxAmount: amounts.taxAmount,
      grossAmount: amounts.grossAmount,
      costCenterId: costCenter(article, l.costCenterId),
      academicTermId: termContaining(data.terms, l.billingDate)?.id ?? null,
    };
  });
  if (tooLarge.length > 0) throw validationFailed(tooLarge);
  return { lines: out, totals: totals(out) };
}

function taxProblemMessage(t: TaxCodeRow, problem: TaxCodeProblem, billingDate: Date, defaultOf: string | null): string {
  const which = defaultOf ? `the default tax code ${t.code} (${t.id}) of article ${defaultOf}` : `tax code ${t.code} (${t.id})`;
  switch (problem) {
    case 'inactive':
      return `${which} is inactive`;
    case 'not-yet-valid':
      return `${which} is not valid before ${iso(startOfUtcDay(t.validFrom))}; billing date ${iso(billingDate)}`;
    case 'expired':
      return `${which} expired after ${iso(startOfUtcDay(t.validTo!))}; billing date ${iso(billingDate)}`;
  }
}

export function distinct<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
