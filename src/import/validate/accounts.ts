import { ACCOUNT_USES, fitsUse } from '../../domain/account/uses';
import { RESOURCES } from '../../domain/resources';
import type { FileSection, RecordOf } from '../registry';
import { arrayLiteral, arrayParam } from '../../db/sql-arrays';
import { inChunks, type Sql } from './database';
import type { FileKeys } from './file-keys';
import { loc, type Loc, type Problems } from './problems';

// Accounts and the records that name them, by the one table of account uses
// (src/domain/account/uses.ts), as the API's writes decide: every account a record names fits
// its use (active, of the use's type), whether the record or the account comes from the file
// or the database; an account the file changes stays fit for the records the file leaves alone.

interface AccountLike {
  readonly type: string;
  readonly isActive: boolean;
}

type Use = (typeof ACCOUNT_USES)[number];

/** The file section of a use's records (`paymentSources` for PaymentSource). */
const sectionOf = (use: Use): FileSection => RESOURCES[use.model].plural;

const rule = (use: Use) => `${use.what} need an active ${use.type} account (${use.field})`;

export class AccountRules {
  private readonly type: (string | undefined)[] = [];
  private readonly active: (boolean | undefined)[] = [];
  /** Per use, the file's records naming an account: record index and account id. */
  private readonly named = new Map<Use, Array<[number, string]>>(ACCOUNT_USES.map((u) => [u, []]));

  constructor(
    private readonly keys: FileKeys,
    private readonly problems: Problems,
  ) {}

  accept(at: Loc, r: RecordOf<'accounts'>): void {
    this.type[at.index] = r.type;
    this.active[at.index] = r.isActive;
  }

  /** A valid record of a section whose records name accounts. */
  acceptUser(section: FileSection, at: Loc, record: object): void {
    for (const use of ACCOUNT_USES) {
      if (sectionOf(use) !== section) continue;
      const id: unknown = Object.getOwnPropertyDescriptor(record, use.field)?.value;
      if (typeof id === 'string') this.named.get(use)!.push([at.index, id]);
    }
  }

  /** The file's account with this id (undefined: not in the file, null: in it but invalid). */
  private inFile(id: string): { index: number; account: AccountLike | null } | undefined {
    const index = this.keys.ids.accounts.index.get(id);
    if (index === undefined) return undefined;
    const type = this.type[index];
    return { index, account: type === undefined ? null : { type, isActive: this.active[index]! } };
  }

  async checkDatabase(sql: Sql): Promise<void> {
    await this.checkUsers(sql);
    await this.checkChangedAccounts(sql);
  }

  /** Each account a file record names, from the file or the database, fits the use (unknown ones are reported as references). */
  private async checkUsers(sql: Sql): Promise<void> {
    const fromDb = new Set<string>();
    for (const list of this.named.values()) for (const [, id] of list) if (!this.inFile(id)) fromDb.add(id);
    const db = new Map<string, AccountLike & { code: string }>();
    await inChunks(fromDb, async (chunk) => {
      const rows = await sql.$queryRawUnsafe<{ id: string; code: string; type: string; isActive: boolean }[]>(
        `SELECT "id"::text AS id, "code", "type"::text AS type, "isActive" FROM "Account" WHERE "id" = ANY(${arrayParam(1, 'uuid')})`,
        arrayLiteral(chunk),
      );
      for (const r of rows) db.set(r.id, r);
    });
    for (const [use, list] of this.named) {
      for (const [index, id] of list) {
        const file = this.inFile(id);
        const row = file ? undefined : db.get(id);
        const account = file ? file.account : row;
        if (!account || fitsUse(account, use)) continue; // invalid in the file (reported there), unknown (a reference), or fit
        const name = file ? `accounts[${file.index}]` : `account ${row!.code}`;
        const fault = account.isActive ? `is of type ${account.type}` : 'is inactive';
        this.problems.add(loc(sectionOf(use), index), use.field, `${name} ${fault}; ${rule(use)}`);
      }
    }
  }

  /** An account the file changes must stay fit for the records of the database that name it and that the file leaves alone. */
  private async checkChangedAccounts(sql: Sql): Promise<void> {
    const changed: Array<[string, number, AccountLike]> = [];
    this.type.forEach((type, i) => {
      const id = this.keys.ids.accounts.byIndex.get(i);
      if (type !== undefined && id !== undefined) changed.push([id, i, { type, isActive: this.active[i]! }]);
    });
    for (const use of ACCOUNT_USES) {
      const unfit = changed.filter(([, , account]) => !fitsUse(account, use));
      const section = sectionOf(use);
      await inChunks(
        unfit.map(([id]) => id),
        async (chunk) => {
          // Table and columns are the table of uses', never input.
          const rows = await sql.$queryRawUnsafe<{ id: string; key: string; accountId: string }[]>(
            `SELECT "id"::text AS id, "${use.key}" AS key, "${use.field}"::text AS "accountId" FROM "${use.model}" WHERE "${use.field}" = ANY(${arrayParam(1, 'uuid')})`,
            arrayLiteral(chunk),
          );
          for (const r of rows) {
            if (this.keys.ids[section].index.has(r.id)) continue; // the file says what it names now
            const index = this.keys.ids.accounts.index.get(r.accountId)!;
            const field = this.type[index] !== use.type ? 'type' : 'isActive';
            this.problems.add(
              loc('accounts', index),
              field,
              `${use.what} ${r.key} in the database name this account, which must stay an active ${use.type} account`,
            );
          }
        },
      );
    }
  }
}
