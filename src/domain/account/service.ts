import type { RecordOf } from '../common/read-service';
import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import type { accountFields } from './fields';
import { accountResource } from './resource';

export type Account = RecordOf<typeof accountFields>;

export class AccountService extends ReadService<typeof accountFields> {
  constructor(deps: ServiceDeps) {
    super(deps, accountResource);
  }
}
