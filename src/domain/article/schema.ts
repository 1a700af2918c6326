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
