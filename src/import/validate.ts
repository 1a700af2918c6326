import type { z } from 'zod';
import { isUuid } from '../domain/common/schemas';
import { IntList, UuidList, UuidMap } from './compact';
import { GarbageCollector } from './memory';
import { scanFile } from './read-file';
import { arrayLiteral, arrayParam } from './sql-arrays';
import {
  FILE_SECTIONS,
  isFileSection,
  NOUN,
  SCHEMAS,
  TABLE,
  type FileSection,
  type RecordOf,
} from './sections';
import type { ImportProblem, ImportProgress } from './types';

// Pass 1 of the import: stream the file, validate every record with its zod schema, and
// keep only the keys the cross-record rules need (ids, codes, debtor numbers, a few
// flags), not the records. Then check what the file cannot settle alone against the
// database: references to rows not in the file, codes and numbers used by rows the file
// does not change, the one default payment source, the one default address per customer.
// Every problem is collected with its position; nothing is written here.

/** The database access both passes need: raw statements with parameters (a PrismaClient or a transaction client). */
export interface Sql {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/** Sections whose unique key (code, debtor number, article + validFrom) may need moving aside. */
export type KeyedSection = 'accounts' | 'articles' | 'articlePrices' | 'customers' | 'academicTerms' | 'paymentSources';

export interface ImportPlan {
  /** The sections present in the file, in file order. */
  readonly sections: readonly FileSection[];
  /** Records per section in the file; addresses separately. */
  readonly records: Readonly<Record<FileSection | 'addresses', number>>;
  /**
   * Rows of the database whose unique key another record of the file takes while the file
   * gives them a new key themselves (codes swapped, say): the write pass moves their key
   * aside first, since PostgreSQL checks unique indexes row by row.
   */
  readonly moveKeyFirst: Readonly<Record<KeyedSection, readonly string[]>>;
  /** Default addresses the file moves to another customer: un-defaulted before any address is written. */
  readonly clearDefaultFirst: readonly string[];
}

export interface ValidationOutcome {
  readonly problems: readonly ImportProblem[];
  readonly plan: ImportPlan;
}

type RefTarget = 'accounts' | 'taxCodes' | 'articles' | 'customers';

/** Where a record is: section, index, and the address index inside a customer (-1: none). */
interface Loc {
  readonly section: FileSection;
  readonly index: number;
  readonly sub: number;
}

interface Entry {
  readonly seq: number;
  readonly index: number;
  readonly sub: number;
  readonly n: number;
  readonly problem: ImportProblem;
}

const LOOKUP_CHUNK = 5000;
/** Rows per check that sends the file's keys to the database. */
const BULK_CHUNK = 5000;
const IDENT = /^[A-Za-z_$][\w$]*$/;

function pathText(path: readonly PropertyKey[]): string {
  let s = '';
  for (const p of path) {
    if (typeof p === 'number') s += `[${p}]`;
    else if (typeof p === 'string' && IDENT.test(p)) s += `.${p}`;
    else s += `[${JSON.stringify(String(p))}]`;
  }
  return s;
}

function locText(loc: Loc): string {
  return `${loc.section}[${loc.index}]${loc.sub >= 0 ? `.addresses[${loc.sub}]` : ''}`;
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = raw;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

function preview(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

async function inChunks<T>(items: Iterable<T>, size: number, f: (chunk: T[]) => Promise<void>): Promise<void> {
  let chunk: T[] = [];
  for (const item of items) {
    chunk.push(item);
    if (chunk.length >= size) {
      await f(chunk);
      chunk = [];
    }
  }
  if (chunk.length > 0) await f(chunk);
}

async function hasRows(sql: Sql, table: string): Promise<boolean> {
  const [row] = await sql.$queryRawUnsafe<{ any: boolean }[]>(`SELECT EXISTS (SELECT 1 FROM "${table}") AS any`);
  return row?.any === true;
}

/** A section's ids: index → id and id → index. */
class Ids {
  readonly byIndex = new UuidList();
  readonly index = new UuidMap();
}

class Validator {
  /** Parameter bytes sent by the checks so far (for the garbage collector's pace). */
  private sent = 0;
  /** Prisma copies a statement's parameters several times: collect every 4 MB sent. */
  private readonly collector = new GarbageCollector(4 * 1024 * 1024);

  /** Runs a lookup with array parameters; collects garbage now and then (Prisma copies them). */
  private async lookup<T>(sql: Sql, query: string, ...params: string[]): Promise<T[]> {
    const rows = await sql.$queryRawUnsafe<T[]>(query, ...params);
    for (const p of params) this.sent += p.length;
    this.collector.tick(this.sent);
    return rows;
  }

  private readonly entries: Entry[] = [];
  private readonly seqOf = new Map<string, number>();
  readonly sections: FileSection[] = [];
  readonly records: Record<FileSection | 'addresses', number> = {
    accounts: 0,
    taxCodes: 0,
    articles: 0,
    articlePrices: 0,
    customers: 0,
    addresses: 0,
    academicTerms: 0,
    paymentSources: 0,
  };

  private readonly ids: Record<FileSection, Ids> = {
    accounts: new Ids(),
    taxCodes: new Ids(),
    articles: new Ids(),
    articlePrices: new Ids(),
    customers: new Ids(),
    academicTerms: new Ids(),
    paymentSources: new Ids(),
  };

  // accounts: type and isActive of each valid account (undefined for an invalid record)
  private readonly accountType: (string | undefined)[] = [];
  private readonly accountActive: (boolean | undefined)[] = [];
  private readonly accountCodes = new Map<string, number>();
  private readonly articleCodes = new Map<string, number>();
  private readonly termCodes = new Map<string, number>();
  private readonly debtorNumbers = new Map<string, number>();
  // payment sources: lower-case code → index; the code as written; account; defaults
  private readonly sourceCodes = new Map<string, number>();
  private readonly sourceCodeText: string[] = [];
  private readonly sourceAccount: (string | undefined)[] = [];
  private readonly sourceDefaults: number[] = [];
  // article prices: "articleId validFrom" (ISO) → index
  private readonly priceKeys = new Map<string, number>();
  // addresses: id → ordinal; ordinal → customer index and index inside the customer
  private readonly addressIndex = new UuidMap();
  private readonly addressIds = new UuidList();
  private readonly addressCustomer = new IntList();
  private readonly addressSub = new IntList();
  // customer index → ordinal of its default address in the file
  private readonly customerDefault = new IntList(-1);
  // references not (yet) found in the file
  private pending: { target: RefTarget; id: string; loc: Loc; field: string }[] = [];

  private readonly moveKeyFirst: Record<KeyedSection, string[]> = {
    accounts: [],
    articles: [],
    articlePrices: [],
    customers: [],
    academicTerms: [],
    paymentSources: [],
  };
  private readonly clearDefaultFirst: string[] = [];

  // ---------------------------------------------------------------- problems
  private add(loc: Loc, field: string, message: string): void {
    this.entries.push({
      seq: this.seqOf.get(loc.section) ?? 0,
      index: loc.index,
      sub: loc.sub,
      n: this.entries.length,
      problem: { position: `${locText(loc)}${field ? `.${field}` : ''}`, message },
    });
  }

  private addTop(name: string, seq: number, message: string): void {
    this.entries.push({ seq, index: -1, sub: -1, n: this.entries.length, problem: { position: name, message } });
  }

  problems(): ImportProblem[] {
    return [...this.entries]
      .sort((a, b) => a.seq - b.seq || a.index - b.index || a.sub - b.sub || a.n - b.n)
      .map((e) => e.problem);
  }

  // ---------------------------------------------------------------- the file
  section(name: string, seq: number): void {
    this.seqOf.set(name, seq);
    if (isFileSection(name)) this.sections.push(name);
    else this.addTop(name, seq, `is not a section of an import file (expected ${FILE_SECTIONS.join(', ')})`);
  }

  notArray(name: string, seq: number, value: unknown): void {
    this.seqOf.set(name, seq);
    if (!isFileSection(name)) this.addTop(name, seq, `is not a section of an import file (expected ${FILE_SECTIONS.join(', ')})`);
    else this.addTop(name, seq, `must be an array of ${NOUN[name]} records, not ${preview(value)}`);
  }

  record(name: string, index: number, value: unknown): void {
    if (!isFileSection(name)) return; // reported once for the section
    const section = name;
    this.records[section]++;
    const loc: Loc = { section, index, sub: -1 };
    const schema = SCHEMAS[section] as z.ZodType;
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      this.schemaProblems(loc, parsed.error.issues, value);
      this.registerRaw(loc, value);
      return;
    }
    switch (section) {
      case 'accounts':
        return this.account(loc, parsed.data as RecordOf<'accounts'>);
      case 'taxCodes':
        return this.taxCode(loc, parsed.data as RecordOf<'taxCodes'>);
      case 'articles':
        return this.article(loc, parsed.data as RecordOf<'articles'>);
      case 'articlePrices':
        return this.price(loc, parsed.data as RecordOf<'articlePrices'>);
      case 'customers':
        return this.customer(loc, parsed.data as RecordOf<'customers'>);
      case 'academicTerms':
        return this.term(loc, parsed.data as RecordOf<'academicTerms'>);
      case 'paymentSources':
        return this.paymentSource(loc, parsed.data as RecordOf<'paymentSources'>);
    }
  }

  private schemaProblems(loc: Loc, issues: readonly z.core.$ZodIssue[], raw: unknown): void {
    for (const issue of issues) {
      let at = loc;
      let path = issue.path;
      if (loc.section === 'customers' && path[0] === 'addresses' && typeof path[1] === 'number') {
        at = { ...loc, sub: path[1] };
        path = path.slice(2);
        if (path.length === 0 && issue.code !== 'unrecognized_keys') {
          this.add(at, '', issue.message);
          continue;
        }
      }
      const field = pathText(path).replace(/^\./, '');
      const value = valueAt(raw, issue.path);
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys)
          this.add(at, pathText([...path, key]).replace(/^\./, ''), 'is not a field of this record');
      } else if (issue.code === 'invalid_type' && value === undefined && issue.path.length > 0) {
        this.add(at, field, 'is required');
      } else if (issue.code === 'invalid_value' || issue.code === 'invalid_format') {
        this.add(at, field, `${issue.message} (got ${preview(value)})`);
      } else {
        this.add(at, field, issue.message);
      }
    }
  }

