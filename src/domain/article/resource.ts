import { defineResource, many, one } from '../common/declaration';
import { articleFields } from './fields';
import { articleInput, articleRecord } from './schema';

export const articleResource = defineResource({
  model: 'Article',
  collection: true,
  fields: articleFields,
  record: articleRecord,
  input: articleInput,
  relations: {
    // Newest price first, as GET /article-prices answers.
    prices: many('ArticlePrice', 'articleId', [{ field: 'validFrom', direction: 'desc' }], { expandable: true }),
    defaultTaxCode: one('TaxCode', 'defaultTaxCodeId', { nullable: true, expandable: true }),
    revenueAccount: one('Account', 'revenueAccountId', { nullable: true }),
  },
  import: {},
});
