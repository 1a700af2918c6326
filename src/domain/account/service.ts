import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import type { accountFields } from './fields';
import { accountResource } from './resource';

export class AccountService extends ReadService<typeof accountFields> {
  constructor(deps: ServiceDeps) {
    super(deps, accountResource);
  }
}
