import { field, type FieldCatalog } from '../../query/fields';
import type { Row } from '../../db/read/row';

export const articlePriceFields = {
  id: field.uuid(),
  articleId: field.uuid(),
  amount: field.decimal(),
  validFrom: field.datetime(),
} satisfies FieldCatalog;

/** A price as read. */
export type ArticlePrice = Row<typeof articlePriceFields>;
