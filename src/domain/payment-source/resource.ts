import { defineResource, many, one } from '../common/resource';
import { paymentSourceFields } from './fields';

export const paymentSourceResource = defineResource({
  model: 'PaymentSource',
  name: 'payment-source',
  label: 'payment source',
  entitySet: { name: 'PaymentSources', path: 'payment-sources' },
  fields: paymentSourceFields,
  relations: {
    account: one('Account', 'accountId', { expandable: true }),
    payments: many('Payment', 'paymentSourceId', [{ field: 'receivedAt', direction: 'desc' }]),
  },
});
