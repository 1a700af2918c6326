import { field, type FieldCatalog, unique } from '../../query/fields';

export const articleFields = {
  id: field.uuid(),
  code: unique(field.string(), { ignoringCase: true }),
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
