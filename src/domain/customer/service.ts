import type { Prisma, PrismaClient } from '../../generated/prisma/client';
import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import { customerFields } from './fields';
import { addressFields } from '../address/fields';
import type { PageRelation } from '../../db/query/page-sql';

const ADDRESS_ORDER: Prisma.AddressOrderByWithRelationInput[] = [{ isDefault: 'desc' }, { addressType: 'asc' }, { id: 'asc' }];
const ADDRESSES: PageRelation = { name: 'addresses', table: 'Address', foreignKey: 'customerId', fields: addressFields, orderBy: ADDRESS_ORDER };

export type Customer = Prisma.CustomerGetPayload<object>;
export type CustomerWithAddresses = Prisma.CustomerGetPayload<{ include: { addresses: true } }>;
export type { Address } from '../address/service';
import type { Address } from '../address/service';

/** Customers are returned with their addresses inside the record (SPEC.md). */
export class CustomerService extends ReadService<CustomerWithAddresses> {
  private readonly prisma: PrismaClient;
  private readonly bare: ReadService<Customer>;

  constructor(deps: ServiceDeps) {
    super(deps.prisma.customer, customerFields, 'customer', { prisma: deps.prisma, table: 'Customer', relations: [ADDRESSES] });
    this.prisma = deps.prisma;
    this.bare = new ReadService<Customer>(deps.prisma.customer, customerFields, 'customer', { prisma: deps.prisma, table: 'Customer', relations: [] });
  }

  /** Customers without their addresses (GraphQL loads addresses only when asked). */
  listBare: ReadService<Customer>['list'] = (q) => this.bare.list(q);

  /** For batching: the addresses of many customers, default first. */
  addressesOf(customerIds: readonly string[]): Promise<Address[]> {
    return this.prisma.address.findMany({
      where: { customerId: { in: [...customerIds] } },
      orderBy: ADDRESS_ORDER,
    });
  }
}
