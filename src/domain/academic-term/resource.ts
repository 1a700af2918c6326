import { defineResource } from '../common/declaration';
import { academicTermFields } from './fields';
import { academicTermRecord } from './schema';
import { uniqueColumn } from '../common/import-key';

export const academicTermResource = defineResource({
  model: 'AcademicTerm',
  name: 'academic-term',
  label: 'academic term',
  plural: 'academicTerms',
  entitySet: { name: 'AcademicTerms', path: 'academic-terms' },
  fields: academicTermFields,
  record: academicTermRecord,
  relations: {},
  import: { unique: uniqueColumn('code', 'code') },
});
