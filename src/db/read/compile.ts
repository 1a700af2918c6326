// THE read path of both doors: a neutral query (filter tree, sort keys, the fields to read,
// relations of either direction from the resource declarations, a window) compiled to
// parameterised SELECTs, sent through the Prisma driver adapter (../row-reader.ts), its rows
// turned into the values findMany would give (Decimals, Dates). Prisma Client is left to the
// writes, their transactions and the rules; test/db/read/compiled.test.ts holds every
// resource's reads equal to findMany's on both databases.
//
// A page is one statement, its relations inside:
//   SELECT t."id", t."name", ...,                                      -- own fields
//          r0."id", r0."code", ...,                                    -- a to-one relation, joined
//          array_to_json(array(SELECT array[r.a::text, ...] FROM "R" r
//                        WHERE r."fk" = t."id" ORDER BY ... LIMIT n))::text,  -- a to-many with $top
//   FROM "T" t LEFT JOIN "R0" r0 ON r0."id" = t."fk"
//   WHERE <filter> ORDER BY <keys>, t."id" LIMIT $ [OFFSET $, past the first page]
// where an index gives the order; where none does, the page is a subquery with the LIMIT and
// the joins are on its rows (./indexes.ts says why). A page's to-many relation without a
// per-record limit is read right after the page, by the page's ids, in one statement
// (readRelated; inside, where the page's filter matches one record at most), with the
// relations of its records inside as above: accounts, their payment sources and those
// sources' payments are two statements, not one per level (behind a transaction pooler each
// statement is a transaction of its own). 100 customers' addresses cost PostgreSQL
// 0.23 + 0.57 ms of backend CPU that way against 1.17-1.20 ms as a correlated subquery per
// customer (a bitmap scan and a sort each; 300 pages on bench_100000).
// A to-one relation is a join whose columns come as the record's own do: 100 articles by name
// with their tax code cost 0.25 ms (pgbench, one connection, bench_100000) joined, against
// 0.46 ms as a JSON subquery per article holding the same three fields.
// Arrays of text rather than json_build_object per record cost PostgreSQL about half: json_build_*
// looks up every argument's type on every call. Own values come as they are where both adapters
// give findMany's value (uuid, text, boolean), as text otherwise (a date-time as epoch
// milliseconds: its text form would follow the session's DateStyle and TimeZone).
//
// Only names from the declarations and catalogues become identifiers; every value is a
// parameter.

import { lookupField } from '../../query/fields';
import type { FilterNode, SortKey } from '../../query/filter-tree';
import type { RowReader } from '../row-reader';
import { REVIVE, type ColumnCatalog, type ColumnSpec, type Revive, type Row } from './row';
import { column, ident, SqlBuilder, type Statement } from './sql';
import { indexGivesOrder, pinned, type SortIndexes } from './indexes';
import { compileWhere } from './where';
import { groupBy } from '../../lib/collections';

/**
 * A relation as src/domain/common/declaration.ts declares it (restated structurally: the domain
 * depends on this folder, not the other way round): to-one through this record's foreign
 * key, or to-many through the other records' foreign key, in their order.
 */
export type Relation =
  | { readonly kind: 'one'; readonly target: string; readonly foreignKey: string }
  | { readonly kind: 'many'; readonly target: string; readonly foreignKey: string; readonly order: readonly SortKey[] };

/**
 * A relation read inside each record: its declaration, and what of it (REST $expand options).
 * `N` is its name, `C` the related records' catalogue, `K` its kind and `S` the fields read of
 * them: together they type its value in the records (RelationValue), so a caller that names
 * the relation (src/domain/common/read-service.ts relationOf) gets it typed.
 */
export interface RelationRead<
  N extends string = string,
  C extends ColumnCatalog = ColumnCatalog,
  K extends Relation['kind'] = Relation['kind'],
  S extends keyof C & string = keyof C & string,
