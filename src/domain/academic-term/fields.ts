import { field, type FieldCatalog, unique } from '../../query/fields';

export const academicTermFields = {
  id: field.uuid(),
  code: unique(field.string(), { ignoringCase: true }),
  startDate: field.datetime(),
  endDate: field.datetime(),
  statisticalSemester: field.string(true),
  externalSystemId: field.string(true),
} satisfies FieldCatalog;
