import type { Prisma, PrismaClient } from '../../generated/prisma/client';
import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import { academicTermFields } from './fields';

export type AcademicTerm = Prisma.AcademicTermGetPayload<object>;

export class AcademicTermService extends ReadService<AcademicTerm> {
  private readonly prisma: PrismaClient;

  constructor(deps: ServiceDeps) {
    super(deps.prisma.academicTerm, academicTermFields, 'academic term');
    this.prisma = deps.prisma;
  }

  /** The term whose [startDate, endDate] contains the date (the latest-starting one if several). */
  containing(date: Date): Promise<AcademicTerm | null> {
    return this.prisma.academicTerm.findFirst({
      where: { startDate: { lte: date }, endDate: { gte: date } },
      orderBy: [{ startDate: 'desc' }, { id: 'asc' }],
    });
  }
}
