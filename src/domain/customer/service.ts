import type { Lexicons } from '../../db/read/lexicon';
import { ReadService, relationOf, type RelationOf } from '../common/read-service';
import type { ServiceDeps } from '../context';
import type { customerFields } from './fields';
import { customerResource } from './resource';

/** Every surname customers have had (a table kept by the database): where substring filters on surnames look first. */
const SURNAMES: Lexicons = { lastName: { table: 'CustomerSurname', column: 'name' } };


/** Customers without their addresses (GraphQL loads addresses only when asked, through a loader). */
export class CustomerService extends ReadService<typeof customerFields> {
  /** The same reads, each customer with its addresses inside (REST, docs/service.md; GraphQL when addresses are selected). */
  readonly withAddresses: ReadService<typeof customerFields, readonly [RelationOf<typeof customerResource, 'addresses'>]>;

  constructor(deps: ServiceDeps) {
    super(deps, customerResource, { inline: [], lexicons: SURNAMES });
    this.withAddresses = new ReadService(deps, customerResource, { inline: [relationOf(customerResource, 'addresses')], lexicons: SURNAMES });
  }
}
