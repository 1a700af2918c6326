import { field, type FieldCatalog } from '../../query/fields';

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
