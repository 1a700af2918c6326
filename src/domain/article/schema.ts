import { z } from 'zod';
import { auditFields } from '../common/audit';
import { bool, optionalText, text, uuid } from '../common/schemas';

export const articleRecord = z.strictObject({
  id: uuid(),
  code: text(50),
  name: text(200),
  description: optionalText(1000),
  isActive: bool().default(true),
  defaultTaxCodeId: uuid().nullable().default(null),
  defaultCostCenterId: uuid().nullable().default(null),
  revenueAccountId: uuid().nullable().default(null),
  useArticleCostCenter: bool().default(false),
  ...auditFields,
});

/** Body of POST and PUT /articles: the record without what the server assigns. */
export const articleInput = articleRecord.omit({ id: true, createdAt: true, createdById: true, updatedAt: true, updatedById: true });
export type ArticleInput = z.output<typeof articleInput>;
