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

function relationJson(r: PageRelation): Prisma.Sql {
  return Prisma.sql`'${Prisma.raw(r.name)}', (SELECT coalesce(json_agg(${jsonObject('r', r.fields)} ORDER BY ${orderList('r', r.orderBy)}), '[]'::json) FROM ${ident(r.table)} r WHERE ${column('r', r.foreignKey)} = t."id")`;
}

/** Turns the JSON values that are not JSON types back into what Prisma returns. */
function reviver(fields: FieldCatalog): ((row: Record<string, unknown>) => void) | undefined {
  const dates = Object.keys(fields).filter((f) => fields[f]!.type === 'datetime');
  const decimals = Object.keys(fields).filter((f) => fields[f]!.type === 'decimal');
  if (dates.length === 0 && decimals.length === 0) return undefined;
  return (row) => {
    for (const f of dates) if (typeof row[f] === 'string') row[f] = new Date(row[f]);
    for (const f of decimals) if (typeof row[f] === 'string') row[f] = new Prisma.Decimal(row[f]);
  };
}

/** The page's records (with the relations inside each), and the table's row count when asked. */
export async function readPage(source: PageSource, req: PageRequest): Promise<{ rows: unknown[]; total: number | undefined }> {
  const page = Prisma.sql`SELECT coalesce(json_agg(${jsonObject('t', req.fields, source.relations.map(relationJson))} ORDER BY ${orderList('t', req.orderBy)}), '[]'::json)::text AS page
    ${req.count ? Prisma.sql`, (SELECT count(*) FROM ${ident(source.table)})::int AS total` : Prisma.empty}
    FROM (SELECT * FROM ${ident(source.table)} t ORDER BY ${orderList('t', req.orderBy)} LIMIT ${req.take} OFFSET ${req.skip}) t`;
  const [result] = await source.prisma.$queryRaw<{ page: string; total?: number }[]>(page);
  const rows = JSON.parse(result!.page) as Record<string, unknown>[];
  const own = reviver(req.fields);
  const nested = source.relations.map((r) => [r.name, reviver(r.fields)] as const).filter(([, f]) => f !== undefined);
  if (own || nested.length > 0)
    for (const row of rows) {
      own?.(row);
      for (const [name, revive] of nested) for (const child of row[name] as Record<string, unknown>[]) revive!(child);
    }
  return { rows, total: req.count ? result!.total : undefined };
}

/** The Prisma `include` that reads the same relations (the path for filtered or cursor pages). */
export function includeOf(relations: readonly PageRelation[]): Record<string, unknown> | undefined {
  if (relations.length === 0) return undefined;
  return Object.fromEntries(relations.map((r) => [r.name, { orderBy: r.orderBy.map((o) => ({ ...o })) }]));
}
