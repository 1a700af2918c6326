import { defineResource } from '../common/declaration';
import { academicTermFields } from './fields';
import { academicTermInput, academicTermRecord } from './schema';

export const academicTermResource = defineResource({
  model: 'AcademicTerm',
  collection: true,
  fields: academicTermFields,
  record: academicTermRecord,
  input: academicTermInput,
  relations: {},
  import: {},
});
