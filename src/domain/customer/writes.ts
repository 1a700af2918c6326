import type { Address, Customer } from '../../db/__generated__/prisma/client';
import { AppError, validationFailed } from '../../errors/catalogue';
import { requireUsableAccount } from '../account/writes';
import { accountUse } from '../account/uses';
import { accountsNamedBy } from '../account/preload';
import { addressFields } from '../address/fields';
import { clashingDefaultAddress } from '../address/rules';
import { fieldChanges, type ChangeDraft } from '../change-log/append';
import { parseInput } from '../common/validate';
import { NAMED_REFERRERS, refuseIfReferenced, sameInput, type Db, type WriteSpec } from '../maintenance/write-service';
import { customerResource } from './resource';
import { addressResource } from '../address/resource';
import { newRowId, tableSpec } from '../maintenance/table-write';
import { customerInput, type CustomerInput } from './schema';

/** A customer with its addresses, in the order the reads give them (the default first, then by type). */
export type CustomerWithAddresses = Customer & { readonly addresses: Address[] };

const ADDRESS_ORDER = [{ isDefault: 'desc' }, { addressType: 'asc' }, { id: 'asc' }] as const;

const find = (db: Db, id: string) => db.customer.findUnique({ where: { id }, include: { addresses: { orderBy: [...ADDRESS_ORDER] } } });

async function found(db: Db, id: string): Promise<CustomerWithAddresses> {
  const customer = await find(db, id);
  if (!customer) throw new AppError('NOT_FOUND', `No customer with id ${id}`);
  return customer;
}

/** Makes the customer's addresses the given set: those named by id are replaced, others created, the rest deleted. */
async function writeAddresses(db: Db, customerId: string, addresses: CustomerInput['addresses']): Promise<void> {
  const kept = addresses.flatMap((a) => (a.id === undefined ? [] : [a.id]));
  await db.address.deleteMany({ where: { customerId, id: { notIn: kept } } });
  // Defaults cleared first, so that the partial unique index sees one default at the end.
  await db.address.updateMany({ where: { customerId, isDefault: true }, data: { isDefault: false } });
  for (const { id, ...values } of addresses) {
    if (id === undefined) await db.address.create({ data: { ...values, customerId } });
    else await db.address.upsert({ where: { id }, create: { id, ...values, customerId }, update: values });
  }
}

/** Customers with their addresses (a PUT's `addresses` is the whole set); debtor numbers unique; a customer with payments stays. */
export const customerWrites: WriteSpec<CustomerWithAddresses, CustomerInput> = {
  resource: customerResource,
  input: customerInput,
  parse: (body) => parseInput(customerInput, body),
  asInput: (current) => customerAsInput(current),
  settle: (current, input) => ({ ...input, addresses: settledAddresses(current.addresses, input.addresses) }),
  store: (db) => ({
    find: (id) => find(db, id),
    findMany: (ids) => db.customer.findMany({ where: { id: { in: [...ids] } }, include: { addresses: { orderBy: [...ADDRESS_ORDER] } } }),
    async create({ addresses, ...values }) {
      const created = await db.customer.create({ data: values });
      await writeAddresses(db, created.id, addresses);
      return found(db, created.id);
    },
    async update(id, { addresses, ...values }) {
      await db.customer.update({ where: { id }, data: values });
      await writeAddresses(db, id, addresses);
      return found(db, id);
    },
    async remove(id) {
      await db.address.deleteMany({ where: { customerId: id } });
      await db.customer.delete({ where: { id } });
    },
  }),
  readAhead: accountsNamedBy('Customer'),
  async check(db, next, current) {
    if (next.receivableAccountId !== null && next.receivableAccountId !== current?.receivableAccountId)
      await requireUsableAccount(db, next.receivableAccountId, accountUse('Customer', 'receivableAccountId'));
    if (next.prepaymentAccountId !== null && next.prepaymentAccountId !== current?.prepaymentAccountId)
      await requireUsableAccount(db, next.prepaymentAccountId, accountUse('Customer', 'prepaymentAccountId'));
    const ids = next.addresses.flatMap((a) => (a.id === undefined ? [] : [a.id]));
    if (ids.length > 0) {
      const elsewhere = await db.address.findMany({
        where: { id: { in: ids }, NOT: { customerId: current?.id ?? '00000000-0000-0000-0000-000000000000' } },
        select: { id: true },
      });
      const foreign = new Set(elsewhere.map((a) => a.id));
      const errors = next.addresses.flatMap((a, i) =>
        a.id !== undefined && foreign.has(a.id) ? [{ field: `addresses[${i}].id`, message: 'is an address of another customer' }] : [],
      );
      if (errors.length > 0) throw validationFailed(errors);
    }
  },
  async checkDelete(db, current) {
    const payments = await db.payment.findMany({
      where: { customerId: current.id },
      select: { id: true },
      orderBy: { receivedAt: 'desc' },
      take: NAMED_REFERRERS,
    });
    refuseIfReferenced(`Customer ${current.debtorNumber}`, [['payments', payments.map((p) => p.id)]]);
  },
  alsoLogged: (before, after) => addressChanges(before?.addresses ?? [], after?.addresses ?? []),
  nested: {
    table: tableSpec(addressResource.model, addressFields),
    flag: 'isDefault',
    rows(customerId, current, next) {
      const rows = next.addresses.map(({ id, ...a }) => ({ ...a, id: id ?? newRowId(), customerId }));
      const now = new Map(rows.map((r) => [r.id, r]));
      const was = current?.addresses ?? [];
      return {
        rows,
        removed: was.filter((a) => !now.has(a.id)).map((a) => a.id),
        flagMoves: was.filter((a) => a.isDefault && now.get(a.id)?.isDefault === false).map((a) => a.id),
      };
    },
  },
};

