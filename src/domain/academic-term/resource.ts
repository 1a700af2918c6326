import { defineResource } from '../common/declaration';
import { academicTermFields } from './fields';
import { academicTermRecord } from './schema';
import { uniqueColumn } from '../common/import-key';

export const academicTermResource = defineResource({
  model: 'AcademicTerm',
  collection: true,
  fields: academicTermFields,
  record: academicTermRecord,
  relations: {},
  import: { unique: uniqueColumn('code', 'code') },
});
