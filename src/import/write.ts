import type { FieldCatalog, FieldType } from '../query/fields';
import { academicTermFields } from '../domain/academic-term/fields';
import { accountFields } from '../domain/account/fields';
import { addressFields } from '../domain/address/fields';
import { articlePriceFields } from '../domain/article-price/fields';
import { articleFields } from '../domain/article/fields';
import { NIL_UUID } from '../domain/common/schemas';
import { customerFields } from '../domain/customer/fields';
import { paymentSourceFields } from '../domain/payment-source/fields';
import { taxCodeFields } from '../domain/tax-code/fields';
import type { FileSection, RecordOf } from './sections';
import type { SectionCounts } from './types';
import { arrayLiteral, arrayParam } from './sql-arrays';
import type { KeyedSection, Sql } from './validate';

// Pass 2 of the import: set-based upserts by id. Each batch of rows goes to the database
// as one statement with one array parameter per column (see sql-arrays.ts):
//   WITH p AS (SELECT s.*, <is there a row with this id>, <does a value differ>
//              FROM unnest($1::text::uuid[], $2::text::text[], ...) s
//              LEFT JOIN LATERAL (<the row with id = s.id>) c ON true)
//   INSERT the rows not there; UPDATE the ones whose values differ.
// The SQL text is built only from the column lists below; every value travels as a
// parameter. Rows whose values are already those of the file are not touched at all (no
// new row version, no lock), so a second import of the same file changes nothing.
//
// Audit fields (tax codes, articles, payment sources): createdAt / createdById /
// updatedAt / updatedById are kept when the file gives them. When it does not: a new row
// gets createdAt = the import time, createdById = the nil UUID (the system), and no
// updatedAt; an existing row keeps its createdAt and createdById, and its updatedAt /
// updatedById become the import time and the nil UUID only if the import changes one of
// its values (otherwise they stay as they are).

type Value = string | boolean | null;

interface Column<R> {
  readonly name: string;
  /** PostgreSQL element type of the array parameter. */
  readonly type: string;
  readonly get: (r: R) => Value;
}

interface TableSpec<R> {
  readonly table: string;
  /** The id first, then the data columns (the audit columns are added for `audited`). */
  readonly columns: readonly Column<R>[];
  readonly audited: boolean;
}

/** A parsed record and the raw one it came from (to tell an absent audit field from a given one). */
export interface Row<R> {
  readonly record: R;
  readonly raw: Record<string, unknown>;
}

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

// The columns of each table come from the resource's one field catalogue
// (src/domain/<resource>/fields.ts): the import writes exactly the fields the API shows.
const SQL_TYPE: Record<FieldType, string> = {
  uuid: 'uuid',
  string: 'text',
  boolean: 'boolean',
  decimal: 'numeric',
  datetime: 'timestamptz',
  enum: 'text',
};
const AUDIT_FIELDS: ReadonlySet<string> = new Set(['createdAt', 'createdById', 'updatedAt', 'updatedById']);

function toValue(v: unknown): Value {
  if (v instanceof Date) return iso(v);
  if (v === undefined || v === null) return null;
  return v as Value;
}

/** Columns for every catalogue field but the audit ones; `enumTypes` names database enum types. */
function columnsOf<R>(fields: FieldCatalog, enumTypes: Readonly<Record<string, string>> = {}): Column<R>[] {
  return Object.entries(fields)
    .filter(([name]) => !AUDIT_FIELDS.has(name))
    .map(([name, spec]) => ({
      name,
      type: enumTypes[name] ?? SQL_TYPE[spec.type],
      get: (r: R) => toValue((r as Record<string, unknown>)[name]),
    }));
}

type Account = RecordOf<'accounts'>;
type TaxCode = RecordOf<'taxCodes'>;
type Article = RecordOf<'articles'>;
type Price = RecordOf<'articlePrices'>;
type Customer = RecordOf<'customers'>;
export type AddressRow = Customer['addresses'][number] & { customerId: string };
type Term = RecordOf<'academicTerms'>;
type Source = RecordOf<'paymentSources'>;

export const ACCOUNT: TableSpec<Account> = { table: 'Account', audited: false, columns: columnsOf(accountFields, { type: '"AccountType"' }) };
// taxType is an enum of the API, stored as text with a CHECK constraint ('Sales Tax' has a space).
export const TAX_CODE: TableSpec<TaxCode> = { table: 'TaxCode', audited: true, columns: columnsOf(taxCodeFields) };
export const ARTICLE: TableSpec<Article> = { table: 'Article', audited: true, columns: columnsOf(articleFields) };
export const ARTICLE_PRICE: TableSpec<Price> = { table: 'ArticlePrice', audited: false, columns: columnsOf(articlePriceFields) };
export const CUSTOMER: TableSpec<Customer> = { table: 'Customer', audited: false, columns: columnsOf(customerFields) };
export const ADDRESS: TableSpec<AddressRow> = { table: 'Address', audited: false, columns: columnsOf(addressFields) };
export const ACADEMIC_TERM: TableSpec<Term> = { table: 'AcademicTerm', audited: false, columns: columnsOf(academicTermFields) };
export const PAYMENT_SOURCE: TableSpec<Source> = {
  table: 'PaymentSource',
  audited: true,
  columns: columnsOf(paymentSourceFields, { sourceType: '"SourceType"' }),
};

