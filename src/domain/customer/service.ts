import type { Prisma, PrismaClient } from '../../generated/prisma/client';
import type { ModelDelegate } from '../../db/query/model';
import { tablePages } from '../common/list';
import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import { customerFields } from './fields';
import { expandableRelations, RESOURCES, relationOrderBy } from '../resources';
import { addressFields } from '../address/fields';
import type { PageRelation } from '../../db/query/page-sql';
import type { Lexicons } from '../../db/query/lexicon';

// The relation's default order (default address first, then by type), ties by id.
const ADDRESS_ORDER = relationOrderBy<Prisma.AddressOrderByWithRelationInput>(RESOURCES.Customer.relations.addresses);
const RELATIONS = expandableRelations(RESOURCES.Customer);
const WITH_ADDRESSES = { addresses: { orderBy: ADDRESS_ORDER } } satisfies Prisma.CustomerInclude;
const ADDRESSES: PageRelation = { name: 'addresses', table: 'Address', foreignKey: 'customerId', fields: addressFields, orderBy: ADDRESS_ORDER };
/** Every surname customers have had (a table kept by the database): where substring filters on surnames look first. */
const SURNAMES: Lexicons = { lastName: { table: 'CustomerSurname', column: 'name' } };

export type Customer = Prisma.CustomerGetPayload<object>;
export type CustomerWithAddresses = Prisma.CustomerGetPayload<{ include: { addresses: true } }>;
export type { Address } from '../address/service';
import type { Address } from '../address/service';

/** Customers as REST returns them: with their addresses inside the record (docs/service.md); an $expand of addresses (with its own options) replaces the default. */
function withAddresses(prisma: PrismaClient): ModelDelegate<'Customer', CustomerWithAddresses> {
  return {
    findMany: (args) => prisma.customer.findMany({ ...args, include: { ...WITH_ADDRESSES, ...args.include } }),
    findUnique: (args) => prisma.customer.findUnique({ ...args, include: { ...WITH_ADDRESSES, ...args.include } }),
    count: (args) => prisma.customer.count(args),
  };
}

/** Customers without their addresses (GraphQL loads addresses only when asked, through a loader). */
export class CustomerService extends ReadService<'Customer', Customer> {
  private readonly prisma: PrismaClient;
  /** The same reads, each customer with its addresses. */
  readonly withAddresses: ReadService<'Customer', CustomerWithAddresses>;

  constructor(deps: ServiceDeps) {
    const ids = deps.prisma.customer;
    super(ids, customerFields, 'customer', tablePages(deps.rows, 'Customer', ids, { lexicons: SURNAMES }), RELATIONS);
    this.prisma = deps.prisma;
    this.withAddresses = new ReadService(withAddresses(deps.prisma), customerFields, 'customer', tablePages(deps.rows, 'Customer', ids, { relations: [ADDRESSES], lexicons: SURNAMES }), RELATIONS);
  }

  /** For batching: the addresses of many customers, default first. */
  addressesOf(customerIds: readonly string[]): Promise<Address[]> {
    return this.prisma.address.findMany({
      where: { customerId: { in: [...customerIds] } },
      orderBy: ADDRESS_ORDER,
    });
  }
}
