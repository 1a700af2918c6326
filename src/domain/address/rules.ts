// The rule of addresses as a pure function: the customer schema (the addresses of one
// customer record) and the import (against the addresses in the database) decide with it;
// the database keeps it too (a unique index on customerId where isDefault).

export interface DefaultAddressLike {
  readonly id: string;
  readonly customerId: string;
  readonly isDefault: boolean;
}

/**
 * One default address per customer: the default address of `self`'s customer among
 * `others` that `self` (being the default) would be a second one to; undefined when none.
 */
export function clashingDefaultAddress<A extends DefaultAddressLike>(self: DefaultAddressLike, others: Iterable<A>): A | undefined {
  if (!self.isDefault) return undefined;
  for (const o of others) if (o.isDefault && o.customerId === self.customerId && o.id !== self.id) return o;
  return undefined;
}
