import { randomUUID } from 'node:crypto';
import type { Prisma } from '../../db/__generated__/prisma/client';
import { arrayLiteral, arrayParam } from '../../db/sql-arrays';
import type { FieldCatalog, FieldType } from '../../query/fields';
import { IMPORT_CHANGES, IMPORT_MOVED, type LoggedResource } from '../change-log/append';
import { isLoggedResource, OWNERSHIP } from '../change-log/fields';
import { NIL_UUID } from '../common/schemas';
import { resourceOf } from '../resources';

// Set-based upserts by id, for the import (src/import) and the bulk upserts of the API
// (write-service.ts upsertMany): each batch of rows goes to the database as one statement
// with one array parameter per column (see src/db/sql-arrays.ts):
//   WITH p AS (SELECT s.*, <is there a row with this id>, <does a value differ>
//              FROM unnest($1::text::uuid[], $2::text::text[], ...) s
//              LEFT JOIN LATERAL (<the row with id = s.id>) c ON true)
//   INSERT the rows not there; UPDATE the ones whose values differ.
// The SQL text is built only from the column lists below; every value travels as a
// parameter. Rows whose values are already those given are not touched at all (no new row
// version, no lock), so a second import of the same file changes nothing.
//
// Audit fields (tax codes, articles, payment sources): createdAt / createdById /
// updatedAt / updatedById are kept when the row gives them. When it does not: a new row
// gets createdAt = the write's time, createdById = the nil UUID (the system), and no
// updatedAt; an existing row keeps its createdAt and createdById, and its updatedAt /
// updatedById become the write's time and the nil UUID only if the write changes one of
// its values (otherwise they stay as they are). The API's bulk upserts give them.
//
// Change log: each statement also stages one entry per row it inserts or updates (never
// for an unchanged row) in the transaction's temporary table IMPORT_CHANGES, with the
// field-level old and new values as the API writes them; the writer appends them all to the
// log at the end of its transaction (src/domain/change-log/append.ts appendStagedChanges).

