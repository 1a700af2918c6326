import type { RecordOf } from '../common/read-service';
import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import type { taxCodeFields } from './fields';
import { taxCodeResource } from './resource';

export type TaxCode = RecordOf<typeof taxCodeFields>;

export class TaxCodeService extends ReadService<typeof taxCodeFields> {
  constructor(deps: ServiceDeps) {
    super(deps, taxCodeResource);
  }
}
