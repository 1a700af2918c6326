import { defineResource, one } from '../common/declaration';
import { taxCodeFields } from './fields';
import { taxCodeInput, taxCodeRecord } from './schema';

export const taxCodeResource = defineResource({
  model: 'TaxCode',
  collection: true,
  fields: taxCodeFields,
  record: taxCodeRecord,
  input: taxCodeInput,
  relations: {
    taxAccount: one('Account', 'taxAccountId'),
    revenueAccount: one('Account', 'revenueAccountId'),
  },
  import: {},
});
