import { defineResource, one } from '../common/declaration';
import { taxCodeFields } from './fields';
import { taxCodeRecord } from './schema';

export const taxCodeResource = defineResource({
  model: 'TaxCode',
  name: 'tax-code',
  label: 'tax code',
  plural: 'taxCodes',
  entitySet: { name: 'TaxCodes', path: 'tax-codes' },
  fields: taxCodeFields,
  record: taxCodeRecord,
  relations: {
    taxAccount: one('Account', 'taxAccountId'),
    revenueAccount: one('Account', 'revenueAccountId'),
  },
  import: {},
});
