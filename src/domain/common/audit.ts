import { dateTime, NIL_UUID, uuid } from './schemas';

/** createdAt/createdById/updatedAt/updatedById, as an import file may carry them. */
export const auditFields = {
  createdAt: dateTime().optional(),
  createdById: uuid().default(NIL_UUID),
  updatedAt: dateTime().nullable().default(null),
  updatedById: uuid().nullable().default(null),
};
