import { defineResource, one } from '../common/resource';
import { articlePriceFields } from './fields';

/** Prices are read through their article (`/article-prices?articleId=`, `Article.prices`), not as a collection of their own. */
export const articlePriceResource = defineResource({
  model: 'ArticlePrice',
  name: 'article-price',
  label: 'article price',
  fields: articlePriceFields,
  relations: {
    article: one('Article', 'articleId'),
  },
});
