import type { Prisma } from '../../generated/prisma/client';
import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import { addressFields } from './fields';

export type Address = Prisma.AddressGetPayload<object>;

/** Addresses as a resource of their own (GraphQL `addresses`, `address(id:)`). */
export class AddressService extends ReadService<'Address', Address> {
  constructor(deps: ServiceDeps) {
    super(deps.prisma.address, addressFields, 'address');
  }
}
