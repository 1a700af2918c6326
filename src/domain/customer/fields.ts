import { field, type FieldCatalog, personal, unique } from '../../query/fields';

/** Scalar fields of a customer; `addresses` is a relation, returned inside the record. */
export const customerFields = {
  id: field.uuid(),
  firstName: personal(field.string()),
  lastName: personal(field.string()),
  matriculationId: personal(field.string(true)),
  cmsStudentId: personal(field.string(true)),
  email: personal(field.string(true)),
  // Not personal: a number the university assigns, the key ledgers and reports join on; it
  // names no one without the customer's names, which are (docs/personal-data.md).
  debtorNumber: unique(field.string()),
  creditorNumber: field.string(true),
  receivableAccountId: field.uuid(true),
  prepaymentAccountId: field.uuid(true),
} satisfies FieldCatalog;
