import type { ResourceModel } from '../resources';
import type { AccountType } from './fields';

// Where other records name an account, and what each use needs of it: active, and of one
// type. One table for the writes of the records that name an account (their account must
// fit), for the account's own writes (its type and isActive stay while a record needs them),
// for its delete (nothing may still name it) and for the invariants the tests check.

export interface AccountUse {
  /** The resource whose records name the account, and its table. */
  readonly model: ResourceModel;
  /** The column naming the account. */
  readonly field: string;
  /** The type the account must have for this use. */
  readonly type: AccountType;
  /** How a refusal names those records, and the column it names each by. */
  readonly what: string;
  readonly key: string;
}

export const ACCOUNT_USES = [
  { model: 'PaymentSource', field: 'accountId', type: 'Asset', what: 'payment sources', key: 'code' },
  { model: 'Article', field: 'revenueAccountId', type: 'Revenue', what: 'articles', key: 'code' },
  { model: 'TaxCode', field: 'taxAccountId', type: 'Liability', what: 'tax codes', key: 'code' },
  { model: 'TaxCode', field: 'revenueAccountId', type: 'Revenue', what: 'tax codes', key: 'code' },
  { model: 'Customer', field: 'receivableAccountId', type: 'Asset', what: 'customers', key: 'debtorNumber' },
  { model: 'Customer', field: 'prepaymentAccountId', type: 'Liability', what: 'customers', key: 'debtorNumber' },
] as const satisfies readonly AccountUse[];

type Use = (typeof ACCOUNT_USES)[number];

/** The use of an account by one field of one resource. */
export const accountUse = <M extends Use['model']>(model: M, field: Extract<Use, { model: M }>['field']): AccountUse =>
  ACCOUNT_USES.find((u) => u.model === model && u.field === field)!;

/** Whether an account fits a use: active and of the use's type. */
export const fitsUse = (account: { readonly type: string; readonly isActive: boolean }, use: AccountUse): boolean =>
  account.isActive && account.type === use.type;