/**
 * The change-log entries of a customer's addresses between two versions of the customer,
 * each owned by the customer (its history shows them).
 */
function addressChanges(before: readonly Address[], after: readonly Address[]): ChangeDraft[] {
  const drafts: ChangeDraft[] = [];
  const entry = (a: Address, operation: ChangeDraft['operation'], changes: ChangeDraft['changes']): ChangeDraft => ({
    resource: 'address',
    recordId: a.id,
    owner: a.customerId,
    operation,
    changes,
  });
  const old = new Map(before.map((a) => [a.id, a]));
  for (const a of after) {
    const was = old.get(a.id);
    const changes = fieldChanges(addressFields, was, a);
    if (!was) drafts.push(entry(a, 'created', changes));
    else if (Object.keys(changes).length > 0) drafts.push(entry(a, 'updated', changes));
    old.delete(a.id);
  }
  for (const a of old.values()) drafts.push(entry(a, 'deleted', fieldChanges(addressFields, a, undefined)));
  return drafts;
}

type AddressInput = CustomerInput['addresses'][number];

/**
 * The addresses of a write matched to the customer's, so that an address keeps its identity
 * (its id, its history) however a system that does not know our ids sends it: one given
 * without an id that equals an address of the customer (every value) is that address, so the
 * same student sent twice changes nothing; one left over is the customer's unclaimed address
 * of the same type, changed in place (a new street is a change of the Home address, not a new
 * one). In the customer's order, new ones last: the order of the set is not a change.
 */
function settledAddresses(current: readonly Address[], given: readonly AddressInput[]): AddressInput[] {
  const unclaimed = current.filter((c) => !given.some((a) => a.id === c.id));
  const claim = (a: AddressInput, matches: (c: Address) => boolean): AddressInput | undefined => {
    const match = unclaimed.find(matches);
    if (!match) return undefined;
    unclaimed.splice(unclaimed.indexOf(match), 1);
    return { ...a, id: match.id };
  };
  const equal = (a: AddressInput) => (c: Address) =>
    Object.entries(a).every(([k, v]) => k === 'id' || sameInput(Object.getOwnPropertyDescriptor(c, k)?.value, v));
  // Equal ones first, so that a changed address does not take the place of an unchanged one of its type.
  const exact = given.map((a) => (a.id !== undefined ? a : (claim(a, equal(a)) ?? a)));
  const settled = exact.map((a) => (a.id !== undefined ? a : (claim(a, (c) => c.addressType === a.addressType) ?? a)));
  const rank = new Map(current.map((c, i) => [c.id, i]));
  const place = (a: AddressInput) => rank.get(a.id ?? '') ?? current.length;
  return settled.sort((x, y) => place(x) - place(y));
}

/** A customer's address as an element of the customer's body (the customer is the one around it). */
export const asAddressInput = ({ customerId: _c, ...a }: Address): AddressInput => a;

/** A customer as the body of a full replacement of itself. */
const customerAsInput = ({ id: _id, addresses, ...values }: CustomerWithAddresses) => ({
  ...values,
  addresses: addresses.map(asAddressInput),
});

/**
 * The customer with `address` added, or put in place of its address with the same id; as
 * the whole customer (a customer's addresses are written through the customer). A second
 * default is refused: the customer's default address is unset first.
 */
export function customerWithAddress(current: CustomerWithAddresses, address: AddressInput): CustomerInput {
  const others = current.addresses.filter((a) => a.id !== address.id);
  const clash = clashingDefaultAddress({ ...address, id: address.id ?? '', customerId: current.id }, others);
  if (clash)
    throw new AppError('DEFAULT_ALREADY_SET', `Address ${clash.id} is the customer's default address; unset it first`, [
      { field: 'isDefault', message: 'the customer has a default address' },
    ]);
  return parseInput(customerInput, { ...customerAsInput(current), addresses: [...others.map(asAddressInput), address] });
}

/** The customer without one of its addresses. */
export const customerWithoutAddress = (current: CustomerWithAddresses, addressId: string): CustomerInput =>
  parseInput(customerInput, {
    ...customerAsInput(current),
    addresses: current.addresses.filter((a) => a.id !== addressId).map(asAddressInput),
  });