const q = (name: string) => `"${name}"`;
const AUDIT = ['createdAt', 'createdById', 'updatedAt', 'updatedById'] as const;

/**
 * The write statement of a table. Parameters: one array per column, then (audited tables)
 * the audit arrays and the import time. Each row's current version is looked up by id
 * (once): new rows are INSERTed, rows with a different value UPDATEd, unchanged rows left
 * alone (not even locked). Answers { inserted, updated }.
 */
function upsertSql<R>(spec: TableSpec<R>): string {
  const table = q(spec.table);
  const data = spec.columns.map((c) => c.name);
  const rest = data.slice(1); // without id
  const tuple = (alias: string, names: readonly string[]) => `(${names.map((n) => `${alias}.${q(n)}`).join(', ')})`;
  const params = spec.columns.map((c, i) => arrayParam(i + 1, c.type));
  // The current row of each id, through the primary key. OFFSET 0 keeps the planner from
  // turning this into a hash join over the whole table (its statistics are stale while the
  // import fills the table).
  const current = `LEFT JOIN LATERAL (SELECT * FROM ${table} x WHERE x."id" = s."id" OFFSET 0) c ON true`;
  const dataChanged = `${tuple('c', rest)} IS DISTINCT FROM ${tuple('s', rest)}`;
  let source: string;
  let columns: readonly string[];
  if (!spec.audited) {
    columns = data;
    source = `SELECT s.*, c."id" IS NOT NULL AS present, c."id" IS NOT NULL AND ${dataChanged} AS changed
    FROM unnest(${params.join(', ')}) AS s(${data.map(q).join(', ')})
    ${current}`;
  } else {
    columns = [...data, ...AUDIT];
    const n = spec.columns.length;
    const audit = [
      arrayParam(n + 1, 'timestamptz'), // createdAt, null when absent
      arrayParam(n + 2, 'uuid'), // createdById, null when absent
      arrayParam(n + 3, 'timestamptz'), // updatedAt as given
      arrayParam(n + 4, 'uuid'), // updatedById as given
      arrayParam(n + 5, 'boolean'), // updatedAt given?
      arrayParam(n + 6, 'boolean'), // updatedById given?
    ];
    const now = `$${n + 7}::timestamptz`;
    const nil = `'${NIL_UUID}'::uuid`;
    const names = [...data.map(q), 'created_at', 'created_by', 'updated_at', 'updated_by', 'ua_given', 'ub_given'];
    // An existing row changes when a value differs, or an audit field the file gives does.
    const changed = `c."id" IS NOT NULL AND (${dataChanged}
        OR (s.created_at IS NOT NULL AND s.created_at IS DISTINCT FROM c."createdAt")
        OR (s.created_by IS NOT NULL AND s.created_by IS DISTINCT FROM c."createdById")
        OR (s.ua_given AND s.updated_at IS DISTINCT FROM c."updatedAt")
        OR (s.ub_given AND s.updated_by IS DISTINCT FROM c."updatedById"))`;
    source = `SELECT ${data.map((d) => `s.${q(d)}`).join(', ')},
      COALESCE(s.created_at, c."createdAt", ${now}) AS "createdAt",
      COALESCE(s.created_by, c."createdById", ${nil}) AS "createdById",
      CASE WHEN s.ua_given THEN s.updated_at WHEN c."id" IS NULL THEN NULL
           WHEN ${dataChanged} THEN ${now} ELSE c."updatedAt" END AS "updatedAt",
      CASE WHEN s.ub_given THEN s.updated_by WHEN c."id" IS NULL THEN NULL
           WHEN ${dataChanged} THEN ${nil} ELSE c."updatedById" END AS "updatedById",
      c."id" IS NOT NULL AS present,
      ${changed} AS changed
    FROM unnest(${[...params, ...audit].join(', ')}) AS s(${names.join(', ')})
    ${current}`;
  }
  const set = columns.slice(1).map((c) => `${q(c)} = p.${q(c)}`);
  return `WITH p AS (
  ${source}
), ins AS (
  INSERT INTO ${table} (${columns.map(q).join(', ')})
  SELECT ${columns.map((c) => `p.${q(c)}`).join(', ')} FROM p WHERE NOT p.present
  RETURNING 1
), upd AS (
  UPDATE ${table} t SET ${set.join(', ')} FROM p WHERE p.changed AND t."id" = p."id"
  RETURNING 1
)
SELECT (SELECT count(*) FROM ins)::int AS inserted, (SELECT count(*) FROM upd)::int AS updated`;
}