  /**
   * An invalid record still claims its id and its unique key, so that records pointing at
   * it are not also reported, and a second record with its code is.
   */
  private registerRaw(loc: Loc, value: unknown): void {
    if (value === null || typeof value !== 'object') return;
    const raw = value as Record<string, unknown>;
    if (typeof raw.id === 'string' && isUuid(raw.id)) this.registerId(loc, raw.id.toLowerCase());
    const key = (name: string) => (typeof raw[name] === 'string' ? (raw[name] as string) : undefined);
    const code = key('code');
    switch (loc.section) {
      case 'accounts':
        if (code !== undefined) this.unique(this.accountCodes, code, loc, 'code', 'code');
        break;
      case 'articles':
        if (code !== undefined) this.unique(this.articleCodes, code, loc, 'code', 'code');
        break;
      case 'academicTerms':
        if (code !== undefined) this.unique(this.termCodes, code, loc, 'code', 'code');
        break;
      case 'customers': {
        const debtor = key('debtorNumber');
        if (debtor !== undefined) this.unique(this.debtorNumbers, debtor, loc, 'debtorNumber', 'debtor number');
        break;
      }
      case 'paymentSources':
        if (code !== undefined) this.sourceCode(loc, code);
        break;
      default:
    }
  }

  private registerId(loc: Loc, id: string): void {
    const ids = this.ids[loc.section];
    const other = ids.index.get(id);
    if (other !== undefined) {
      this.add(loc, 'id', `duplicate id ${id}: ${loc.section}[${other}] has it too`);
      return;
    }
    ids.index.set(id, loc.index);
    ids.byIndex.set(loc.index, id);
  }

