import { defineResource, one } from '../common/resource';
import { taxCodeFields } from './fields';

export const taxCodeResource = defineResource({
  model: 'TaxCode',
  name: 'tax-code',
  label: 'tax code',
  entitySet: { name: 'TaxCodes', path: 'tax-codes' },
  fields: taxCodeFields,
  relations: {
    taxAccount: one('Account', 'taxAccountId'),
    revenueAccount: one('Account', 'revenueAccountId'),
  },
});
