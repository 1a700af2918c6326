import { field, type FieldCatalog } from '../../query/fields';

export const articlePriceFields = {
  id: field.uuid(),
  articleId: field.uuid(),
  amount: field.decimal(),
  validFrom: field.datetime(),
} satisfies FieldCatalog;
