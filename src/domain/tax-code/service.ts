import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import type { taxCodeFields } from './fields';
import { taxCodeResource } from './resource';

export class TaxCodeService extends ReadService<typeof taxCodeFields> {
  constructor(deps: ServiceDeps) {
    super(deps, taxCodeResource);
  }
}
