import { defineResource, one } from '../common/declaration';
import { paymentFields } from './fields';
import { paymentRecord } from './schema';

export const paymentResource = defineResource({
  model: 'Payment',
  collection: true,
  fields: paymentFields,
  record: paymentRecord,
  relations: {
    paymentSource: one('PaymentSource', 'paymentSourceId', { expandable: true }),
    customer: one('Customer', 'customerId', { expandable: true }),
  },
});
