import type { RecordOf } from '../common/read-service';
import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import type { addressFields } from './fields';
import { addressResource } from './resource';

export type Address = RecordOf<typeof addressFields>;

/** Addresses as a resource of their own (GraphQL `addresses`, `address(id:)`). */
export class AddressService extends ReadService<typeof addressFields> {
  constructor(deps: ServiceDeps) {
    super(deps, addressResource);
  }
}
