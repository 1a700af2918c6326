import { arrayLiteral, arrayParam } from '../../db/sql-arrays';
import type { Prisma } from '../../db/__generated__/prisma/client';
import type { ResourceModel } from '../resources';
import { ACCOUNT_USES } from './uses';

// A bulk upsert checks thousands of records naming a handful of accounts: it reads them in
// one statement (FOR SHARE, as requireUsableAccount does) and every record's rule reads them
// from here, for as long as the bulk's checks run in its transaction.

/** An account as the rules of the records naming it need it. */
export interface AccountFacts {
  readonly code: string;
  readonly type: string;
  readonly isActive: boolean;
}

type Db = Prisma.TransactionClient;
const read = new WeakMap<object, ReadonlyMap<string, AccountFacts>>();

/** Runs `work` with these accounts read once, in the transaction `db`. */
async function accountsReadFor<T>(db: Db, ids: readonly string[], work: () => Promise<T>): Promise<T> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return work();
  const rows = await db.$queryRawUnsafe<Array<AccountFacts & { id: string }>>(
    `SELECT "id"::text AS id, "code", "type"::text AS type, "isActive" FROM "Account" WHERE "id" = ANY(${arrayParam(1, 'uuid')}) FOR SHARE`,
    arrayLiteral(unique),
  );
  read.set(db, new Map(rows.map(({ id, ...facts }) => [id, facts])));
  try {
    return await work();
  } finally {
    read.delete(db);
  }
}

/** The account as read for the bulk write running in `db`, if it read it. */
export const accountRead = (db: object, id: string): AccountFacts | undefined => read.get(db)?.get(id);

/**
 * A resource's read-ahead for bulk writes (WriteSpec.readAhead): the accounts its records
 * name in any of their uses, read once for all of them.
 */
export const accountsNamedBy =
  (model: ResourceModel) =>
  <T>(db: Db, inputs: readonly object[], work: () => Promise<T>): Promise<T> => {
    const ids = ACCOUNT_USES.filter((u) => u.model === model).flatMap((u) =>
      inputs.flatMap((input) => {
        const v: unknown = Object.getOwnPropertyDescriptor(input, u.field)?.value;
        return typeof v === 'string' ? [v] : [];
      }),
    );
    return accountsReadFor(db, ids, work);
  };
