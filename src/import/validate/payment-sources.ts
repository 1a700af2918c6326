import { accountFaults, clashingDefault, SOURCE_ACCOUNT_TYPE, type AccountLike } from '../../domain/payment-source/rules';
import type { RecordOf } from '../registry';
import { arrayLiteral, arrayParam } from '../sql-arrays';
import type { AccountRules } from './accounts';
import { inChunks, type Sql } from './database';
import type { FileKeys } from './file-keys';
import { loc, type Loc, type Problems } from './problems';

// Payment sources: an active Asset account each, and one default among the file's and
// the database's payment sources, decided by the same predicates as the service's.

const RULE = `a payment source needs an active ${SOURCE_ACCOUNT_TYPE} account`;

export class PaymentSourceRules {
  private readonly accountOf: (string | undefined)[] = [];
  /** The file's default payment sources: index and id. */
  private readonly defaults: { index: number; id: string; isDefault: true }[] = [];

  constructor(
    private readonly keys: FileKeys,
    private readonly accounts: AccountRules,
    private readonly problems: Problems,
  ) {}

  accept(at: Loc, r: RecordOf<'paymentSources'>): void {
    this.accountOf[at.index] = r.accountId;
    if (!r.isDefault) return;
    const other = clashingDefault(r, this.defaults);
    if (other)
      this.problems.add(at, 'isDefault', `only one payment source can be the default, and paymentSources[${other.index}] already is`);
    this.defaults.push({ index: at.index, id: r.id, isDefault: true });
  }

  async checkDatabase(sql: Sql): Promise<void> {
    await this.checkAccounts(sql);
    await this.checkDefault(sql);
  }

  /** Each source's account, from the file or the database, must be usable (unknown ones are reported as references). */
  private async checkAccounts(sql: Sql): Promise<void> {
    const fromDb = new Set<string>();
    for (const id of this.accountOf) if (id !== undefined && !this.accounts.inFile(id)) fromDb.add(id);
    const db = new Map<string, AccountLike & { code: string }>();
    await inChunks(fromDb, async (chunk) => {
      const rows = await sql.$queryRawUnsafe<{ id: string; code: string; type: string; isActive: boolean }[]>(
        `SELECT "id"::text AS id, "code", "type"::text AS type, "isActive" FROM "Account" WHERE "id" = ANY(${arrayParam(1, 'uuid')})`,
        arrayLiteral(chunk),
      );
      for (const r of rows) db.set(r.id, r);
    });
    this.accountOf.forEach((id, index) => {
      if (id === undefined) return;
      const file = this.accounts.inFile(id);
      const row = file ? undefined : db.get(id);
      const account = file ? file.account : row;
      if (!account) return; // invalid in the file (reported there), or unknown (reported as a reference)
      const name = file ? `accounts[${file.index}]` : `account ${row!.code}`;
      const faults = accountFaults(account);
      if (faults.includes('not-asset'))
        this.problems.add(loc('paymentSources', index), 'accountId', `${name} is of type ${account.type}; ${RULE}`);
      else if (faults.includes('inactive')) this.problems.add(loc('paymentSources', index), 'accountId', `${name} is inactive; ${RULE}`);
    });
  }

  /** The file's default may not be a second one next to a default of the database the file does not change. */
  private async checkDefault(sql: Sql): Promise<void> {
    const own = this.defaults[0];
    if (!own) return;
    const rows = await sql.$queryRawUnsafe<{ id: string; code: string; isDefault: boolean }[]>(
      `SELECT "id"::text AS id, "code", "isDefault" FROM "PaymentSource" WHERE "isDefault"`,
    );
    const unchanged = rows.filter((r) => !this.keys.ids.paymentSources.index.has(r.id));
    const other = clashingDefault(own, unchanged);
    if (other)
      this.problems.add(
        loc('paymentSources', own.index),
        'isDefault',
        `payment source ${other.code} (${other.id}) is already the default in the database, and this file does not change it`,
      );
  }
}
