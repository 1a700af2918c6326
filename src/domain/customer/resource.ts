import { defineResource, many, one } from '../common/declaration';
import { customerFields } from './fields';
import { customerInput, customerRecord } from './schema';

export const customerResource = defineResource({
  model: 'Customer',
  collection: true,
  fields: customerFields,
  record: customerRecord,
  input: customerInput,
  relations: {
    // The default address first, then by type (as the record's inline addresses).
    addresses: many(
      'Address',
      'customerId',
      [
        { field: 'isDefault', direction: 'desc' },
        { field: 'addressType', direction: 'asc' },
      ],
      { expandable: true },
    ),
    payments: many('Payment', 'customerId', [{ field: 'receivedAt', direction: 'desc' }]),
    receivableAccount: one('Account', 'receivableAccountId', { nullable: true }),
    prepaymentAccount: one('Account', 'prepaymentAccountId', { nullable: true }),
  },
  import: {},
});
