import { field, relation, type FieldCatalog, type RelationCatalog } from '../../query/fields';
import { customerFields } from '../customer/fields';
import { paymentSourceFields } from '../payment-source/fields';

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

export const paymentRelations = {
  paymentSource: relation.one('PaymentSource', paymentSourceFields, 'paymentSourceId'),
  customer: relation.one('Customer', customerFields, 'customerId'),
} satisfies RelationCatalog;
