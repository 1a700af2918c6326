import { defineResource } from '../common/resource';
import { academicTermFields } from './fields';

export const academicTermResource = defineResource({
  model: 'AcademicTerm',
  name: 'academic-term',
  label: 'academic term',
  entitySet: { name: 'AcademicTerms', path: 'academic-terms' },
  fields: academicTermFields,
  relations: {},
});
