import { defineResource } from '../common/declaration';
import { academicTermFields } from './fields';
import { academicTermInput, academicTermRecord } from './schema';
import { naturalKey } from '../common/natural-key';

export const academicTermResource = defineResource({
  model: 'AcademicTerm',
  collection: true,
  fields: academicTermFields,
  record: academicTermRecord,
  input: academicTermInput,
  relations: {},
  import: { unique: naturalKey.column('code', 'code', { caseInsensitive: true }) },
});
