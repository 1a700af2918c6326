import type { Account } from '../../db/__generated__/prisma/client';
import { AppError } from '../../errors/catalogue';
import { parseInput } from '../common/validate';
import { NAMED_REFERRERS, refuseIfReferenced, type Db, type WriteSpec } from '../maintenance/write-service';
import { accountResource } from './resource';
import { accountInput, type AccountInput } from './schema';
import { accountRead, type AccountFacts } from './preload';
import { ACCOUNT_USES, fitsUse, type AccountUse } from './uses';

/**
 * An account another record names for `use`: it exists, is active and of the use's type (an
 * article's revenue account is an active Revenue account); ACCOUNT_NOT_USABLE otherwise.
 */
export async function requireUsableAccount(db: Pick<Db, '$queryRawUnsafe'>, id: string, use: AccountUse): Promise<void> {
  // FOR SHARE: a concurrent change of the account's type or isActive waits for this write and
  // then finds it among the records naming the account (or this one waits and reads the change).
  // A bulk write read its records' accounts before (./preload.ts), the same way.
  const account =
    accountRead(db, id) ??
    (
      await db.$queryRawUnsafe<AccountFacts[]>(
        `SELECT "code", "type"::text AS type, "isActive" FROM "Account" WHERE "id" = $1::uuid FOR SHARE`,
        id,
      )
    )[0];
  const field = use.field;
  if (!account) throw new AppError('ACCOUNT_NOT_USABLE', `No account with id ${id}`, [{ field, message: 'unknown account' }]);
  if (fitsUse(account, use)) return;
  const faults = [
    ...(account.isActive ? [] : ['inactive']),
    ...(account.type === use.type ? [] : [`of type ${account.type}, not ${use.type}`]),
  ];
  throw new AppError('ACCOUNT_NOT_USABLE', `Account ${account.code} is ${faults.join(' and ')}`, [
    { field, message: `the account must be active and of type ${use.type}` },
  ]);
}

/** The keys of at most NAMED_REFERRERS records naming the account for `use` (table and columns are the table's, never input). */
async function referrers(db: Db, use: AccountUse, accountId: string): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ key: string }[]>(
    `SELECT "${use.key}" AS key FROM "${use.model}" WHERE "${use.field}" = $1::uuid ORDER BY "${use.key}" LIMIT ${NAMED_REFERRERS}`,
    accountId,
  );
  return rows.map((r) => r.key);
}

/** The uses' referrers, one entry per kind of record (a tax code naming it twice is named once). */
async function referrersOf(db: Db, uses: readonly AccountUse[], accountId: string): Promise<Array<[string, string[]]>> {
  const byWhat = new Map<string, Set<string>>();
  for (const use of uses) {
    const keys = await referrers(db, use, accountId);
    if (keys.length > 0) byWhat.set(use.what, new Set([...(byWhat.get(use.what) ?? []), ...keys]));
  }
  return [...byWhat].map(([what, keys]) => [what, [...keys].slice(0, NAMED_REFERRERS)]);
}

export const accountWrites: WriteSpec<Account, AccountInput> = {
  resource: accountResource,
  input: accountInput,
  parse: (body) => parseInput(accountInput, body),
  store: (db) => ({
    find: (id) => db.account.findUnique({ where: { id } }),
    findMany: (ids) => db.account.findMany({ where: { id: { in: [...ids] } } }),
    create: (input) => db.account.create({ data: input }),
    update: (id, input) => db.account.update({ where: { id }, data: input }),
    remove: async (id) => {
      await db.account.delete({ where: { id } });
    },
  }),
  async check(db, next, current) {
    if (!current || (next.type === current.type && next.isActive === current.isActive)) return;
    // Its type and isActive stay while records that need them name it (a payment source its active Asset, …).
    const broken = ACCOUNT_USES.filter((use) => fitsUse(current, use) && !fitsUse(next, use));
    const named = await referrersOf(db, broken, current.id);
    if (named.length > 0) {
      const field = next.type === current.type ? 'isActive' : 'type';
      throw new AppError(
        'IN_USE',
        `Account ${current.code} is used by ${named.map(([what, keys]) => `${what} ${keys.join(', ')}`).join(' and ')}, which need it active and of type ${current.type}`,
        [{ field, message: 'records that name the account need its current value' }],
      );
    }
  },
  async checkDelete(db, current) {
    refuseIfReferenced(
      `Account ${current.code}`,
      await referrersOf(db, ACCOUNT_USES, current.id),
      '; deactivate it instead (isActive: false)',
    );
  },
};