/** Raw statements with parameters: a PrismaClient or a transaction client. */
export interface Sql {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/** A record as a table's row: the field catalogue's names and values. */
export type Raw = Readonly<Record<string, unknown>>;

/** How many rows of a table a write inserted, updated and left as they were. */
export interface TableCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

type Value = string | boolean | null;

interface Column {
  readonly name: string;
  /** PostgreSQL element type of the array parameter. */
  readonly type: string;
}

export interface TableSpec {
  readonly table: Prisma.ModelName;
  /** The change-log name of the table's resource. */
  readonly resource: LoggedResource;
  /** The id first, then the data columns (the audit columns are added for `audited`). */
  readonly columns: readonly Column[];
  readonly audited: boolean;
  /** The API type of every field (how the change log writes its values). */
  readonly types: Readonly<Record<string, FieldType>>;
  /** The column naming the record a row belongs under, its entries' owner (change-log/fields.ts OWNERSHIP). */
  readonly owner?: string | undefined;
}

/** A record as its row, and which audit fields it gives (the others are the writer's: see the header). */
export interface Row {
  readonly record: Raw;
  readonly given?: { readonly createdById: boolean; readonly updatedAt: boolean; readonly updatedById: boolean };
}

const iso = (d: unknown): string | null => (d instanceof Date ? d.toISOString() : null);

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

/**
 * SQL of a column's value as the change log stores it (jsonb; SQL NULL for null): instants
 * as ISO 8601 UTC with milliseconds and Z (toISOString), decimals as their exact text
 * without trailing zeros (decimal.js toFixed), everything else as to_jsonb gives it.
 */
export function loggedValueSql(expr: string, type: FieldType): string {
  if (type === 'datetime') return `to_jsonb(to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;
  if (type === 'decimal') return `to_jsonb(trim_scale(${expr})::text)`;
  return `to_jsonb(${expr})`;
}

const AUDIT = ['createdAt', 'createdById', 'updatedAt', 'updatedById'] as const;
const AUDIT_FIELDS: ReadonlySet<string> = new Set(AUDIT);

function toValue(v: unknown): Value {
  if (v instanceof Date) return v.toISOString();
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- what is left is a number or a decimal, never a plain object
  return String(v); // exact decimals: their text
}

/** The table of a catalogue: every field but the audit ones as columns; audited when it has them. */
export function tableSpec(table: Prisma.ModelName, fields: FieldCatalog, enumTypes: Readonly<Record<string, string>> = {}): TableSpec {
  // The declaration's kebab name is the change log's (test/change-log/resources.test.ts).
  const resource = resourceOf(table)?.name;
  if (!resource || !isLoggedResource(resource)) throw new Error(`table ${table} has no resource declaration`);
  return {
    table,
    resource,
    audited: 'createdAt' in fields,
    columns: Object.entries(fields)
      .filter(([name]) => !AUDIT_FIELDS.has(name))
      .map(([name, spec]) => ({ name, type: enumTypes[name] ?? SQL_TYPE[spec.type] })),
    types: Object.fromEntries(Object.entries(fields).map(([name, spec]) => [name, spec.type])),
    owner: OWNERSHIP.get(resource)?.foreignKey,
  };
}

const q = (name: string) => `"${name}"`;
/** The SQL fragments every table's write statement is made of (see upsertSql). */
function fragments(spec: TableSpec) {
  const table = q(spec.table);
  const data = spec.columns.map((c) => c.name);
  const rest = data.slice(1); // without id
  const tuple = (alias: string, names: readonly string[]) => `(${names.map((n) => `${alias}.${q(n)}`).join(', ')})`;
  // The change log's view of each column: its API type (audit columns are date-times and uuids).
  const typeOf = (name: string): FieldType => spec.types[name] ?? (name === 'createdAt' || name === 'updatedAt' ? 'datetime' : 'uuid');
  const logged = (alias: string, names: readonly string[]) =>
    `jsonb_build_object(${names.map((n) => `'${n}', ${loggedValueSql(`${alias}.${q(n)}`, typeOf(n))}`).join(', ')})`;
  return {
    table,
    data,
    rest,
    logged,
    params: spec.columns.map((c, i) => arrayParam(i + 1, c.type)),
    // The current row of each id, through the primary key. OFFSET 0 keeps the planner from
    // turning this into a hash join over the whole table (its statistics are stale while the
    // import fills the table); then the value before this import of a key prepareKeys moved
    // aside (or a default it cleared) earlier in this transaction, kept in IMPORT_MOVED.
    joins: `LEFT JOIN LATERAL (SELECT * FROM ${table} x WHERE x."id" = s."id" OFFSET 0) c ON true LEFT JOIN ${IMPORT_MOVED} m ON m."id" = s."id"`,
    dataChanged: `${tuple('c', rest)} IS DISTINCT FROM ${tuple('s', rest)}`,
    /** The row before this import: its current values, with a moved key's value before. */
    oldValues: (names: readonly string[]) =>
      `CASE WHEN c."id" IS NULL THEN NULL ELSE ${logged('c', names)} || CASE WHEN m."id" IS NULL THEN '{}'::jsonb ELSE jsonb_build_object(m."field", m."old") END END AS old_values`,
  };
}
type Fragments = ReturnType<typeof fragments>;

/** The rows to write of a table without audit fields, each with whether it exists and changes. */
function plainSource(f: Fragments): { source: string; columns: readonly string[] } {
  const source = `SELECT s.*, c."id" IS NOT NULL AS present, c."id" IS NOT NULL AND ${f.dataChanged} AS changed, ${f.oldValues(f.rest)}
    FROM unnest(${f.params.join(', ')}) AS s(${f.data.map(q).join(', ')})
    ${f.joins}`;
  return { source, columns: f.data };
}

/**
 * The rows to write of an audited table: the audit fields the file gives, the current ones
 * otherwise, the import's time and the system's id for what changes now.
 */
function auditedSource(f: Fragments, n: number): { source: string; columns: readonly string[] } {
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
  const names = [...f.data.map(q), 'created_at', 'created_by', 'updated_at', 'updated_by', 'ua_given', 'ub_given'];
  // An existing row changes when a value differs, or an audit field the file gives does.
  const changed = `c."id" IS NOT NULL AND (${f.dataChanged}
        OR (s.created_at IS NOT NULL AND s.created_at IS DISTINCT FROM c."createdAt")
        OR (s.created_by IS NOT NULL AND s.created_by IS DISTINCT FROM c."createdById")
        OR (s.ua_given AND s.updated_at IS DISTINCT FROM c."updatedAt")
        OR (s.ub_given AND s.updated_by IS DISTINCT FROM c."updatedById"))`;
  const source = `SELECT ${f.data.map((d) => `s.${q(d)}`).join(', ')},
      COALESCE(s.created_at, c."createdAt", ${now}) AS "createdAt",
      COALESCE(s.created_by, c."createdById", ${nil}) AS "createdById",
      CASE WHEN s.ua_given THEN s.updated_at WHEN c."id" IS NULL THEN NULL
           WHEN ${f.dataChanged} THEN ${now} ELSE c."updatedAt" END AS "updatedAt",
      CASE WHEN s.ub_given THEN s.updated_by WHEN c."id" IS NULL THEN NULL
           WHEN ${f.dataChanged} THEN ${nil} ELSE c."updatedById" END AS "updatedById",
      c."id" IS NOT NULL AS present,
      ${changed} AS changed,
      ${f.oldValues([...f.rest, ...AUDIT])}
    FROM unnest(${[...f.params, ...audit].join(', ')}) AS s(${names.join(', ')})
    ${f.joins}`;
  return { source, columns: [...f.data, ...AUDIT] };
}

/**
 * The write statement of a table. Parameters: one array per column, then (audited tables)
 * the audit arrays and the import time. Each row's current version is looked up by id
 * (once): new rows are INSERTed, rows with a different value UPDATEd, unchanged rows left
 * alone (not even locked), and the change of each staged for the change log. Answers
 * { inserted, updated }.
 */
function upsertSql(spec: TableSpec): string {
  const f = fragments(spec);
  const { source, columns } = spec.audited ? auditedSource(f, spec.columns.length) : plainSource(f);
  const set = columns.slice(1).map((c) => `${q(c)} = p.${q(c)}`);
  return `WITH p AS (
  ${source}
), ins AS (
  INSERT INTO ${f.table} (${columns.map(q).join(', ')})
  SELECT ${columns.map((c) => `p.${q(c)}`).join(', ')} FROM p WHERE NOT p.present
  RETURNING 1
), upd AS (
  UPDATE ${f.table} t SET ${set.join(', ')} FROM p WHERE p.changed AND t."id" = p."id"
  RETURNING 1
), new_values AS (
  SELECT p."id", p.present, p.old_values, ${f.logged('p', columns.slice(1))} AS v, ${spec.owner ? `p.${q(spec.owner)}` : 'NULL::uuid'} AS owner_id FROM p WHERE p.changed OR NOT p.present
), staged AS (
  INSERT INTO ${IMPORT_CHANGES} ("resource", "recordId", "operation", "changes", "ownerId")
  SELECT '${spec.resource}', n."id", CASE WHEN n.present THEN 'updated' ELSE 'created' END::"ChangeOperation", d.changes, n.owner_id
  FROM new_values n CROSS JOIN LATERAL (
    SELECT jsonb_object_agg(nv.key, jsonb_build_object('old', COALESCE(ov.value, 'null'::jsonb), 'new', nv.value)) AS changes
    FROM jsonb_each(n.v) nv LEFT JOIN jsonb_each(COALESCE(n.old_values, '{}'::jsonb)) ov ON ov.key = nv.key
    WHERE NOT n.present OR ov.value IS DISTINCT FROM nv.value
  ) d
  WHERE d.changes IS NOT NULL
)
SELECT (SELECT count(*) FROM ins)::int AS inserted, (SELECT count(*) FROM upd)::int AS updated`;
}

/** Collects rows of one table and writes them in batches. */
export class TableWriter {
  private readonly sql: string;
  private rows: Row[] = [];
  readonly counts: TableCounts = { inserted: 0, updated: 0, unchanged: 0 };

  constructor(
    private readonly spec: TableSpec,
    private readonly now: string,
  ) {
    this.sql = upsertSql(spec);
  }

  get size(): number {
    return this.rows.length;
  }

  add(row: Row): void {
    this.rows.push(row);
  }

  /** Takes the collected rows; `write` sends them. Split so that the next batch can be collected meanwhile. */
  take(): Row[] {
    const rows = this.rows;
    this.rows = [];
    return rows;
  }

  /** Writes the rows in one statement; answers how many were inserted and updated. */
  async write(db: Sql, rows: readonly Row[]): Promise<{ inserted: number; updated: number }> {
    if (rows.length === 0) return { inserted: 0, updated: 0 };
    const params: unknown[] = this.spec.columns.map((c) => arrayLiteral(rows.map((r) => toValue(r.record[c.name]))));
    if (this.spec.audited) {
      const given = (r: Row, k: keyof NonNullable<Row['given']>) => r.given?.[k] === true;
      params.push(
        arrayLiteral(rows.map((r) => iso(r.record.createdAt))),
        arrayLiteral(rows.map((r) => (given(r, 'createdById') ? toValue(r.record.createdById) : null))),
        arrayLiteral(rows.map((r) => iso(r.record.updatedAt))),
        arrayLiteral(rows.map((r) => toValue(r.record.updatedById))),
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

/**
 * Deletes rows by id and stages a `deleted` entry for each (every field's old value, new
 * null), as the single write path logs a delete. Answers how many were deleted.
 */
export async function deleteRows(db: Sql, spec: TableSpec, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const f = fragments(spec);
  const names = spec.audited ? [...f.rest, ...AUDIT] : f.rest;
  const [res] = await db.$queryRawUnsafe<{ deleted: number }[]>(
    `WITH d AS (DELETE FROM ${f.table} t WHERE t."id" = ANY(${arrayParam(1, 'uuid')}) RETURNING t.*), staged AS (
       INSERT INTO ${IMPORT_CHANGES} ("resource", "recordId", "operation", "changes", "ownerId")
       SELECT '${spec.resource}', d."id", 'deleted'::"ChangeOperation",
         (SELECT jsonb_object_agg(o.key, jsonb_build_object('old', o.value, 'new', 'null'::jsonb)) FROM jsonb_each(${f.logged('d', names)}) o),
         ${spec.owner ? `d.${q(spec.owner)}` : 'NULL::uuid'}
       FROM d
     )
     SELECT count(*)::int AS deleted FROM d`,
    arrayLiteral(ids),
  );
  return res?.deleted ?? 0;
}

/** Keeps the value a field had before a write changes it ahead of its upserts, for the change log's old values. */
export async function recordMoved(db: Sql, table: string, field: string, type: FieldType, ids: readonly string[]): Promise<void> {
  await db.$executeRawUnsafe(
    `INSERT INTO ${IMPORT_MOVED} ("id", "field", "old")
       SELECT t."id", '${field}', ${loggedValueSql(`t.${q(field)}`, type)} FROM ${q(table)} t WHERE t."id" = ANY(${arrayParam(1, 'uuid')})
       ON CONFLICT DO NOTHING`,
    arrayLiteral(ids),
  );
}

/** Sets a boolean flag of these rows false first (a default moving to another row under a one-default index), its old value kept for the log. */
export async function clearFlagFirst(db: Sql, table: string, field: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await recordMoved(db, table, field, 'boolean', ids);
  await db.$executeRawUnsafe(`UPDATE ${q(table)} SET ${q(field)} = false WHERE "id" = ANY(${arrayParam(1, 'uuid')})`, arrayLiteral(ids));
}

/** A new row's id, made here so that a set-based write knows its rows before the database does. */
export const newRowId = (): string => randomUUID();
