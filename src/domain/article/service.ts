import type { Prisma, PrismaClient } from '../../generated/prisma/client';
import type { ModelDelegate } from '../../db/query/model';
import type { PageRelation } from '../../db/query/page-sql';
import { NEWEST_FIRST } from '../article-price/order';
import { articlePriceFields } from '../article-price/fields';
import { tablePages } from '../common/list';
import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import type { ArticlePrice } from '../article-price/service';
import type { DecimalValue } from '../../query/values';
import { articleFields } from './fields';
import { expandableRelations, RESOURCES } from '../resources';

export type Article = Prisma.ArticleGetPayload<object>;
/** An article with its prices; a list page gives the amounts as exact text (DecimalText), Prisma as Decimals. */
export type ArticleWithPrices = Article & { prices: Array<Omit<ArticlePrice, 'amount'> & { amount: DecimalValue }> };

const RELATIONS = expandableRelations(RESOURCES.Article);
const WITH_PRICES = { prices: { orderBy: [...NEWEST_FIRST] } } satisfies Prisma.ArticleInclude;
const PRICES: PageRelation = { name: 'prices', table: 'ArticlePrice', foreignKey: 'articleId', fields: articlePriceFields, orderBy: NEWEST_FIRST };

/** Articles with their prices inside the record, newest validFrom first (GraphQL, when prices are selected). */
function withPrices(prisma: PrismaClient): ModelDelegate<'Article', ArticleWithPrices> {
  return {
    findMany: (args) => prisma.article.findMany({ ...args, include: { ...WITH_PRICES, ...args.include } }),
    findUnique: (args) => prisma.article.findUnique({ ...args, include: { ...WITH_PRICES, ...args.include } }),
    count: (args) => prisma.article.count(args),
  };
}

export class ArticleService extends ReadService<'Article', Article> {
  /** The same reads, each article with its prices. */
  readonly withPrices: ReadService<'Article', ArticleWithPrices>;

  constructor(deps: ServiceDeps) {
    const ids = deps.prisma.article;
    super(ids, articleFields, 'article', tablePages(deps.rows, 'Article', ids), RELATIONS);
    this.withPrices = new ReadService(withPrices(deps.prisma), articleFields, 'article', tablePages(deps.rows, 'Article', ids, { relations: [PRICES] }), RELATIONS);
  }
}
