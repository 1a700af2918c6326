import { defineResource, one } from '../common/declaration';
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
  import: {
    unique: {
      field: 'validFrom',
      // Only of a valid record: "articleId validFrom" with the instant in ISO form.
      text: (r) => (r.validFrom instanceof Date && typeof r.articleId === 'string' ? `${r.articleId} ${r.validFrom.toISOString()}` : undefined),
      key: (t) => t,
      match: `t."articleId" = split_part(f.key, ' ', 1)::uuid AND t."validFrom" = split_part(f.key, ' ', 2)::timestamptz`,
      // Distinct instants no price uses: the first milliseconds of year 1, one per row.
      moveAside: `"validFrom" = timestamptz '0001-01-01T00:00:00Z' + f.n * interval '1 millisecond'`,
      inFile: (t, other) => `the article already has a price from ${t.split(' ')[1]}: ${other}`,
      show: (k) => `validFrom ${k.split(' ')[1]} of this article`,
    },
  },
});
