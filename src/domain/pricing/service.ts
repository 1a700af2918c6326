import type Decimal from 'decimal.js';
import { readRecords, type ReadQuery, type ReadRecord, type RelationRead } from '../../db/read/compile';
import type { RowReader } from '../../db/row-reader';
import { validationFailed } from '../../errors/catalogue';
import type { FieldCatalog } from '../../query/fields';
import { allOf, compare, instant, isIn, uuid, type FilterNode } from '../../query/filter-tree';
import type { ServiceDeps } from '../context';
import { isUuid } from '../../query/values';
import type { Resource } from '../common/declaration';
import { RESOURCES } from '../resources';
import { parseInput } from '../common/validate';
import { relationOf } from '../common/read-service';
import { DAY_MS, startOfUtcDay } from '../common/days';
import { exact, referenceDate, selectPrice } from './rules';
import {
  checkIdsExist,
  choosePrices,
  chooseTaxCodes,
  distinct,
  priceLines,
  type ArticleRow,
  type PriceRow,
  type QuoteData,
  type QuoteLineIn,
  type TaxCodeRow,
} from './quote-steps';
import { quoteInput } from './schema';
import { groupBy } from '../../lib/collections';
import type { Quote } from './types';

export interface EffectivePrice {
  readonly id: string;
  readonly articleId: string;
  readonly amount: Decimal;
  readonly validFrom: Date;
}

const ARTICLE = ['id', 'code', 'defaultTaxCodeId', 'defaultCostCenterId', 'useArticleCostCenter'] as const;
const PRICE = ['id', 'articleId', 'amount', 'validFrom'] as const;
const TAX_CODE = ['id', 'code', 'rate', 'isActive', 'validFrom', 'validTo'] as const;
const TERM = ['id', 'startDate', 'endDate'] as const;

/** An article as a quote reads it: with its default tax code, joined (one statement). */
type QuoteArticle = ArticleRow & { readonly defaultTaxCode: TaxCodeRow | null };

/**
 * Quotes: effective price, price guarantee, cost center, tax and academic term of each
 * line (rules in rules.ts). A quote of any size reads the database in at most four
 * statements, run together: its articles with their default tax codes, their candidate
 * prices, the tax codes the lines name (when they name any) and the terms around its billing
 * dates. It writes nothing; it reads through the compiled read path (src/db/read), outside
 * any transaction.
 */
export class PricingService {
  private readonly rows: RowReader;

  constructor(deps: ServiceDeps) {
    this.rows = deps.rows;
  }

  /** The `select`ed fields of the resource's records matching `filter` (with `more` of a read's options). */
  private records<F extends FieldCatalog, K extends keyof F & string, const Rs extends readonly RelationRead[] = readonly []>(
    resource: Resource<F>,
    select: readonly K[],
    filter: FilterNode,
    more: Partial<Pick<ReadQuery<F, K, Rs>, 'orderBy' | 'window' | 'relations'>> = {},
  ): Promise<Array<ReadRecord<F, K, Rs>>> {
    return readRecords(this.rows, { table: resource.model, fields: resource.fields, select, filter, orderBy: [], window: 'all', ...more });
  }

  /** Parse, load (at most four statements, run together), then the checks in the order they are reported, then the amounts. */
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

    const defaultTaxCode = relationOf(RESOURCES.Article, 'defaultTaxCode', TAX_CODE);
    const [articles, prices, givenTaxCodes, terms] = await Promise.all([
      // The articles with their default tax codes.
      this.records(RESOURCES.Article, ARTICLE, isIn('id', articleIds.map(uuid)), { relations: [defaultTaxCode] }),
      // Every price of these articles that can apply (validFrom up to the latest reference date).
      this.prices(articleIds, maxRef),
      // The tax codes the lines name.
      givenTaxCodeIds.length === 0 ? [] : this.records(RESOURCES.TaxCode, TAX_CODE, isIn('id', givenTaxCodeIds.map(uuid))),
      // Terms whose days may contain a billing date (termContaining decides exactly).
      this.records(
        RESOURCES.AcademicTerm,
        TERM,
        allOf(
          compare('startDate', 'lt', instant(new Date(startOfUtcDay(maxBilling).getTime() + DAY_MS))),
          compare('endDate', 'ge', instant(new Date(startOfUtcDay(minBilling).getTime() - DAY_MS))),
        ),
      ),
    ]);
    const read: QuoteArticle[] = articles;
    const taxCodes = [...givenTaxCodes, ...read.flatMap((a) => (a.defaultTaxCode ? [a.defaultTaxCode] : []))];
    return {
      articleById: new Map(read.map((a) => [a.id, a])),
      taxCodeById: new Map(taxCodes.map((t) => [t.id, t])),
      pricesByArticle: groupBy(prices, (p) => p.articleId),
      terms,
    };
  }

  /** Every price of these articles valid from `latest` or before, in no particular order. */
  private prices(articleIds: readonly string[], latest: Date): Promise<PriceRow[]> {
    return this.records(
      RESOURCES.ArticlePrice,
      PRICE,
      allOf(isIn('articleId', articleIds.map(uuid)), compare('validFrom', 'le', instant(latest))),
    );
  }

  /** The effective price of an article on a date (validFrom <= date, latest first); null when none or no such article. */
  async priceAt(articleId: string, date: Date): Promise<EffectivePrice | null> {
    checkDate(date);
    if (!isUuid(articleId)) return null;
    const filter = allOf(compare('articleId', 'eq', uuid(articleId.toLowerCase())), compare('validFrom', 'le', instant(date)));
    // The newest first: the order of an article's prices everywhere (Article.prices in its declaration).
    const [row] = await this.records(RESOURCES.ArticlePrice, PRICE, filter, {
      orderBy: RESOURCES.Article.relations.prices.order,
      window: { take: 1, skip: 0 },
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
    const rows = await this.prices(articleIds, maxDate);
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
