import { field, type FieldCatalog, unique } from '../../query/fields';

export const ACCOUNT_TYPES = ['Asset', 'Liability', 'Equity', 'Revenue', 'Expense'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export const accountFields = {
  id: field.uuid(),
  code: unique(field.string(), { ignoringCase: true }),
  name: field.string(),
  type: field.enum(ACCOUNT_TYPES),
  isActive: field.boolean(),
} satisfies FieldCatalog;
