import type { RecordOf } from '../common/read-service';
import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import type { articlePriceFields } from './fields';
import { articlePriceResource } from './resource';

export type ArticlePrice = RecordOf<typeof articlePriceFields>;

/** Prices as a resource of their own (GraphQL `articlePrices`, `articlePrice(id:)`); an article's prices are read through it (ArticleService.pricesOf). */
export class ArticlePriceService extends ReadService<typeof articlePriceFields> {
  constructor(deps: ServiceDeps) {
    super(deps, articlePriceResource);
  }
}
