import type { Row } from '../../db/read/row';
import { field, personal, type FieldCatalog } from '../../query/fields';

// addressType is open text: Billing, Home and Correspondence are the named types, others may exist.
export const addressFields = {
  id: field.uuid(),
  customerId: field.uuid(),
  addressType: field.string(),
  street: personal(field.string()),
  city: personal(field.string()),
  postalCode: personal(field.string()),
  country: field.string(),
  isDefault: field.boolean(),
} satisfies FieldCatalog;

/** An address as read. */
export type Address = Row<typeof addressFields>;
