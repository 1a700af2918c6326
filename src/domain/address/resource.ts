import { defineResource, one } from '../common/resource';
import { addressFields } from './fields';

/** Addresses live inside their customer (REST returns them inline); GraphQL also lists them. */
export const addressResource = defineResource({
  model: 'Address',
  name: 'address',
  label: 'address',
  fields: addressFields,
  relations: {
    customer: one('Customer', 'customerId'),
  },
});
