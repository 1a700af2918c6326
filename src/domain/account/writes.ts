import type { Account } from '../../db/__generated__/prisma/client';
import { AppError } from '../../errors/catalogue';
import { parseInput } from '../common/validate';
import { NAMED_REFERRERS, refuseIfReferenced, type Db, type WriteSpec } from '../maintenance/write-service';
import { accountFaults, SOURCE_ACCOUNT_TYPE } from '../payment-source/rules';
import { accountResource } from './resource';
import { accountInput, type AccountInput } from './schema';

const take = NAMED_REFERRERS;

/**
 * An account another record names in `field`: it exists, is active and, when `type` is
 * given, of that type (an article's revenue account is a Revenue account); ACCOUNT_NOT_USABLE otherwise.
 */
export async function requireUsableAccount(db: Db, id: string, field: string, type?: string): Promise<void> {
  const account = await db.account.findUnique({ where: { id } });
  if (!account) throw new AppError('ACCOUNT_NOT_USABLE', `No account with id ${id}`, [{ field, message: 'unknown account' }]);
  const faults = [
    ...(account.isActive ? [] : ['inactive']),
    ...(type === undefined || account.type === type ? [] : [`of type ${account.type}, not ${type}`]),
  ];
  if (faults.length > 0)
    throw new AppError('ACCOUNT_NOT_USABLE', `Account ${account.code} is ${faults.join(' and ')}`, [
      { field, message: type === undefined ? 'the account must be active' : `the account must be active and of type ${type}` },
    ]);
}

export const accountWrites: WriteSpec<Account, AccountInput> = {
  resource: accountResource,
  input: accountInput,
  parse: (body) => parseInput(accountInput, body),
  store: (db) => ({
    find: (id) => db.account.findUnique({ where: { id } }),
    create: (input) => db.account.create({ data: input }),
    update: (id, input) => db.account.update({ where: { id }, data: input }),
    remove: async (id) => {
      await db.account.delete({ where: { id } });
    },
  }),
  async check(db, next, current) {
    if (!current) return;
    // An account a payment source books to stays an active Asset account (the import's rule).
    if (accountFaults(next).length > 0) {
      const sources = await db.paymentSource.findMany({
        where: { accountId: current.id },
        select: { code: true },
        orderBy: { code: 'asc' },
        take,
      });
      if (sources.length > 0)
        throw new AppError(
          'ACCOUNT_NOT_USABLE',
          `Account ${current.code} is used by payment sources ${sources.map((s) => s.code).join(', ')} and must stay an active ${SOURCE_ACCOUNT_TYPE} account`,
          [
            {
              field: next.isActive ? 'type' : 'isActive',
              message: `payment sources book to it: it must stay active and of type ${SOURCE_ACCOUNT_TYPE}`,
            },
          ],
        );
    }
  },
  async checkDelete(db, current) {
    const id = current.id;
    const codes = (rows: ReadonlyArray<{ code: string }>) => rows.map((r) => r.code);
    refuseIfReferenced(
      `Account ${current.code}`,
      [
        [
          'payment sources',
          codes(await db.paymentSource.findMany({ where: { accountId: id }, select: { code: true }, orderBy: { code: 'asc' }, take })),
        ],
        [
          'tax codes',
          codes(
            await db.taxCode.findMany({
              where: { OR: [{ taxAccountId: id }, { revenueAccountId: id }] },
              select: { code: true },
              orderBy: { code: 'asc' },
              take,
            }),
          ),
        ],
        [
          'articles',
          codes(await db.article.findMany({ where: { revenueAccountId: id }, select: { code: true }, orderBy: { code: 'asc' }, take })),
        ],
        [
          'customers',
          (
            await db.customer.findMany({
              where: { OR: [{ receivableAccountId: id }, { prepaymentAccountId: id }] },
              select: { debtorNumber: true },
              orderBy: { debtorNumber: 'asc' },
              take,
            })
          ).map((c) => c.debtorNumber),
        ],
      ],
      '; deactivate it instead (isActive: false)',
    );
  },
};