  private unique(map: Map<string, number>, key: string, loc: Loc, field: string, what: string): void {
    const other = map.get(key);
    if (other !== undefined) this.add(loc, field, `${what} ${preview(key)} is also used by ${loc.section}[${other}]`);
    else map.set(key, loc.index);
  }

  private ref(target: RefTarget, id: string | null | undefined, loc: Loc, field: string): void {
    if (id == null || this.ids[target].index.has(id)) return;
    this.pending.push({ target, id, loc, field });
  }

  private account(loc: Loc, r: RecordOf<'accounts'>): void {
    this.registerId(loc, r.id);
    this.unique(this.accountCodes, r.code, loc, 'code', 'code');
    this.accountType[loc.index] = r.type;
    this.accountActive[loc.index] = r.isActive;
  }

  private taxCode(loc: Loc, r: RecordOf<'taxCodes'>): void {
    this.registerId(loc, r.id);
    this.ref('accounts', r.taxAccountId, loc, 'taxAccountId');
    this.ref('accounts', r.revenueAccountId, loc, 'revenueAccountId');
  }

  private article(loc: Loc, r: RecordOf<'articles'>): void {
    this.registerId(loc, r.id);
    this.unique(this.articleCodes, r.code, loc, 'code', 'code');
    this.ref('taxCodes', r.defaultTaxCodeId, loc, 'defaultTaxCodeId');
    this.ref('accounts', r.revenueAccountId, loc, 'revenueAccountId');
  }

