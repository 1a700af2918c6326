import type { Prisma } from '../../generated/prisma/client';
import type { PageRelation } from '../../db/query/page-sql';
import { NEWEST_FIRST } from '../article-price/order';
import { articlePriceFields } from '../article-price/fields';
import { ReadService } from '../common/read-service';
import type { Page, ListQuery } from '../common/list';
import type { ServiceDeps } from '../context';
import { articleFields } from './fields';

export type Article = Prisma.ArticleGetPayload<object>;
export type ArticleWithPrices = Prisma.ArticleGetPayload<{ include: { prices: true } }>;

const PRICES: PageRelation = { name: 'prices', table: 'ArticlePrice', foreignKey: 'articleId', fields: articlePriceFields, orderBy: NEWEST_FIRST };

export class ArticleService extends ReadService<Article> {
  private readonly withPrices: ReadService<ArticleWithPrices>;

  constructor(deps: ServiceDeps) {
    super(deps.prisma.article, articleFields, 'article', { prisma: deps.prisma, table: 'Article', relations: [] });
    this.withPrices = new ReadService<ArticleWithPrices>(deps.prisma.article, articleFields, 'article', {
      prisma: deps.prisma,
      table: 'Article',
      relations: [PRICES],
    });
  }

  /** Articles with their prices inside the record, newest validFrom first (GraphQL, when prices are selected). */
  listWithPrices(q: ListQuery): Promise<Page<ArticleWithPrices>> {
    return this.withPrices.list(q);
  }
}
