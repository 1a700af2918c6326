import { field, unique, type FieldCatalog } from '../../query/fields';

export const SOURCE_TYPES = ['BankTransfer', 'CreditCard', 'DebitCard', 'Cash', 'Check', 'DirectDebit', 'OnlineWallet', 'Other'] as const;

export const paymentSourceFields = {
  id: field.uuid(),
  code: unique(field.string(), { ignoringCase: true }),
  name: field.string(),
  description: field.string(true),
  accountId: field.uuid(),
  sourceType: field.enum(SOURCE_TYPES),
  isActive: field.boolean(),
  isDefault: field.boolean(),
  createdAt: field.datetime(),
  createdById: field.uuid(),
  updatedAt: field.datetime(true),
  updatedById: field.uuid(true),
} satisfies FieldCatalog;
