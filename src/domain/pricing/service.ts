import type Decimal from 'decimal.js';
import type { PrismaClient } from '../../generated/prisma/client';
import { AppError, validationFailed, type FieldError } from '../../errors/catalogue';
import type { ServiceDeps } from '../context';
import { isUuid } from '../../query/values';
import { parseInput } from '../common/validate';
import { termContaining } from '../academic-term/rules';
import { DAY_MS, startOfUtcDay } from '../common/days';
import {
  costCenter,
  exact,
  lineAmounts,
  referenceDate,
  selectPrice,
  taxCodeIdFor,
  taxCodeProblem,
  totals,
  type TaxCodeProblem,
} from './rules';
import { quoteInput } from './schema';
import { NEWEST_FIRST } from '../article-price/order';
import type { Quote, QuoteLine } from './types';

/** A line amount must fit the money columns (numeric(19,4)): below 10^15. */
const MAX_AMOUNT = exact('1e15');

export interface EffectivePrice {
  readonly id: string;
  readonly articleId: string;
  readonly amount: Decimal;
  readonly validFrom: Date;
}

interface ArticleRow {
  id: string;
  code: string;
  defaultTaxCodeId: string | null;
  defaultCostCenterId: string | null;
  useArticleCostCenter: boolean;
}

interface TaxCodeRow {
  id: string;
  code: string;
  rate: { toFixed(): string };
  isActive: boolean;
  validFrom: Date;
  validTo: Date | null;
}

interface PriceRow {
  id: string;
  articleId: string;
  amount: { toFixed(): string };
  validFrom: Date;
}

const iso = (d: Date): string => d.toISOString();

/**
 * Quotes: effective price, price guarantee, cost center, tax and academic term of each
 * line (rules in rules.ts). A quote of any size reads the database in four queries, run
 * together: its articles, their candidate prices, the tax codes it may use and the terms
 * around its billing dates. It writes nothing.
 */
export class PricingService {
  private readonly prisma: PrismaClient;

  constructor(deps: ServiceDeps) {
    this.prisma = deps.prisma;
  }

  async quote(body: unknown): Promise<Quote> {
    const input = parseInput(quoteInput, body);
    const lines = input.lines;

    const articleIds = distinct(lines.map((l) => l.articleId));
    const givenTaxCodeIds = distinct(lines.flatMap((l) => (l.taxCodeId ? [l.taxCodeId] : [])));
    const refDates = lines.map((l) => referenceDate(l.billingDate, l.priceGuaranteeDate));
    const maxRef = new Date(Math.max(...refDates.map((d) => d.getTime())));
    const billingTimes = lines.map((l) => l.billingDate.getTime());
    const minBilling = new Date(Math.min(...billingTimes));
    const maxBilling = new Date(Math.max(...billingTimes));

    const [articles, prices, taxCodes, terms] = await Promise.all([
      this.prisma.article.findMany({
        where: { id: { in: articleIds } },
        select: { id: true, code: true, defaultTaxCodeId: true, defaultCostCenterId: true, useArticleCostCenter: true },
      }) as Promise<ArticleRow[]>,
      // Every price of these articles that can apply (validFrom up to the latest reference date).
      this.prisma.articlePrice.findMany({
        where: { articleId: { in: articleIds }, validFrom: { lte: maxRef } },
        select: { id: true, articleId: true, amount: true, validFrom: true },
      }) as Promise<PriceRow[]>,
      // The tax codes the lines name, and the default tax codes of their articles.
      this.prisma.taxCode.findMany({
        where: { OR: [{ id: { in: givenTaxCodeIds } }, { articles: { some: { id: { in: articleIds } } } }] },
        select: { id: true, code: true, rate: true, isActive: true, validFrom: true, validTo: true },
      }) as Promise<TaxCodeRow[]>,
      // Terms whose days may contain a billing date (termContaining decides exactly).
      this.prisma.academicTerm.findMany({
        where: {
          startDate: { lt: new Date(startOfUtcDay(maxBilling).getTime() + DAY_MS) },
          endDate: { gte: new Date(startOfUtcDay(minBilling).getTime() - DAY_MS) },
        },
        select: { id: true, startDate: true, endDate: true },
      }),
    ]);

    const articleById = new Map(articles.map((a) => [a.id, a]));
    const taxCodeById = new Map(taxCodes.map((t) => [t.id, t]));
    const pricesByArticle = groupBy(prices, (p) => p.articleId);

    // 1. Ids that name nothing: VALIDATION_FAILED naming every such field.
    const invalid: FieldError[] = [];
    lines.forEach((l, i) => {
      if (!articleById.has(l.articleId)) invalid.push({ field: `lines[${i}].articleId`, message: `no article with id ${l.articleId}` });
      if (l.taxCodeId && !taxCodeById.has(l.taxCodeId))
        invalid.push({ field: `lines[${i}].taxCodeId`, message: `no tax code with id ${l.taxCodeId}` });
    });
    if (invalid.length > 0) throw validationFailed(invalid);

    // 2. Prices: NO_PRICE naming every line without one.
    const chosen = lines.map((l, i) => selectPrice(pricesByArticle.get(l.articleId) ?? [], refDates[i]!));
    const noPrice: FieldError[] = [];
    lines.forEach((l, i) => {
      if (chosen[i]) return;
      const article = articleById.get(l.articleId)!;
      const field = l.priceGuaranteeDate ? `lines[${i}].priceGuaranteeDate` : `lines[${i}].billingDate`;
      noPrice.push({ field, message: `article ${article.code} (${article.id}) has no price valid on ${iso(refDates[i]!)}` });
    });
    if (noPrice.length > 0) throw new AppError('NO_PRICE', describe(noPrice), noPrice);

    // 3. Tax codes, on the billing date: NO_TAX_CODE naming every line without a usable one.
    const noTax: FieldError[] = [];
    const lineTaxCodes = lines.map((l, i) => {
      const article = articleById.get(l.articleId)!;
      const id = taxCodeIdFor(article, l.taxCodeId);
      const field = `lines[${i}].taxCodeId`;
      const taxCode = id === null ? undefined : taxCodeById.get(id);
      if (!taxCode) {
        noTax.push({ field, message: `article ${article.code} (${article.id}) has no default tax code; the line must name taxCodeId` });
        return null;
      }
      const problem = taxCodeProblem(taxCode, l.billingDate);
      if (problem) {
        noTax.push({ field, message: taxProblemMessage(taxCode, problem, l.billingDate, l.taxCodeId === undefined ? article.code : null) });
        return null;
      }
      return taxCode;
    });
    if (noTax.length > 0) throw new AppError('NO_TAX_CODE', describe(noTax), noTax);

    // 4. Amounts.
    const tooLarge: FieldError[] = [];
    const out: QuoteLine[] = lines.map((l, i) => {
      const article = articleById.get(l.articleId)!;
      const price = chosen[i]!;
      const taxCode = lineTaxCodes[i]!;
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
        academicTermId: termContaining(terms, l.billingDate)?.id ?? null,
      };
    });
    if (tooLarge.length > 0) throw validationFailed(tooLarge);

