import type { Prisma } from '../../generated/prisma/client';
import { tablePages } from '../common/list';
import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import { academicTermFields } from './fields';

export type AcademicTerm = Prisma.AcademicTermGetPayload<object>;

export class AcademicTermService extends ReadService<'AcademicTerm', AcademicTerm> {
  constructor(deps: ServiceDeps) {
    super(deps.prisma.academicTerm, academicTermFields, 'academic term', tablePages(deps.rows, 'AcademicTerm', deps.prisma.academicTerm));
  }
}
