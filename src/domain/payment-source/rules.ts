import { accountUse } from '../account/uses';

// The rules of payment sources as pure functions. The service decides one write with them
// (against rows it reads), the import decides a whole file with them (against the file's
// records and rows of the database). The database keeps the same rules with its own
// indexes (unique lower(code), one row with isDefault), for writes that race.

/** The account type a payment source books to. */
export const SOURCE_ACCOUNT_TYPE = accountUse('PaymentSource', 'accountId').type;

export interface AccountLike {
  readonly type: string;
  readonly isActive: boolean;
}

export type AccountFault = 'inactive' | 'not-asset';

/** What keeps an account from carrying a payment source (a payment source needs an active Asset account); empty when nothing does. */
export function accountFaults(account: AccountLike): AccountFault[] {
  const faults: AccountFault[] = [];
  if (!account.isActive) faults.push('inactive');
  if (account.type !== SOURCE_ACCOUNT_TYPE) faults.push('not-asset');
  return faults;
}

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