  private price(loc: Loc, r: RecordOf<'articlePrices'>): void {
    this.registerId(loc, r.id);
    const key = `${r.articleId} ${r.validFrom.toISOString()}`;
    const other = this.priceKeys.get(key);
    if (other !== undefined)
      this.add(loc, 'validFrom', `the article already has a price from ${r.validFrom.toISOString()}: articlePrices[${other}]`);
    else this.priceKeys.set(key, loc.index);
    this.ref('articles', r.articleId, loc, 'articleId');
  }

  private customer(loc: Loc, r: RecordOf<'customers'>): void {
    this.registerId(loc, r.id);
    this.unique(this.debtorNumbers, r.debtorNumber, loc, 'debtorNumber', 'debtor number');
    this.ref('accounts', r.receivableAccountId, loc, 'receivableAccountId');
    this.ref('accounts', r.prepaymentAccountId, loc, 'prepaymentAccountId');
    r.addresses.forEach((a, sub) => {
      this.records.addresses++;
      const other = this.addressIndex.get(a.id);
      if (other !== undefined) {
        this.add({ ...loc, sub }, 'id', `duplicate id ${a.id}: customers[${this.addressCustomer.get(other)}].addresses[${this.addressSub.get(other)}] has it too`);
        return;
      }
      const ordinal = this.addressCustomer.length;
      this.addressIndex.set(a.id, ordinal);
      this.addressIds.set(ordinal, a.id);
      this.addressCustomer.push(loc.index);
      this.addressSub.push(sub);
      if (a.isDefault) this.customerDefault.set(loc.index, ordinal); // the schema allows one per customer
    });
  }

  private term(loc: Loc, r: RecordOf<'academicTerms'>): void {
    this.registerId(loc, r.id);
    this.unique(this.termCodes, r.code, loc, 'code', 'code');
  }

  private sourceCode(loc: Loc, code: string): void {
    const lower = code.toLowerCase();
    const other = this.sourceCodes.get(lower);
    if (other !== undefined)
      this.add(loc, 'code', `code ${preview(code)} is also used by paymentSources[${other}] (${preview(this.sourceCodeText[other])}); codes compare case-insensitively`);
    else this.sourceCodes.set(lower, loc.index);
    this.sourceCodeText[loc.index] = code;
  }

