import { field, type FieldCatalog } from '../../query/fields';

export const TAX_TYPES = ['VAT', 'Sales Tax', 'Exempt'] as const;

export const taxCodeFields = {
  id: field.uuid(),
  code: field.string(),
  name: field.string(),
  description: field.string(true),
  rate: field.decimal(),
  taxType: field.enum(TAX_TYPES),
  taxAccountId: field.uuid(),
  revenueAccountId: field.uuid(),
  validFrom: field.datetime(),
  validTo: field.datetime(true),
  isActive: field.boolean(),
  createdAt: field.datetime(),
  createdById: field.uuid(),
  updatedAt: field.datetime(true),
  updatedById: field.uuid(true),
} satisfies FieldCatalog;
