import type Decimal from 'decimal.js';
import type { PrismaClient } from '../../generated/prisma/client';
import { validationFailed } from '../../errors/catalogue';
import type { ServiceDeps } from '../context';
import { isUuid } from '../../query/values';
import { parseInput } from '../common/validate';
import { DAY_MS, startOfUtcDay } from '../common/days';
import { exact, referenceDate, selectPrice } from './rules';
import {
  checkIdsExist,
  choosePrices,
  chooseTaxCodes,
  distinct,
  groupBy,
  priceLines,
  type ArticleRow,
  type PriceRow,
  type QuoteData,
  type QuoteLineIn,
  type TaxCodeRow,
} from './quote-steps';
import { quoteInput } from './schema';
import { NEWEST_FIRST } from '../article-price/order';
import type { Quote } from './types';

export interface EffectivePrice {
  readonly id: string;
  readonly articleId: string;
  readonly amount: Decimal;
  readonly validFrom: Date;
}

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

  /** Parse, load (four queries, run together), then the checks in the order they are reported, then the amounts. */
  async quote(body: unknown): Promise<Quote> {
    const { lines } = parseInput(quoteInput, body);
    const refDates = lines.map((l) => referenceDate(l.billingDate, l.priceGuaranteeDate));
    const data = await this.load(lines, refDates);
    checkIdsExist(lines, data);
    const prices = choosePrices(lines, refDates, data);
    const taxCodes = chooseTaxCodes(lines, data);
    return priceLines(lines, refDates, prices, taxCodes, data);
  }

  /** What a quote reads: its articles, their candidate prices, the tax codes it may use and the terms around its billing dates. */
  private async load(lines: readonly QuoteLineIn[], refDates: readonly Date[]): Promise<QuoteData> {
    const articleIds = distinct(lines.map((l) => l.articleId));
    const givenTaxCodeIds = distinct(lines.flatMap((l) => (l.taxCodeId ? [l.taxCodeId] : [])));
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
    return {
      articleById: new Map(articles.map((a) => [a.id, a])),
      taxCodeById: new Map(taxCodes.map((t) => [t.id, t])),
      pricesByArticle: groupBy(prices, (p) => p.articleId),
      terms,
    };
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