  private paymentSource(loc: Loc, r: RecordOf<'paymentSources'>): void {
    this.registerId(loc, r.id);
    this.sourceCode(loc, r.code);
    this.sourceAccount[loc.index] = r.accountId;
    if (r.isDefault) {
      const first = this.sourceDefaults[0];
      if (first !== undefined)
        this.add(loc, 'isDefault', `only one payment source can be the default, and paymentSources[${first}] already is`);
      this.sourceDefaults.push(loc.index);
    }
  }

  // ---------------------------------------------------------------- against the database
  async checkDatabase(sql: Sql): Promise<void> {
    await this.checkReferences(sql);
    await this.checkSourceAccounts(sql);
    await this.checkAccountsInUse(sql);
    await this.checkUniqueKeys(sql);
    await this.checkDefaultSource(sql);
    await this.checkDefaultAddresses(sql);
  }

  /** References the file does not satisfy must name rows of the database. */
  private async checkReferences(sql: Sql): Promise<void> {
    const open = this.pending.filter((p) => !this.ids[p.target].index.has(p.id));
    this.pending = [];
    const byTarget = new Map<RefTarget, Set<string>>();
    for (const p of open) {
      let s = byTarget.get(p.target);
      if (!s) byTarget.set(p.target, (s = new Set()));
      s.add(p.id);
    }
    const found = new Set<string>();
    for (const [target, idSet] of byTarget) {
      await inChunks(idSet, LOOKUP_CHUNK, async (chunk) => {
        const rows = await this.lookup<{ id: string }>(
          sql,
          `SELECT "id"::text AS id FROM "${TABLE[target]}" WHERE "id" = ANY(${arrayParam(1, 'uuid')})`,
          arrayLiteral(chunk),
        );
        for (const r of rows) found.add(`${target} ${r.id}`);
      });
    }
    for (const p of open)
      if (!found.has(`${p.target} ${p.id}`))
        this.add(p.loc, p.field, `no ${NOUN[p.target]} with id ${p.id} in the file or the database`);
  }

  /** A payment source's account must exist and be an active Asset account. */
  private async checkSourceAccounts(sql: Sql): Promise<void> {
    const accounts = this.ids.accounts.index;
    const fromDb = new Set<string>();
    this.sourceAccount.forEach((id) => {
      if (id !== undefined && !accounts.has(id)) fromDb.add(id);
    });
    const db = new Map<string, { code: string; type: string; isActive: boolean }>();
    await inChunks(fromDb, LOOKUP_CHUNK, async (chunk) => {
      const rows = await sql.$queryRawUnsafe<{ id: string; code: string; type: string; isActive: boolean }[]>(
        `SELECT "id"::text AS id, "code", "type"::text AS type, "isActive" FROM "Account" WHERE "id" = ANY(${arrayParam(1, 'uuid')})`,
        arrayLiteral(chunk),
      );
      for (const r of rows) db.set(r.id, r);
    });
    this.sourceAccount.forEach((id, index) => {
      if (id === undefined) return;
      const loc: Loc = { section: 'paymentSources', index, sub: -1 };
      let type: string | undefined;
      let active: boolean | undefined;
      let name: string;
      const i = accounts.get(id);
      if (i !== undefined) {
        type = this.accountType[i];
        active = this.accountActive[i];
        name = `accounts[${i}]`;
        if (type === undefined) return; // the account record itself is invalid, reported there
      } else {
        const row = db.get(id);
        if (!row) {
          this.add(loc, 'accountId', `no account with id ${id} in the file or the database`);
          return;
        }
        type = row.type;
        active = row.isActive;
        name = `account ${row.code}`;
      }
      if (type !== 'Asset')
        this.add(loc, 'accountId', `${name} is of type ${type}; a payment source needs an active Asset account`);
      else if (!active) this.add(loc, 'accountId', `${name} is inactive; a payment source needs an active Asset account`);
    });
  }