> {
  readonly name: N;
  readonly relation: Relation & { readonly kind: K };
  /** The related resource's fields. */
  readonly fields: C;
  /** Fields of the related records; all when absent. */
  readonly select?: readonly S[] | undefined;
  /** To-many: order (the declaration's when absent, ties by id) and how many per record. */
  readonly orderBy?: readonly SortKey[] | undefined;
  readonly top?: number | undefined;
  /**
   * Relations of the related records, read inside them where the related records are read by
   * their parents' ids after a page (readRelated: a page's to-many without a limit); ignored
   * where the related records are read inside their parents' statement, and then left to the
   * caller (GraphQL's loaders). Not in the records' type, as ReadQuery.requested.
   */
  readonly relations?: readonly RelationRead[] | undefined;
}

/** A relation's value in a record: the related records of a to-many; of a to-one, the related record or null. */
export type RelationValue<R> =
  R extends RelationRead<string, infer C, infer K, infer S> ? (K extends 'many' ? Array<Pick<Row<C>, S>> : Pick<Row<C>, S> | null) : never;

/**
 * The values of relations read inside a record, by name. A relation known only by a name
 * computed at run time (a client's $expand) is in the record but not in its type.
 */
export type RelationValues<Rs extends readonly RelationRead[]> = {
  -readonly [R in Rs[number] as string extends R['name'] ? never : R['name']]: RelationValue<R>;
};

/** A record as read: the selected fields, then each relation by name. */
export type ReadRecord<C extends ColumnCatalog, S extends keyof C & string, Rs extends readonly RelationRead[] = readonly []> = Pick<
  Row<C>,
  S
> &
  RelationValues<Rs>;

/** Which records: a window of the matching ones in order, or all of them. */
export type Window = { readonly take: number; readonly skip: number } | 'all';

export interface ReadQuery<
  C extends ColumnCatalog = ColumnCatalog,
  S extends keyof C & string = keyof C & string,
  Rs extends readonly RelationRead[] = readonly RelationRead[],
> {
  readonly table: string;
  readonly fields: C;
  /** The fields to read (names from `fields`). */
  readonly select: readonly S[];
  readonly filter?: FilterNode | undefined;
  /** The sort keys; `id asc` ends the order unless id is a key. */
  readonly orderBy: readonly SortKey[];
  readonly window: Window;
  /** Relations read inside each record, in its type (RelationValues). */
  readonly relations?: Rs | undefined;
  /**
   * Relations a client asked for by name ($expand, a GraphQL selection), read inside each
   * record after `relations` (one of the same name replaces it) but not in the record's type.
   */
  readonly requested?: readonly RelationRead[] | undefined;
}

/** A record while it is built: the selected fields, then each relation by name. */
type Values = Record<string, unknown>;

/**
 * The one place a built record takes its type: reader() below sets exactly the selected
 * fields, each revived by its catalogue's type (src/db/read/row.ts REVIVE), and each relation
 * read by its own catalogue the same way, which is what ReadRecord computes from the query.
 * test/db/read/compiled.test.ts holds the values equal to Prisma's findMany's on both databases.
 */
const built = <T>(record: Values): T => record as T;

const spec = (fields: ColumnCatalog, name: string): ColumnSpec => {
  const s = lookupField(fields, name);
  // Names reach here checked against the same catalogue; a miss is a programming error.
  if (!s) throw new Error(`read: unknown field ${name}`);
  return s;
};

/** A value as text whatever the server's settings (inside a relation's JSON, and own decimals, instants, enums, stored columns). */
function text(alias: string, name: string, s: ColumnSpec): string {
  const c = column(alias, name);
  if (s.type === 'datetime') return `(date_part('epoch', ${c}) * 1000)::int8::text`;
  // trim_scale: the text decimal.js's toFixed() gives (12.5, not 12.5000).
  if (s.type === 'decimal') return `trim_scale(${c})::text`;
  return `${c}::text`;
}

/** A record's own column: as it is where both adapters give findMany's value, as text() otherwise. */
const own = (alias: string, name: string, s: ColumnSpec): string =>
  s.type === 'uuid' || s.type === 'string' || s.type === 'boolean' ? column(alias, name) : text(alias, name, s);

/** Whether ordering by the field orders completely: the id, or a column declared unique and not null. */
const unique = (field: string, s: ColumnSpec): boolean => field === 'id' || ('unique' in s && s.unique === true && !s.nullable);

