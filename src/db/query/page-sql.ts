// One list page, with its to-many relations, as ONE parameterised statement: the hot read of
// both doors (GraphQL `customers { addresses }`, `articles { prices }`, unfiltered REST
// lists). Through Prisma's query engine the same page costs about three times the CPU (it
// builds and then converts one object per cell).
//
// One row per record: its own columns as they are (Prisma's raw reader turns them into the
// values findMany gives: Decimals, Dates), and each relation as one text column holding a
// JSON array of text arrays, in the relation's order. Measured against json_build_object
// per record and one json_agg per page (the earlier shape), this costs PostgreSQL about half
// the CPU: json_build_* looks up the type of every argument on every call, an ordered
// aggregate sorts the finished JSON again, and keys are written once per value. Only the
// fields the caller asks for are read (`select`).
//
// Only names from the field catalogues (code, never input) become identifiers; values
// (limit, offset) are parameters. The order is Prisma's own `orderBy` (toPrismaOrderBy and
// the services' relation orders) rendered as SQL, so both paths sort alike.

import { Prisma, type PrismaClient } from '../../generated/prisma/client';
import type { FieldCatalog, FieldSpec } from '../../query/fields';
import { DecimalText } from '../../query/values';

type OrderBy = ReadonlyArray<Readonly<Record<string, unknown>>>;

/** A to-many relation read inside the page, as Prisma's `include: { [name]: { orderBy } }` would. */
export interface PageRelation {
  readonly name: string;
  readonly table: string;
  readonly foreignKey: string;
  readonly fields: FieldCatalog;
  readonly orderBy: OrderBy;
}

export interface PageSource {
  readonly prisma: PrismaClient;
  readonly table: string;
  readonly relations: readonly PageRelation[];
}

export interface PageRequest {
  readonly fields: FieldCatalog;
  /** The fields to read (names from `fields`, `id` among them); all of them when absent. */
  readonly select?: readonly string[] | undefined;
  /** Prisma orderBy of the page (toPrismaOrderBy), ending with the id tie-break. */
  readonly orderBy: OrderBy;
  readonly take: number;
  readonly skip: number;
  readonly count: boolean;
}

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;

function ident(name: string): Prisma.Sql {
  // Names come from code (catalogues, table names); anything else is a programming error.
  if (!IDENTIFIER.test(name)) throw new Error(`page-sql: not an identifier: ${name}`);
  return Prisma.raw(`"${name}"`);
}