  /** An account the file makes inactive or not an Asset must not be used by a payment source the file leaves as is. */
  private async checkAccountsInUse(sql: Sql): Promise<void> {
    const unusable: string[] = [];
    this.accountType.forEach((type, i) => {
      const id = this.ids.accounts.byIndex.get(i);
      if (type !== undefined && id !== undefined && (type !== 'Asset' || !this.accountActive[i])) unusable.push(id);
    });
    await inChunks(unusable, LOOKUP_CHUNK, async (chunk) => {
      const rows = await sql.$queryRawUnsafe<{ id: string; code: string; accountId: string }[]>(
        `SELECT "id"::text AS id, "code", "accountId"::text AS "accountId" FROM "PaymentSource" WHERE "accountId" = ANY(${arrayParam(1, 'uuid')})`,
        arrayLiteral(chunk),
      );
      for (const r of rows) {
        if (this.ids.paymentSources.index.has(r.id)) continue; // the file says what it points at now
        const index = this.ids.accounts.index.get(r.accountId)!;
        const field = this.accountType[index] !== 'Asset' ? 'type' : 'isActive';
        this.add(
          { section: 'accounts', index, sub: -1 },
          field,
          `payment source ${r.code} in the database uses this account, which must stay an active Asset account`,
        );
      }
    });
  }

  /**
   * Codes and debtor numbers the file uses must not belong to other rows of the database,
   * unless the file gives those rows a new key too (then they are moved aside first).
   * The file's (key, id) pairs go to the database, which answers only the rows that
   * hold one of the keys under another id: usually none.
   */
  private async checkUniqueKeys(sql: Sql): Promise<void> {
    const check = async (
      section: KeyedSection,
      keys: Map<string, number>,
      match: string,
      field: string,
      describe: (key: string) => string,
    ) => {
      const ids = this.ids[section];
      const table = TABLE[section];
      if (keys.size === 0 || !(await hasRows(sql, table))) return;
      await inChunks(keys.entries(), BULK_CHUNK, async (chunk) => {
        const rows = await this.lookup<{ id: string; key: string }>(
          sql,
          `SELECT t."id"::text AS id, f.key FROM unnest(${arrayParam(1, 'text')}, ${arrayParam(2, 'uuid')}) AS f(key, id)
             JOIN LATERAL (SELECT * FROM "${table}" t WHERE ${match} OFFSET 0) t ON true WHERE t."id" <> f.id`,
          arrayLiteral(chunk.map(([k]) => k)),
          arrayLiteral(chunk.map(([, index]) => ids.byIndex.get(index))),
        );
        for (const r of rows) {
          const index = keys.get(r.key)!;
          if (ids.index.has(r.id)) this.moveKeyFirst[section].push(r.id);
          else
            this.add(
              { section, index, sub: -1 },
              field,
              `${describe(r.key)} is already used by ${NOUN[section]} ${r.id} in the database, which this file does not change`,
            );
        }
      });
    };
    const code = (k: string) => `code ${preview(k)}`;
    await check('accounts', this.accountCodes, `t."code" = f.key`, 'code', code);
    await check('articles', this.articleCodes, `t."code" = f.key`, 'code', code);
    await check('academicTerms', this.termCodes, `t."code" = f.key`, 'code', code);
    await check('paymentSources', this.sourceCodes, `lower(t."code") = f.key`, 'code', (k) => `code ${preview(this.sourceCodeText[this.sourceCodes.get(k)!])} (compared case-insensitively)`);
    await check('customers', this.debtorNumbers, `t."debtorNumber" = f.key`, 'debtorNumber', (k) => `debtor number ${preview(k)}`);
    // article prices: the key is "articleId validFrom" (ISO)
    await check(
      'articlePrices',
      this.priceKeys,
      `t."articleId" = split_part(f.key, ' ', 1)::uuid AND t."validFrom" = split_part(f.key, ' ', 2)::timestamptz`,
      'validFrom',
      (k) => `validFrom ${k.split(' ')[1]} of this article`,
    );
  }