/**
 * The ORDER BY list: nulls first ascending and last descending (OData), ties by id ascending.
 * Nothing after a unique key, which leaves no ties: PostgreSQL does not drop such keys itself,
 * and sorts by them. The change log's feed by seq alone is an index scan, by (seq, id) an
 * incremental sort over it (0.09 against 0.06 ms for 100 entries, PostgreSQL 200,000 entries);
 * customers by debtorNumber at offset 60,000 walked its unique index and sorted every debtor
 * number's one row by id.
 */
export function orderList(alias: string, keys: readonly SortKey[], fields: ColumnCatalog): string {
  const last = keys.findIndex((k) => unique(k.field, spec(fields, k.field)));
  const parts = (last === -1 ? keys : keys.slice(0, last + 1)).map(({ field, direction }) => {
    const nulls = spec(fields, field).nullable ? (direction === 'asc' ? ' NULLS FIRST' : ' NULLS LAST') : '';
    return `${column(alias, field)} ${direction === 'asc' ? 'ASC' : 'DESC'}${nulls}`;
  });
  if (last === -1) parts.push(`${column(alias, 'id')} ASC`);
  return parts.join(', ');
}

const relationFields = (r: RelationRead): readonly string[] => r.select ?? Object.keys(r.fields);
/** A joined to-one relation's columns after its id. */
const joinedFields = (r: RelationRead): readonly string[] => relationFields(r).filter((f) => f !== 'id');

/** A to-many relation inside each record of alias `parent`: one text column of JSON (see the header). */
function manyColumn(
  r: RelationRead,
  relation: Extract<Relation, { kind: 'many' }>,
  sql: SqlBuilder,
  alias: string,
  parent: string,
): string {
  const values = relationFields(r)
    .map((f) => text(alias, f, spec(r.fields, f)))
    .join(', ');
  const limit = r.top === undefined ? '' : ` LIMIT ${sql.param(r.top)}`;
  const order = orderList(alias, r.orderBy ?? relation.order, r.fields);
  return `array_to_json(array(SELECT array[${values}] FROM ${ident(relation.target)} ${alias} WHERE ${column(alias, relation.foreignKey)} = ${column(parent, 'id')} ORDER BY ${order}${limit}))::text`;
}

/** The columns and joins of the relations read inside each record of alias `parent` (see the header). */
function relationParts(relations: readonly RelationRead[], sql: SqlBuilder, parent = 't'): { columns: string[]; joins: string } {
  const columns: string[] = [];
  let joins = '';
  relations.forEach((r, i) => {
    const alias = `r${i}`;
    if (r.relation.kind === 'many') {
      columns.push(manyColumn(r, r.relation, sql, alias, parent));
      return;
    }
    // The related id first (null: there is no related record), then the other fields.
    columns.push(column(alias, 'id'), ...joinedFields(r).map((f) => own(alias, f, spec(r.fields, f))));
    joins += ` LEFT JOIN ${ident(r.relation.target)} ${alias} ON ${column(alias, 'id')} = ${column(parent, r.relation.foreignKey)}`;
  });
  return { columns, joins };
}

/**
 * From this offset on, a page first finds its ids, then reads just those rows (a deferred
 * join): `t."id" = ANY(array(SELECT s."id" ... LIMIT OFFSET))`. An index holding the sort keys
 * and the id (the migrations *_deep_offset_indexes, *_address_postal_code_indexes) answers the ids alone, an index-only
 * scan that reads no table row for the records skipped: customers at offset 50,000 by
 * (lastName, id) took 140 ms reading every row passed over, 19 ms this way (bench_100000,
 * EXPLAIN ANALYZE on a loaded machine). Below it the extra look-ups by id cost more than the
 * few rows skipped.
 * The ids as an array, not `IN (subquery)` nor `JOIN (subquery) USING (id)`: the service's
 * statements are prepared, and the plan PostgreSQL keeps for them after five executions
 * (generic, LIMIT and OFFSET unknown) expects a tenth of the table from the subquery, so it
 * joined them by hashing and read the whole table (2,500 buffers, customers at offset 50,000
 * by lastName). An array it expects to be short, and looks its ids up in the primary key
 * whatever the plan (729 buffers).
 */
export const DEEP_OFFSET = 1000;

