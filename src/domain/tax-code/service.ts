import type { Prisma } from '../../generated/prisma/client';
import { tablePages } from '../common/list';
import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import { taxCodeFields } from './fields';

export type TaxCode = Prisma.TaxCodeGetPayload<object>;

export class TaxCodeService extends ReadService<'TaxCode', TaxCode> {
  constructor(deps: ServiceDeps) {
    super(deps.prisma.taxCode, taxCodeFields, 'tax code', tablePages(deps.rows, 'TaxCode', deps.prisma.taxCode));
  }
}
