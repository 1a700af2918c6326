import { defineResource, one } from '../common/declaration';
import { paymentFields } from './fields';
import { paymentRecord } from './schema';

export const paymentResource = defineResource({
  model: 'Payment',
  name: 'payment',
  label: 'payment',
  plural: 'payments',
  entitySet: { name: 'Payments', path: 'payments' },
  fields: paymentFields,
  record: paymentRecord,
  relations: {
    paymentSource: one('PaymentSource', 'paymentSourceId', { expandable: true }),
    customer: one('Customer', 'customerId', { expandable: true }),
  },
});