/** The SELECT counting the records of `table` that `filter` matches (alias `alias`), or undefined when it can match none. */
function countSelect(
  table: string,
  fields: ColumnCatalog,
  filter: FilterNode | undefined,
  alias: string,
  sql: SqlBuilder,
): string | undefined {
  const where = compileWhere(filter, fields, alias, sql);
  if (where === false) return undefined;
  return `SELECT count(*)::int FROM ${ident(table)} ${alias}${where === true ? '' : ` WHERE ${where}`}`;
}

/** The count as a scalar subquery of a page's select list (alias `n`): 0 when the filter can match none. */
function countOf(table: string, fields: ColumnCatalog, filter: FilterNode | undefined, sql: SqlBuilder): string {
  const select = countSelect(table, fields, filter, 'n', sql);
  return select === undefined ? '0' : `(${select})`;
}

/**
 * The statement of a query, or undefined when its filter can match nothing. With `counted`,
 * its last column is the number of records that filter matches (see readCountedPage).
 */
function statement(q: ReadQuery, indexes: SortIndexes, counted?: Counted): Statement | undefined {
  const sql = new SqlBuilder();
  const related = relationParts(q.relations ?? [], sql);
  const columns = [...q.select.map((f) => own('t', f, spec(q.fields, f))), ...related.columns];
  if (counted) columns.push(countOf(q.table, q.fields, counted.filter, sql));
  const table = ident(q.table);
  const from = `${table} t${related.joins}`;
  const order = orderList('t', q.orderBy, q.fields);
  if (q.window !== 'all' && q.window.skip >= DEEP_OFFSET) {
    const where = compileWhere(q.filter, q.fields, 's', sql);
    if (where === false) return undefined;
    const ids = `SELECT s."id" FROM ${table} s${where === true ? '' : ` WHERE ${where}`} ORDER BY ${orderList('s', q.orderBy, q.fields)} LIMIT ${sql.param(q.window.take)} OFFSET ${sql.param(q.window.skip)}`;
    return sql.statement(`SELECT ${columns.join(', ')} FROM ${from} WHERE t."id" = ANY(array(${ids})) ORDER BY ${order}`);
  }
  const where = compileWhere(q.filter, q.fields, 't', sql);
  if (where === false) return undefined;
  const filter = where === true ? '' : ` WHERE ${where}`;
  if (q.window === 'all') return sql.statement(`SELECT ${columns.join(', ')} FROM ${from}${filter} ORDER BY ${order}`);
  // No OFFSET on a first page: with an OFFSET parameter the plan PostgreSQL would keep for the
  // prepared statement (generic, OFFSET unknown) expects a tenth of the rows skipped, costs more
  // than the custom plans, and so every execution was planned again (the counted customer page
  // by a surname prefix: 0.21 ms of planning each time, 0.01 with the generic plan).
  const window = ` LIMIT ${sql.param(q.window.take)}${q.window.skip === 0 ? '' : ` OFFSET ${sql.param(q.window.skip)}`}`;
  // Flat where an index gives the order, else the page first and the joins on its rows only:
  // then no related record is looked up for a row the LIMIT drops (./indexes.ts).
  if (!related.joins || indexGivesOrder(indexes, q.table, q.fields, q.filter, q.orderBy))
    return sql.statement(`SELECT ${columns.join(', ')} FROM ${from}${filter} ORDER BY ${order}${window}`);
  return sql.statement(
    `SELECT ${columns.join(', ')} FROM (SELECT t.* FROM ${table} t${filter} ORDER BY ${order}${window}) t${related.joins} ORDER BY ${order}`,
  );
}

/** Turns values (from `from` on) into a record of `names`, each revived by its field's type. */
function reader(fields: ColumnCatalog, names: readonly string[], revivals: readonly Revive[], from = 0) {
  return (values: ReadonlyArray<unknown>, into: Values = {}): Values => {
    for (let i = 0; i < names.length; i++) {
      const v = values[from + i] ?? null;
      const f = revivals[i];
      // Revived columns are read as text (own(), text()).
      into[names[i]!] = v === null || !f || typeof v !== 'string' ? v : f(v);
    }
    return into;
  };
}

/** Own columns come as they are for uuid, text and boolean; relation JSON holds every value as text. */
const ownRevivals = (fields: ColumnCatalog, names: readonly string[]): Revive[] =>
  names.map((n) => {
    const t = spec(fields, n).type;
    return t === 'uuid' || t === 'string' || t === 'boolean' ? null : REVIVE[t];
  });
