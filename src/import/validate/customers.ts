import { clashingDefaultAddress } from '../../domain/address/rules';
import { IntList, UuidList, UuidMap } from '../compact';
import type { RecordOf } from '../registry';
import { arrayLiteral, arrayParam } from '../../db/sql-arrays';
import { hasRows, inChunks, type Sql } from './database';
import type { FileKeys } from './file-keys';
import { loc, type Loc, type Problems } from './problems';

// Customers' addresses: unique ids across the file, and one default address per customer
// counting the addresses of the database the file does not change (the customer schema
// already allows one default within a record).

export class CustomerAddresses {
  /** Addresses in the file: id → ordinal; ordinal → id, customer index and index inside the customer. */
  private readonly index = new UuidMap();
  private readonly ids = new UuidList();
  private readonly customer = new IntList();
  private readonly sub = new IntList();
  /** Customer index → ordinal of its default address in the file. */
  private readonly defaultOf = new IntList(-1);
  count = 0;
  /** Default addresses of the database that the file moves to another customer: un-defaulted before any address is written. */
  readonly clearDefaultFirst: string[] = [];

  constructor(
    private readonly keys: FileKeys,
    private readonly problems: Problems,
  ) {}

  accept(at: Loc, r: RecordOf<'customers'>): void {
    r.addresses.forEach((a, sub) => {
      this.count++;
      const other = this.index.get(a.id);
      if (other !== undefined) {
        this.problems.add(
          { ...at, sub },
          'id',
          `duplicate id ${a.id}: customers[${this.customer.get(other)}].addresses[${this.sub.get(other)}] has it too`,
        );
        return;
      }
      const ordinal = this.customer.length;
      this.index.set(a.id, ordinal);
      this.ids.set(ordinal, a.id);
      this.customer.push(at.index);
      this.sub.push(sub);
      if (a.isDefault) this.defaultOf.set(at.index, ordinal);
    });
  }

  /** The (customer id, default address id) pairs of the file. */
  private *defaults(): Generator<[string, string]> {
    for (let i = 0; i < this.defaultOf.length; i++) {
      const ordinal = this.defaultOf.get(i);
      if (ordinal < 0) continue;
      const customer = this.keys.ids.customers.byIndex.get(i);
      const address = this.ids.get(ordinal);
      if (customer !== undefined && address !== undefined) yield [customer, address];
    }
  }

  /** The database answers only the default addresses of the file's customers other than the file's defaults. */
  async checkDatabase(sql: Sql): Promise<void> {
    if (!(await hasRows(sql, 'Address'))) return;
    await inChunks(this.defaults(), async (chunk) => {
      const rows = await sql.$queryRawUnsafe<{ id: string; customerId: string; isDefault: boolean }[]>(
        `SELECT a."id"::text AS id, a."customerId"::text AS "customerId", a."isDefault"
           FROM unnest(${arrayParam(1, 'uuid')}, ${arrayParam(2, 'uuid')}) AS f(customer, address)
           JOIN LATERAL (SELECT * FROM "Address" a WHERE a."customerId" = f.customer AND a."isDefault" OFFSET 0) a ON true
          WHERE a."id" <> f.address`,
        arrayLiteral(chunk.map(([c]) => c)),
        arrayLiteral(chunk.map(([, a]) => a)),
      );
      for (const r of rows) {
        const customer = this.keys.ids.customers.index.get(r.customerId)!;
        const ordinal = this.index.get(r.id);
        if (ordinal !== undefined) {
          // The file lists this address too: it moves to another customer, or stops being the default.
          if (this.customer.get(ordinal) !== customer) this.clearDefaultFirst.push(r.id);
          continue;
        }
        const own = this.defaultOf.get(customer);
        const self = { id: this.ids.get(own)!, customerId: r.customerId, isDefault: true };
        if (clashingDefaultAddress(self, [r]))
          this.problems.add(
            loc('customers', customer, this.sub.get(own)),
            'isDefault',
            `the customer already has the default address ${r.id} in the database, which this file does not change`,
          );
      }
    });
  }
}
