import { ReadService, relationOf, type RelationOf } from '../common/read-service';
import { parseId } from '../common/validate';
import type { ServiceDeps } from '../context';
import type { ArticlePrice } from '../article-price/fields';
import type { articleFields } from './fields';
import { articleResource } from './resource';

export class ArticleService extends ReadService<typeof articleFields> {
  /** The same reads, each article with its prices inside, newest validFrom first (GraphQL, when prices are selected). */
  readonly withPrices: ReadService<typeof articleFields, readonly [RelationOf<typeof articleResource, 'prices'>]>;

  constructor(deps: ServiceDeps) {
    super(deps, articleResource, { inline: [] });
    this.withPrices = new ReadService(deps, articleResource, { inline: [relationOf(articleResource, 'prices')] });
  }

  /** GET /article-prices?articleId=: the article's prices, newest validFrom first (one statement: the article with its prices). */
  async pricesOf(rawArticleId: unknown): Promise<ArticlePrice[]> {
    return (await this.withPrices.get(parseId(rawArticleId, 'articleId'))).prices;
  }
}