function column(alias: string, name: string): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(alias)}.${ident(name)}`;
}

/**
 * A relation field as text whatever the server's settings: a date-time as milliseconds since
 * the epoch (its text form would follow the session's DateStyle and TimeZone), decimals as
 * their exact text (passed on as DecimalText), booleans as 'true' / 'false'.
 */
function text(alias: string, name: string, spec: FieldSpec): Prisma.Sql {
  if (spec.type === 'datetime') return Prisma.sql`(date_part('epoch', ${column(alias, name)}) * 1000)::int8::text`;
  // trim_scale: the text decimal.js's toFixed() gives (12.5, not 12.5000).
  if (spec.type === 'decimal') return Prisma.sql`trim_scale(${column(alias, name)})::text`;
  return Prisma.sql`${column(alias, name)}::text`;
}

/** `{ a: 'asc' }` / `{ a: { sort: 'desc', nulls: 'first' } }` entries as an ORDER BY list. */
function orderList(alias: string, orderBy: OrderBy): Prisma.Sql {
  return Prisma.join(
    orderBy.flatMap((entry) =>
      Object.entries(entry).map(([name, how]) => {
        const sort = typeof how === 'string' ? how : (how as { sort?: unknown }).sort;
        const nulls = typeof how === 'object' && how !== null ? (how as { nulls?: unknown }).nulls : undefined;
        if (sort !== 'asc' && sort !== 'desc') throw new Error(`page-sql: bad order for ${name}`);
        const n = nulls === 'first' ? ' NULLS FIRST' : nulls === 'last' ? ' NULLS LAST' : '';
        return Prisma.sql`${column(alias, name)} ${Prisma.raw(sort.toUpperCase() + n)}`;
      }),
    ),
  );
}

// array(SELECT ... ORDER BY ...) keeps the subquery's order by definition; array_to_json
// writes the text[] rows as JSON, which Node parses natively.
function relationColumn(r: PageRelation): Prisma.Sql {
  const values = Object.entries(r.fields).map(([name, spec]) => text('r', name, spec));
  return Prisma.sql`array_to_json(array(SELECT array[${Prisma.join(values)}] FROM ${ident(r.table)} r WHERE ${column('r', r.foreignKey)} = t."id" ORDER BY ${orderList('r', r.orderBy)}))::text AS ${ident(r.name)}`;
}

function statement(source: PageSource, req: PageRequest, select: readonly string[]): Prisma.Sql {
  const columns = [...select.map((f) => column('t', f)), ...source.relations.map(relationColumn)];
  return Prisma.sql`SELECT ${Prisma.join(columns)} FROM ${ident(source.table)} t ORDER BY ${orderList('t', req.orderBy)} LIMIT ${req.take} OFFSET ${req.skip}`;
}

// The statement's text depends only on the resource, its relations, the fields and the
// order: it is built once per such combination and then only given its two values.
const MAX_TEMPLATES = 500;
const templates = new Map<string, Prisma.Sql>();

function cachedStatement(source: PageSource, req: PageRequest): Prisma.Sql {
  const select = req.select ?? Object.keys(req.fields);
  const key = `${source.table}|${source.relations.map((r) => r.name).join(',')}|${select.join(',')}|${JSON.stringify(req.orderBy)}`;
  let template = templates.get(key);
  if (!template) {
    for (const f of select) if (!Object.hasOwn(req.fields, f)) throw new Error(`page-sql: unknown field ${f}`);
    template = statement(source, req, select);
    if (template.values.length !== 2) throw new Error('page-sql: a page statement has exactly two values');
    if (templates.size < MAX_TEMPLATES) templates.set(key, template);
  }
  return new Prisma.Sql(template.strings, [req.take, req.skip]);
}

type Revive = (text: string) => unknown;
const REVIVE: Record<FieldSpec['type'], Revive | null> = {
  uuid: null,
  string: null,
  enum: null,
  boolean: (v) => v === 'true',
  decimal: (v) => new DecimalText(v),
  datetime: (v) => new Date(Number(v)),
};

/** A relation column's text as records: findMany's values (Dates, booleans), decimals as their exact text. */
function relationRecords(r: PageRelation): (json: string) => Record<string, unknown>[] {
  const names = Object.keys(r.fields);
  const revive = names.map((n) => REVIVE[r.fields[n]!.type]);
  return (json) =>
    (JSON.parse(json) as Array<Array<string | null>>).map((values) => {
      const record: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) {
        const v = values[i] ?? null;
        const f = revive[i];
        record[names[i]!] = v === null || !f ? v : f(v);
      }
      return record;
    });
}
const readers = new WeakMap<PageRelation, (json: string) => Record<string, unknown>[]>();

/** The page's records (with the relations inside each), and the table's row count when asked. */
export async function readPage(source: PageSource, req: PageRequest): Promise<{ rows: unknown[]; total: number | undefined }> {
  const [rows, counted] = await Promise.all([
    source.prisma.$queryRaw<Record<string, unknown>[]>(cachedStatement(source, req)),
    req.count ? source.prisma.$queryRaw<{ total: number }[]>(Prisma.sql`SELECT count(*)::int AS total FROM ${ident(source.table)}`) : undefined,
  ]);
  for (const r of source.relations) {
    let read = readers.get(r);
    if (!read) readers.set(r, (read = relationRecords(r)));
    for (const row of rows) row[r.name] = read(row[r.name] as string);
  }
  return { rows, total: counted?.[0]?.total };
}