  /** At most one payment source is the default, counting those the file does not change. */
  private async checkDefaultSource(sql: Sql): Promise<void> {
    const index = this.sourceDefaults[0];
    if (index === undefined) return;
    const id = this.ids.paymentSources.byIndex.get(index);
    const rows = await sql.$queryRawUnsafe<{ id: string; code: string }[]>(
      `SELECT "id"::text AS id, "code" FROM "PaymentSource" WHERE "isDefault"`,
    );
    for (const r of rows) {
      if (r.id === id || this.ids.paymentSources.index.has(r.id)) continue;
      this.add(
        { section: 'paymentSources', index, sub: -1 },
        'isDefault',
        `payment source ${r.code} (${r.id}) is already the default in the database, and this file does not change it`,
      );
    }
  }

  /**
   * One default address per customer, counting the addresses of the database the file does
   * not change. The database answers only default addresses other than the file's.
   */
  private async checkDefaultAddresses(sql: Sql): Promise<void> {
    if (!(await hasRows(sql, 'Address'))) return;
    const self = this;
    function* pairs(): Generator<[string, string]> {
      for (let i = 0; i < self.customerDefault.length; i++) {
        const ordinal = self.customerDefault.get(i);
        if (ordinal < 0) continue;
        const customer = self.ids.customers.byIndex.get(i);
        const address = self.addressIds.get(ordinal);
        if (customer !== undefined && address !== undefined) yield [customer, address];
      }
    }
    await inChunks(pairs(), BULK_CHUNK, async (chunk) => {
      const rows = await this.lookup<{ id: string; customerId: string }>(
        sql,
        `SELECT a."id"::text AS id, a."customerId"::text AS "customerId"
           FROM unnest(${arrayParam(1, 'uuid')}, ${arrayParam(2, 'uuid')}) AS f(customer, address)
           JOIN LATERAL (SELECT * FROM "Address" a WHERE a."customerId" = f.customer AND a."isDefault" OFFSET 0) a ON true
          WHERE a."id" <> f.address`,
        arrayLiteral(chunk.map(([c]) => c)),
        arrayLiteral(chunk.map(([, a]) => a)),
      );
      for (const r of rows) {
        const customer = this.ids.customers.index.get(r.customerId)!;
        const ordinal = this.addressIndex.get(r.id);
        if (ordinal === undefined) {
          const own = this.customerDefault.get(customer);
          this.add(
            { section: 'customers', index: customer, sub: this.addressSub.get(own) },
            'isDefault',
            `the customer already has the default address ${r.id} in the database, which this file does not change`,
          );
        } else if (this.addressCustomer.get(ordinal) !== customer) {
          this.clearDefaultFirst.push(r.id); // it moves to another customer later in the file
        }
      }
    });
  }

  plan(): ImportPlan {
    return {
      sections: this.sections,
      records: this.records,
      moveKeyFirst: this.moveKeyFirst,
      clearDefaultFirst: this.clearDefaultFirst,
    };
  }
}

/** Pass 1: validates the whole file and checks it against the database; writes nothing. */
export async function validateFile(
  sql: Sql,
  file: string,
  totalBytes: number,
  onProgress?: (p: ImportProgress) => void,
): Promise<ValidationOutcome> {
  const collector = new GarbageCollector();
  const v = new Validator();
  let section: FileSection | null = null;
  let sectionRecords = 0;
  let totalRecords = 0;
  await scanFile(
    file,
    {
      section(name, seq) {
        v.section(name, seq);
        section = isFileSection(name) ? name : null;
        sectionRecords = 0;
      },
      notArray(name, seq, value) {
        v.notArray(name, seq, value);
      },
      record(name, index, value) {
        v.record(name, index, value);
        sectionRecords++;
        totalRecords++;
      },
      sectionEnd() {
        section = null;
      },
    },
    (bytes) => {
      collector.tick(bytes);
      onProgress?.({ phase: 'validate', section, sectionRecords, totalRecords, bytes, totalBytes });
    },
  );
  onProgress?.({ phase: 'check', section: null, sectionRecords: 0, totalRecords, bytes: totalBytes, totalBytes });
  await v.checkDatabase(sql);
  return { problems: v.problems(), plan: v.plan() };
}
