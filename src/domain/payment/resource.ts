import { defineResource, one } from '../common/resource';
import { paymentFields } from './fields';

export const paymentResource = defineResource({
  model: 'Payment',
  name: 'payment',
  label: 'payment',
  entitySet: { name: 'Payments', path: 'payments' },
  fields: paymentFields,
  relations: {
    paymentSource: one('PaymentSource', 'paymentSourceId', { expandable: true }),
    customer: one('Customer', 'customerId', { expandable: true }),
  },
});
