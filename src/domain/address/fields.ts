import { field, type FieldCatalog } from '../../query/fields';

/** Billing, Home and Correspondence are the named types; the field is open text. */
export const NAMED_ADDRESS_TYPES = ['Billing', 'Home', 'Correspondence'] as const;

export const addressFields = {
  id: field.uuid(),
  customerId: field.uuid(),
  addressType: field.string(),
  street: field.string(),
  city: field.string(),
  postalCode: field.string(),
  country: field.string(),
  isDefault: field.boolean(),
} satisfies FieldCatalog;
