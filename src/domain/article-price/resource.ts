import { defineResource, one } from '../common/declaration';
import { naturalKey } from '../common/natural-key';
import { articlePriceFields } from './fields';
import { articlePriceInput, articlePriceRecord } from './schema';

/** Prices are read through their article (`/article-prices?articleId=`, `Article.prices`), not as a collection of their own. */
export const articlePriceResource = defineResource({
  model: 'ArticlePrice',
  collection: false,
  fields: articlePriceFields,
  record: articlePriceRecord,
  input: articlePriceInput,
  relations: {
    article: one('Article', 'articleId'),
  },
  import: { unique: naturalKey.perParent('articleId', 'validFrom', 'price') },
});
