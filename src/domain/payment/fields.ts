import { field, type FieldCatalog } from '../../query/fields';

export const paymentFields = {
  id: field.uuid(),
  paymentSourceId: field.uuid(),
  customerId: field.uuid(),
  amount: field.decimal(),
  receivedAt: field.datetime(),
  reference: field.string(true),
  createdAt: field.datetime(),
  createdById: field.uuid(),
} satisfies FieldCatalog;
