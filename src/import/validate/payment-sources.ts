import { clashingDefault } from '../../domain/payment-source/rules';
import type { RecordOf } from '../registry';
import type { AccountRules } from './accounts';
import type { Sql } from './database';
import type { FileKeys } from './file-keys';
import { loc, type Loc, type Problems } from './problems';

// Payment sources: one default among the file's and the database's payment sources, decided
// by the same predicate as the service's (their accounts: ./accounts.ts, as every record's).

export class PaymentSourceRules {
  /** The file's default payment sources: index and id. */
  private readonly defaults: { index: number; id: string; isDefault: true }[] = [];

  constructor(
    private readonly keys: FileKeys,
    private readonly accounts: AccountRules,
    private readonly problems: Problems,
  ) {}

  accept(at: Loc, r: RecordOf<'paymentSources'>): void {
    this.accounts.acceptUser('paymentSources', at, r);
    if (!r.isDefault) return;
    const other = clashingDefault(r, this.defaults);
    if (other)
      this.problems.add(at, 'isDefault', `only one payment source can be the default, and paymentSources[${other.index}] already is`);
    this.defaults.push({ index: at.index, id: r.id, isDefault: true });
  }

  async checkDatabase(sql: Sql): Promise<void> {
    await this.checkDefault(sql);
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
