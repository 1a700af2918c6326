import { defineResource, many, one } from '../common/declaration';
import { paymentSourceFields } from './fields';
import { paymentSourceRecord } from './schema';
import { preview, uniqueColumn } from '../common/import-key';
import { codeKey } from './rules';

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
    unique: {
      ...uniqueColumn('code', 'code'),
      key: codeKey,
      match: `lower(t."code") = f.key`,
      inFile: (t, other) => `code ${preview(t)} is also used by ${other}; codes compare case-insensitively`,
      show: (k) => `code ${preview(k)} (compared case-insensitively)`,
    },
  },
});
