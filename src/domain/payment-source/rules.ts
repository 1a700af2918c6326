// The rules of payment sources as pure functions. The service decides one write with them
// (against rows it reads), the import decides a whole file with them (against the file's
// records and rows of the database); the account a source books to fits its use as every
// account use does (src/domain/account/uses.ts). The database keeps the same rules with its own
// indexes (unique lower(code), one row with isDefault), for writes that race.

export { codeKey } from '../common/natural-key';

export interface DefaultLike {
  readonly id?: string | undefined;
  readonly isDefault: boolean;
}

/**
 * At most one payment source is the default: the default among `others` that `self`
 * (being or becoming the default) would be a second one to; undefined when there is none.
 */
export function clashingDefault<S extends DefaultLike>(self: DefaultLike, others: Iterable<S>): S | undefined {
  if (!self.isDefault) return undefined;
  for (const o of others) if (o.isDefault && o.id !== self.id) return o;
  return undefined;
}
