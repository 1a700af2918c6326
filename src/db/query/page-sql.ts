// One list page, with its relations, as ONE parameterised statement that PostgreSQL answers
// with the page as JSON text: the hot read of both doors (GraphQL `customers { addresses }`,
// `articles { prices }`, unfiltered REST lists). Through Prisma's query engine the same page
// costs about three times the CPU (it builds and then converts one object per cell); here
// PostgreSQL builds the JSON and Node parses it once.
//
// Only names from the field catalogues (code, never input) become identifiers; values
// (limit, offset) are parameters. The order is Prisma's own `orderBy` (toPrismaOrderBy and
// the services' relation orders) rendered as SQL, so both paths sort alike. Decimals leave
// PostgreSQL as text (exact, trailing zeros trimmed like Prisma's Decimal.toFixed) and
// become Prisma Decimals; date-times become Dates: the records equal findMany's.

import { Prisma, type PrismaClient } from '../../generated/prisma/client';
import type { FieldCatalog, FieldSpec } from '../../query/fields';

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

/** The JSON value of a field: decimals as exact text. */
function jsonValue(alias: string, name: string, spec: FieldSpec): Prisma.Sql {
  return spec.type === 'decimal' ? Prisma.sql`trim_scale(${column(alias, name)})::text` : column(alias, name);
}

function jsonObject(alias: string, fields: FieldCatalog, extra: readonly Prisma.Sql[] = []): Prisma.Sql {
  const pairs = Object.entries(fields).map(([name, spec]) => Prisma.sql`'${Prisma.raw(name)}', ${jsonValue(alias, name, spec)}`);
  return Prisma.sql`json_build_object(${Prisma.join([...pairs, ...extra])})`;
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

// array(SELECT ... ORDER BY ...) rather than json_agg(... ORDER BY ...): an ordered
// aggregate sets up a sort per parent row, a sorted subquery is cheaper (measured ~10 % of
// the statement); json_build_object writes the json[] as a JSON array ('[]' when empty).
function relationJson(r: PageRelation): Prisma.Sql {
  return Prisma.sql`'${Prisma.raw(r.name)}', array(SELECT ${jsonObject('r', r.fields)} FROM ${ident(r.table)} r WHERE ${column('r', r.foreignKey)} = t."id" ORDER BY ${orderList('r', r.orderBy)})`;
}

type Reviver = ((row: Record<string, unknown>) => void) | null;
const revivers = new WeakMap<FieldCatalog, Reviver>();

/** Turns the JSON values that are not JSON types back into what Prisma returns (null: nothing to do). */
function reviver(fields: FieldCatalog): Reviver {
  let found = revivers.get(fields);
  if (found !== undefined) return found;
  const dates = Object.keys(fields).filter((f) => fields[f]!.type === 'datetime');
  const decimals = Object.keys(fields).filter((f) => fields[f]!.type === 'decimal');
  found =
    dates.length === 0 && decimals.length === 0
      ? null
      : (row) => {
          for (const f of dates) if (typeof row[f] === 'string') row[f] = new Date(row[f]);
          for (const f of decimals) if (typeof row[f] === 'string') row[f] = new Prisma.Decimal(row[f]);
        };
  revivers.set(fields, found);
  return found;
}

function statement(source: PageSource, req: PageRequest): Prisma.Sql {
  return Prisma.sql`SELECT coalesce(json_agg(${jsonObject('t', req.fields, source.relations.map(relationJson))} ORDER BY ${orderList('t', req.orderBy)}), '[]'::json)::text AS page
    ${req.count ? Prisma.sql`, (SELECT count(*) FROM ${ident(source.table)})::int AS total` : Prisma.empty}
    FROM (SELECT * FROM ${ident(source.table)} t ORDER BY ${orderList('t', req.orderBy)} LIMIT ${req.take} OFFSET ${req.skip}) t`;
}

// The statement's text depends only on the resource, its relations, the order and whether
// to count: it is built once per such combination and then only given its two values.
const MAX_TEMPLATES = 500;
const templates = new Map<string, Prisma.Sql>();

function cachedStatement(source: PageSource, req: PageRequest): Prisma.Sql {
  const key = `${source.table}|${source.relations.map((r) => r.name).join(',')}|${req.count}|${JSON.stringify(req.orderBy)}`;
  let template = templates.get(key);
  if (!template) {
    template = statement(source, { ...req, take: 0, skip: 0 });
    if (template.values.length !== 2) throw new Error('page-sql: a page statement has exactly two values');
    if (templates.size < MAX_TEMPLATES) templates.set(key, template);
  }
  return new Prisma.Sql(template.strings, [req.take, req.skip]);
}

/** The page's records (with the relations inside each), and the table's row count when asked. */
export async function readPage(source: PageSource, req: PageRequest): Promise<{ rows: unknown[]; total: number | undefined }> {
  const [result] = await source.prisma.$queryRaw<{ page: string; total?: number }[]>(cachedStatement(source, req));
  const rows = JSON.parse(result!.page) as Record<string, unknown>[];
  const own = reviver(req.fields);
  const nested: Array<[string, NonNullable<Reviver>]> = [];
  for (const r of source.relations) {
    const revive = reviver(r.fields);
    if (revive) nested.push([r.name, revive]);
  }
  if (own || nested.length > 0)
    for (const row of rows) {
      own?.(row);
      for (const [name, revive] of nested) for (const child of row[name] as Record<string, unknown>[]) revive(child);
    }
  return { rows, total: req.count ? result!.total : undefined };
}

/** The Prisma `include` that reads the same relations (the path for filtered or cursor pages). */
export function includeOf(relations: readonly PageRelation[]): Record<string, unknown> | undefined {
  if (relations.length === 0) return undefined;
  return Object.fromEntries(relations.map((r) => [r.name, { orderBy: r.orderBy.map((o) => ({ ...o })) }]));
}
