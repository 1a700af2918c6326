import { defineResource, many, one } from '../common/declaration';
import { paymentSourceFields } from './fields';
import { paymentSourceRecord } from './schema';

export const paymentSourceResource = defineResource({
  model: 'PaymentSource',
  collection: true,
  fields: paymentSourceFields,
  record: paymentSourceRecord,
  relations: {
    account: one('Account', 'accountId', { expandable: true }),
    payments: many('Payment', 'paymentSourceId', [{ field: 'receivedAt', direction: 'desc' }]),
  },
  import: {
    enumTypes: { sourceType: '"SourceType"' },
  },
});