    return { lines: out, totals: totals(out) };
  }

  /** The effective price of an article on a date (validFrom <= date, latest first); null when none or no such article. */
  async priceAt(articleId: string, date: Date): Promise<EffectivePrice | null> {
    checkDate(date);
    if (!isUuid(articleId)) return null;
    const row = await this.prisma.articlePrice.findFirst({
      where: { articleId: articleId.toLowerCase(), validFrom: { lte: date } },
      orderBy: NEWEST_FIRST,
      select: { id: true, articleId: true, amount: true, validFrom: true },
    });
    return row ? toEffectivePrice(row) : null;
  }

  /**
   * Batched priceAt (for a DataLoader): the effective price of each (articleId, date), in
   * the order asked, in one query whatever the number of requests.
   */
  async pricesAt(requests: readonly { readonly articleId: string; readonly date: Date }[]): Promise<(EffectivePrice | null)[]> {
    for (const r of requests) checkDate(r.date);
    const wanted = requests.filter((r) => isUuid(r.articleId));
    if (wanted.length === 0) return requests.map(() => null);
    const articleIds = distinct(wanted.map((r) => r.articleId.toLowerCase()));
    const maxDate = new Date(Math.max(...wanted.map((r) => r.date.getTime())));
    const rows = (await this.prisma.articlePrice.findMany({
      where: { articleId: { in: articleIds }, validFrom: { lte: maxDate } },
      select: { id: true, articleId: true, amount: true, validFrom: true },
    })) as PriceRow[];
    const byArticle = groupBy(rows, (p) => p.articleId);
    return requests.map((r) => {
      if (!isUuid(r.articleId)) return null;
      const p = selectPrice(byArticle.get(r.articleId.toLowerCase()) ?? [], r.date);
      return p ? toEffectivePrice(p) : null;
    });
  }
}

function toEffectivePrice(p: PriceRow): EffectivePrice {
  return { id: p.id, articleId: p.articleId, amount: exact(p.amount), validFrom: p.validFrom };
}

function checkDate(date: Date): void {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) throw validationFailed([{ field: 'date', message: 'is not a valid date' }]);
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

const describe = (errors: readonly FieldError[]): string => errors.map((e) => `${e.field}: ${e.message}`).join('; ');

function distinct<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

function groupBy<T>(values: readonly T[], key: (v: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const v of values) {
    const k = key(v);
    const list = out.get(k);
    if (list) list.push(v);
    else out.set(k, [v]);
  }
  return out;
}

