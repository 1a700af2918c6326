import { defineResource, one } from '../common/declaration';
import { taxCodeFields } from './fields';
import { taxCodeRecord } from './schema';

export const taxCodeResource = defineResource({
  model: 'TaxCode',
  collection: true,
  fields: taxCodeFields,
  record: taxCodeRecord,
  relations: {
    taxAccount: one('Account', 'taxAccountId'),
    revenueAccount: one('Account', 'revenueAccountId'),
  },
  import: {},
});
