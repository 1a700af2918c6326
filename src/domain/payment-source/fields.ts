import { field, relation, type FieldCatalog, type RelationCatalog } from '../../query/fields';
import { accountFields } from '../account/fields';

export const SOURCE_TYPES = [
  'BankTransfer', 'CreditCard', 'DebitCard', 'Cash', 'Check', 'DirectDebit', 'OnlineWallet', 'Other',
] as const;

export const paymentSourceFields = {
  id: field.uuid(),
  code: field.string(),
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

export const paymentSourceRelations = {
  account: relation.one('Account', accountFields, 'accountId'),
} satisfies RelationCatalog;