const textRevivals = (fields: ColumnCatalog, names: readonly string[]): Revive[] =>
  names.map((n) => {
    const t = spec(fields, n).type;
    return t === 'boolean' ? (v: string) => v === 'true' : REVIVE[t];
  });

/**
 * Whether the filter matches one record at most: it holds the id, or a unique field, to one
 * value. A list found by a debtor number is one record, like one read by id.
 */
const oneAtMost = (q: ReadQuery): boolean =>
  [...pinned(q.filter)].some((f) => {
    const s = lookupField(q.fields, f);
    return s !== undefined && unique(f, s);
  });

/**
 * The relations read after the page by its ids rather than inside each record (see the
 * header): a page's to-many relations without a per-record limit. One record's stay inside:
 * for one parent the second statement costs PostgreSQL more than the relation's subquery (one
 * customer by debtor number with its addresses: 0.07 ms of PostgreSQL's CPU a request in two
 * statements, 0.03 in one, as PostGraphile's).
 */
const readAfter = (q: ReadQuery, relations: readonly RelationRead[]): RelationRead[] =>
  q.window === 'all' || oneAtMost(q) ? [] : relations.filter((r) => r.relation.kind === 'many' && r.top === undefined);

/** A count asked for with a page: of the records `filter` matches (the page's filter without its cursor, say). */
interface Counted {
  readonly filter: FilterNode | undefined;
}

/** Sets a relation's value in a record from the record's row. */
type SetRelation = (values: ReadonlyArray<unknown>, record: Values) => void;

/**
 * The readers of relations read inside each record, their values from column `from` on: a
 * to-many is one column of JSON, a to-one the related id and its fields. `at` is the column
 * after them.
 */
function insideReaders(inside: readonly RelationRead[], from: number): { readers: SetRelation[]; at: number } {
  let at = from;
  const readers = inside.map((r): SetRelation => {
    const names = relationFields(r);
    const start = at;
    if (r.relation.kind === 'many') {
      at += 1;
      const read = reader(r.fields, names, textRevivals(r.fields, names));
      return (values, record) => {
        const json = values[start];
        record[r.name] = typeof json === 'string' ? (JSON.parse(json) as Array<Array<string | null>>).map((v) => read(v)) : [];
      };
    }
    const rest = joinedFields(r);
    at += 1 + rest.length;
    // The id column is the record's id when it is selected.
    const read = names.includes('id')
      ? reader(r.fields, ['id', ...rest], ownRevivals(r.fields, ['id', ...rest]), start)
      : reader(r.fields, rest, ownRevivals(r.fields, rest), start + 1);
    return (values, record) => {
      record[r.name] = values[start] === null ? null : read(values);
    };
  });
  return { readers, at };
}

/** The records of a query, in its order, each with its relations. */
export async function readRecords<
  C extends ColumnCatalog,
  S extends keyof C & string,
  const Rs extends readonly RelationRead[] = readonly [],
>(rows: RowReader, q: ReadQuery<C, S, Rs>): Promise<Array<ReadRecord<C, S, Rs>>> {
  return (await readWithCount(rows, q)).records;
}

/**
 * A page and how many records `counted` matches, in one statement: the count is a subquery
 * in the page's select list, which PostgreSQL runs once (an InitPlan). So the count and the
 * page come from one snapshot, and a counted page costs one round trip, not two. An empty
 * page carries no count: it is 0 when the page is the first one of the counted filter
 * itself (the same node, no offset), else asked for on its own (a page past the end, or
 * after a cursor).
 */
export async function readCountedPage<
  C extends ColumnCatalog,
  S extends keyof C & string,
  const Rs extends readonly RelationRead[] = readonly [],
>(
  rows: RowReader,
  q: ReadQuery<C, S, Rs>,
  counted: FilterNode | undefined,
): Promise<{ records: Array<ReadRecord<C, S, Rs>>; count: number }> {
  const { records, count } = await readWithCount(rows, q, { filter: counted });
  if (count !== undefined) return { records, count };
  const first = counted === q.filter && (q.window === 'all' || q.window.skip === 0);
  return { records, count: first ? 0 : await countRecords(rows, q.table, q.fields, counted) };
}