/** Collects rows of one table and writes them in batches. */
export class TableWriter<R> {
  private readonly sql: string;
  private rows: Row<R>[] = [];
  readonly counts: SectionCounts = { inserted: 0, updated: 0, unchanged: 0 };

  constructor(
    private readonly spec: TableSpec<R>,
    private readonly now: string,
  ) {
    this.sql = upsertSql(spec);
  }

  get size(): number {
    return this.rows.length;
  }

  add(row: Row<R>): void {
    this.rows.push(row);
  }

  /** Takes the collected rows; `write` sends them. Split so that the next batch can be collected meanwhile. */
  take(): Row<R>[] {
    const rows = this.rows;
    this.rows = [];
    return rows;
  }

  /** Writes the rows in one statement; answers how many were inserted and updated. */
  async write(db: Sql, rows: readonly Row<R>[]): Promise<{ inserted: number; updated: number }> {
    if (rows.length === 0) return { inserted: 0, updated: 0 };
    const params: unknown[] = this.spec.columns.map((c) => arrayLiteral(rows.map((r) => c.get(r.record))));
    if (this.spec.audited) {
      const given = (r: Row<R>, k: string) => r.raw[k] !== undefined;
      const audit = (r: Row<R>) => r.record as unknown as { createdAt?: Date; createdById: string; updatedAt: Date | null; updatedById: string | null };
      params.push(
        arrayLiteral(rows.map((r) => iso(audit(r).createdAt))),
        arrayLiteral(rows.map((r) => (given(r, 'createdById') ? audit(r).createdById : null))),
        arrayLiteral(rows.map((r) => iso(audit(r).updatedAt))),
        arrayLiteral(rows.map((r) => audit(r).updatedById)),
        arrayLiteral(rows.map((r) => given(r, 'updatedAt'))),
        arrayLiteral(rows.map((r) => given(r, 'updatedById'))),
        this.now,
      );
    }
    const [res] = await db.$queryRawUnsafe<{ inserted: number; updated: number }[]>(this.sql, ...params);
    const inserted = res?.inserted ?? 0;
    const updated = res?.updated ?? 0;
    this.counts.inserted += inserted;
    this.counts.updated += updated;
    this.counts.unchanged += rows.length - inserted - updated;
    return { inserted, updated };
  }
}

/** Statements run first in the write transaction, before any upsert (see ImportPlan). */
export async function prepareKeys(
  db: Sql,
  moveKeyFirst: Readonly<Record<KeyedSection, readonly string[]>>,
  clearDefaultFirst: readonly string[],
): Promise<void> {
  // A temporary key that cannot clash: '~' and 19 hex digits of the row's id hash (fits varchar(20)).
  const temp = `'~' || substr(md5("id"::text), 1, 19)`;
  const codeTables: [KeyedSection, string, string][] = [
    ['accounts', 'Account', 'code'],
    ['articles', 'Article', 'code'],
    ['academicTerms', 'AcademicTerm', 'code'],
    ['paymentSources', 'PaymentSource', 'code'],
    ['customers', 'Customer', 'debtorNumber'],
  ];
  for (const [section, table, column] of codeTables) {
    const ids = moveKeyFirst[section];
    if (ids.length > 0)
      await db.$executeRawUnsafe(
        `UPDATE ${q(table)} SET ${q(column)} = ${temp} WHERE "id" = ANY(${arrayParam(1, 'uuid')})`,
        arrayLiteral(ids),
      );
  }
  if (moveKeyFirst.articlePrices.length > 0)
    await db.$executeRawUnsafe(
      `UPDATE "ArticlePrice" p SET "validFrom" = timestamptz '0001-01-01T00:00:00Z' + f.n * interval '1 millisecond'
         FROM unnest(${arrayParam(1, 'uuid')}) WITH ORDINALITY AS f(id, n) WHERE p."id" = f.id`,
      arrayLiteral(moveKeyFirst.articlePrices),
    );
  if (clearDefaultFirst.length > 0)
    await db.$executeRawUnsafe(
      `UPDATE "Address" SET "isDefault" = false WHERE "id" = ANY(${arrayParam(1, 'uuid')})`,
      arrayLiteral(clearDefaultFirst),
    );
}

export const SPEC_OF: { [S in Exclude<FileSection, 'customers'>]: TableSpec<RecordOf<S>> } = {
  accounts: ACCOUNT,
  taxCodes: TAX_CODE,
  articles: ARTICLE,
  articlePrices: ARTICLE_PRICE,
  academicTerms: ACADEMIC_TERM,
  paymentSources: PAYMENT_SOURCE,
};

