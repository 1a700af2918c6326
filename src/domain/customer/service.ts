import type { Lexicons } from '../../db/read/lexicon';
import { ReadService, relationOf, type RelationOf } from '../common/read-service';
import { randomUUID } from 'node:crypto';
import { notFound } from '../../errors/catalogue';
import { personalDataForbidden } from '../../query/personal';
import { checkIfMatch } from '../common/etag';
import { parseId, parseInput } from '../common/validate';
import { WriteService, type WriteOptions } from '../maintenance/write-service';
import type { Actor, ServiceDeps } from '../context';
import type { Address } from '../address/fields';
import { customerAddressInput, type CustomerInput } from './schema';
import { asAddressInput, customerWithAddress, customerWithoutAddress, customerWrites, type CustomerWithAddresses } from './writes';
import type { customerFields } from './fields';
import { customerResource } from './resource';

/** Every surname customers have had (a table kept by the database): where substring filters on surnames look first. */
const SURNAMES: Lexicons = { lastName: { table: 'CustomerSurname', column: 'name' } };

/** The body of POST /customers/{id}/addresses (the id is assigned), and of its PATCH (the fields to change). */
const newAddress = customerAddressInput.omit({ id: true });

/** Customers without their addresses (GraphQL loads addresses only when asked, through a loader). */
export class CustomerService extends ReadService<typeof customerFields> {
  /** The same reads, each customer with its addresses inside (REST, docs/service.md; GraphQL when addresses are selected). */
  readonly withAddresses: ReadService<typeof customerFields, readonly [RelationOf<typeof customerResource, 'addresses'>]>;
  /** A customer's addresses are written through the customer. */
  private readonly writer: WriteService<CustomerWithAddresses, CustomerInput>;

  constructor(deps: ServiceDeps) {
    super(deps, customerResource, { inline: [], lexicons: SURNAMES });
    this.writer = new WriteService(deps, customerWrites);
    this.withAddresses = new ReadService(deps, customerResource, {
      inline: [relationOf(customerResource, 'addresses')],
      lexicons: SURNAMES,
    });
  }

  /** POST /customers/{id}/addresses: one more address, written through the customer (its rules, lock and log). */
  async addAddress(customerId: unknown, body: unknown, actor: Actor): Promise<Address> {
    requireAddressWriter(actor);
    const address = { ...parseInput(newAddress, body), id: randomUUID() };
    return addressOf(await this.writer.change(customerId, (c) => customerWithAddress(c, address), actor), address.id);
  }

  /** PATCH /customers/{id}/addresses/{addressId}: the fields it names change; If-Match is the address's ETag. */
  async changeAddress(customerId: unknown, rawAddressId: unknown, body: unknown, actor: Actor, o: WriteOptions = {}): Promise<Address> {
    requireAddressWriter(actor);
    const addressId = parseId(rawAddressId, 'addressId');
    // The body alone first (an unknown property or the id is refused), then over the current address: zod's partial would fill in defaults.
    parseInput(newAddress.partial(), body);
    const merged = (c: CustomerWithAddresses) =>
      parseInput(customerAddressInput, { ...asAddressInput(currentAddress(c, addressId, o)), ...plainObject(body) });
    const saved = await this.writer.change(customerId, (c) => customerWithAddress(c, merged(c)), actor);
    return addressOf(saved, addressId);
  }

  /** DELETE /customers/{id}/addresses/{addressId}. */
  async removeAddress(customerId: unknown, rawAddressId: unknown, actor: Actor, o: WriteOptions = {}): Promise<void> {
    requireAddressWriter(actor);
    const addressId = parseId(rawAddressId, 'addressId');
    await this.writer.change(customerId, (c) => (currentAddress(c, addressId, o), customerWithoutAddress(c, addressId)), actor);
  }
}

/** Addresses hold personal data: creating, changing or deleting one needs the personal-data scope, before anything is read. */
function requireAddressWriter(actor: Actor): void {
  if (!actor.personalData) throw personalDataForbidden(['addresses']);
}

/** The customer's address, its ETag checked against If-Match; NOT_FOUND when the customer has none with that id. */
function currentAddress(c: CustomerWithAddresses, addressId: string, o: WriteOptions): Address {
  const address = c.addresses.find((a) => a.id === addressId);
  if (!address) throw notFound('address of this customer', addressId);
  checkIfMatch(o.ifMatch, address);
  return address;
}

function addressOf(c: CustomerWithAddresses, addressId: string): Address {
  const address = c.addresses.find((a) => a.id === addressId);
  if (!address) throw notFound('address of this customer', addressId);
  return address;
}

const plainObject = (body: unknown): object => (typeof body === 'object' && body !== null ? body : {});