/** The records of a query and, when `counted` is given and the page has a record, the count it carries. */
async function readWithCount<C extends ColumnCatalog, S extends keyof C & string, const Rs extends readonly RelationRead[]>(
  rows: RowReader,
  q: ReadQuery<C, S, Rs>,
  counted?: Counted,
): Promise<{ records: Array<ReadRecord<C, S, Rs>>; count: number | undefined }> {
  const all = [...new Map([...(q.relations ?? []), ...(q.requested ?? [])].map((r) => [r.name, r])).values()];
  const after = readAfter(q, all);
  const inside = all.filter((r) => !after.includes(r));
  if (after.length > 0 && !q.select.some((f) => f === 'id')) throw new Error('read: a page with relations reads its ids');
  const s = statement({ ...q, relations: inside, requested: undefined }, rows.sortIndexes, counted);
  if (!s) return { records: [], count: undefined };
  const result = await rows.read(s);
  const read = reader(q.fields, q.select, ownRevivals(q.fields, q.select));
  const { readers, at } = insideReaders(inside, q.select.length);
  // The count, when asked for, is the last column: the same in every row.
  const first = result.rows[0];
  const count = counted && first ? Number(first[at]) : undefined;
  const records = result.rows.map((values) => {
    const record = read(values);
    for (const set of readers) set(values, record);
    return record;
  });
  if (after.length > 0 && records.length > 0) {
    const ids = records.map((r) => String(r.id));
    const groups = await Promise.all(after.map((r) => readRelated(rows, r, ids)));
    for (const record of records) after.forEach((r, j) => (record[r.name] = groups[j]!.get(String(record.id)) ?? []));
  } else for (const record of records) for (const r of after) record[r.name] = [];
  return { records: records.map((r) => built<ReadRecord<C, S, Rs>>(r)), count };
}

/** How many records of `table` the filter matches. */
export async function countRecords(rows: RowReader, table: string, fields: ColumnCatalog, filter: FilterNode | undefined): Promise<number> {
  const sql = new SqlBuilder();
  const select = countSelect(table, fields, filter, 't', sql);
  if (select === undefined) return 0;
  const result = await rows.read(sql.statement(select));
  return Number(result.rows[0]?.[0] ?? 0);
}

/**
 * The records of a to-many relation of many parents at once (a page's, GraphQL's loaders):
 * one statement by the parents' ids, each parent's records in the relation's order.
 */
export async function readRelated<C extends ColumnCatalog, S extends keyof C & string>(
  rows: RowReader,
  r: RelationRead<string, C, Relation['kind'], S>,
  parentIds: readonly string[],
): Promise<Map<string, Array<Pick<Row<C>, S>>>> {
  if (r.relation.kind !== 'many') throw new Error('readRelated: a to-one relation is read by id');
  if (parentIds.length === 0) return new Map();
  const names = relationFields(r);
  const sql = new SqlBuilder();
  const ids = sql.param(parentIds);
  const fk = column('r', r.relation.foreignKey);
  const cols = names.map((f) => own('r', f, spec(r.fields, f)));
  const nested = relationParts(r.relations ?? [], sql, 'r');
  // The records are grouped by their foreign key: its own column when it is selected (a uuid,
  // read as it is), else one more in front.
  const selected = names.indexOf(r.relation.foreignKey);
  const [lead, parentAt] = selected === -1 ? [[fk], 0] : [[], selected];
  const result = await rows.read(
    sql.statement(
      `SELECT ${[...lead, ...cols, ...nested.columns].join(', ')} FROM ${ident(r.relation.target)} r${nested.joins} WHERE ${fk} = ANY(${ids}::uuid[]) ORDER BY ${orderList('r', r.orderBy ?? r.relation.order, r.fields)}`,
    ),
  );
  const read = reader(r.fields, names, ownRevivals(r.fields, names), lead.length);
  const { readers } = insideReaders(r.relations ?? [], lead.length + names.length);
  const groups = groupBy(result.rows, (values) => String(values[parentAt]));
  return new Map(
    [...groups].map(([parent, rows]) => [
      parent,
      rows.map((values) => {
        const record = read(values);
        for (const set of readers) set(values, record);
        return built<Pick<Row<C>, S>>(record);
      }),
    ]),
  );
}
