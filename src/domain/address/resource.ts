import { defineResource, one } from '../common/declaration';
import { addressFields } from './fields';
import { addressRecord } from './schema';

/** Addresses live inside their customer (REST returns them inline); GraphQL also lists them. */
export const addressResource = defineResource({
  model: 'Address',
  collection: false,
  fields: addressFields,
  record: addressRecord,
  relations: {
    customer: one('Customer', 'customerId'),
  },
  // An address's change-log entries show in its customer's history (docs/changes.md).
  belongsTo: 'customer',
});
