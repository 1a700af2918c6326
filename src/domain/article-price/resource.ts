import { defineResource, one } from '../common/declaration';
import { naturalKey } from '../common/natural-key';
import { articlePriceFields } from './fields';
import { articlePriceRecord } from './schema';

/** Prices are read through their article (`/article-prices?articleId=`, `Article.prices`), not as a collection of their own. */
export const articlePriceResource = defineResource({
  model: 'ArticlePrice',
  collection: false,
  fields: articlePriceFields,
  record: articlePriceRecord,
  relations: {
    article: one('Article', 'articleId'),
  },
  import: { unique: naturalKey.perParent('articleId', 'validFrom', 'price') },
});
