import type { Prisma, PrismaClient } from '../../generated/prisma/client';
import { notFound } from '../../errors/catalogue';
import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import { articlePriceFields } from './fields';
import { parseId } from '../common/validate';
import { NEWEST_FIRST } from './order';

export type ArticlePrice = Prisma.ArticlePriceGetPayload<object>;


export class ArticlePriceService extends ReadService<ArticlePrice> {
  private readonly prisma: PrismaClient;

  constructor(deps: ServiceDeps) {
    super(deps.prisma.articlePrice, articlePriceFields, 'article price');
    this.prisma = deps.prisma;
  }

  /** GET /article-prices?articleId=: the article's prices, newest validFrom first. */
  async forArticle(rawArticleId: unknown): Promise<ArticlePrice[]> {
    const articleId = parseId(rawArticleId, 'articleId');
    const [article, prices] = await Promise.all([
      this.prisma.article.findUnique({ where: { id: articleId }, select: { id: true } }),
      this.prisma.articlePrice.findMany({ where: { articleId }, orderBy: [...NEWEST_FIRST] }),
    ]);
    if (!article) throw notFound('article', articleId);
    return prices;
  }

  /** For batching: the prices of many articles, newest first within each article. */
  forArticles(articleIds: readonly string[]): Promise<ArticlePrice[]> {
    return this.prisma.articlePrice.findMany({ where: { articleId: { in: [...articleIds] } }, orderBy: [...NEWEST_FIRST] });
  }
}
