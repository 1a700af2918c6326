import { field, relation, type FieldCatalog, type RelationCatalog } from '../../query/fields';
import { addressFields } from '../address/fields';

/** Scalar fields of a customer; `addresses` is a relation, returned inside the record. */
export const customerFields = {
  id: field.uuid(),
  firstName: field.string(),
  lastName: field.string(),
  matriculationId: field.string(true),
  cmsStudentId: field.string(true),
  email: field.string(true),
  debtorNumber: field.string(),
  creditorNumber: field.string(true),
  receivableAccountId: field.uuid(true),
  prepaymentAccountId: field.uuid(true),
} satisfies FieldCatalog;

export const customerRelations = {
  // The default address first, then by type (as the record's inline addresses).
  addresses: relation.many('Address', addressFields, [
    { field: 'isDefault', direction: 'desc' },
    { field: 'addressType', direction: 'asc' },
  ]),
} satisfies RelationCatalog;
