import { accountUsable, type AccountLike } from '../../domain/payment-source/rules';
import type { RecordOf } from '../registry';
import { arrayLiteral, arrayParam } from '../sql-arrays';
import { inChunks, type Sql } from './database';
import type { FileKeys } from './file-keys';
import { loc, type Loc, type Problems } from './problems';

// Accounts: what payment sources need of them (type and isActive of each valid account).

export class AccountRules {
  private readonly type: (string | undefined)[] = [];
  private readonly active: (boolean | undefined)[] = [];

  constructor(
    private readonly keys: FileKeys,
    private readonly problems: Problems,
  ) {}

  accept(at: Loc, r: RecordOf<'accounts'>): void {
    this.type[at.index] = r.type;
    this.active[at.index] = r.isActive;
  }

  /** The file's account with this id (undefined: not in the file, null: in it but invalid). */
  inFile(id: string): { index: number; account: AccountLike | null } | undefined {
    const index = this.keys.ids.accounts.index.get(id);
    if (index === undefined) return undefined;
    const type = this.type[index];
    return { index, account: type === undefined ? null : { type, isActive: this.active[index]! } };
  }

  /** An account the file makes unusable must not be used by a payment source the file leaves as it is. */
  async checkDatabase(sql: Sql): Promise<void> {
    const unusable: string[] = [];
    this.type.forEach((type, i) => {
      const id = this.keys.ids.accounts.byIndex.get(i);
      if (type !== undefined && id !== undefined && !accountUsable({ type, isActive: this.active[i]! })) unusable.push(id);
    });
    await inChunks(unusable, async (chunk) => {
      const rows = await sql.$queryRawUnsafe<{ id: string; code: string; accountId: string }[]>(
        `SELECT "id"::text AS id, "code", "accountId"::text AS "accountId" FROM "PaymentSource" WHERE "accountId" = ANY(${arrayParam(1, 'uuid')})`,
        arrayLiteral(chunk),
      );
      for (const r of rows) {
        if (this.keys.ids.paymentSources.index.has(r.id)) continue; // the file says what it points at now
        const index = this.keys.ids.accounts.index.get(r.accountId)!;
        const field = this.type[index] !== 'Asset' ? 'type' : 'isActive';
        this.problems.add(
          loc('accounts', index),
          field,
          `payment source ${r.code} in the database uses this account, which must stay an active Asset account`,
        );
      }
    });
  }
}
