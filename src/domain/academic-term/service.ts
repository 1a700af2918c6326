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

  /**
   * The term that contains the date (the latest-starting one if several). endDate names
   * the term's last day (2025-03-31T00:00:00Z), so the whole of that day belongs to it.
   */
  containing(date: Date): Promise<AcademicTerm | null> {
    const dayStart = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
    return this.prisma.academicTerm.findFirst({
      where: { startDate: { lte: date }, endDate: { gte: dayStart } },
      orderBy: [{ startDate: 'desc' }, { id: 'asc' }],
    });
  }
}
