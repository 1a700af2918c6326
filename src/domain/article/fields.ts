import { field, relation, type FieldCatalog, type RelationCatalog } from '../../query/fields';
import { articlePriceFields } from '../article-price/fields';
import { taxCodeFields } from '../tax-code/fields';

export const articleFields = {
  id: field.uuid(),
  code: field.string(),
  name: field.string(),
  description: field.string(true),
  isActive: field.boolean(),
  defaultTaxCodeId: field.uuid(true),
  defaultCostCenterId: field.uuid(true),
  revenueAccountId: field.uuid(true),
  useArticleCostCenter: field.boolean(),
  createdAt: field.datetime(),
  createdById: field.uuid(),
  updatedAt: field.datetime(true),
  updatedById: field.uuid(true),
} satisfies FieldCatalog;

export const articleRelations = {
  // Newest price first, as GET /article-prices answers.
  prices: relation.many('ArticlePrice', articlePriceFields, [{ field: 'validFrom', direction: 'desc' }]),
  defaultTaxCode: relation.one('TaxCode', taxCodeFields, 'defaultTaxCodeId', true),
} satisfies RelationCatalog;
