import type { FieldCatalog } from '../../query/fields';
import type { FilterNode, SortKey } from '../../query/filter-tree';
import { cursorToWhere, encodeCursor } from '../../db/query/keyset';
import { toPrismaOrderBy, toPrismaWhere } from '../../db/query/to-prisma';
import { readPage, type PageSource } from '../../db/query/page-sql';

// One way to list any resource, for both doors: a neutral filter and sort, offset or
// cursor paging over a total order (the id breaks every tie), an optional total count.

export interface ListQuery {
  readonly filter?: FilterNode | undefined;
  readonly orderBy?: readonly SortKey[] | undefined;
  /** Page size; the caller has already bounded it. */
  readonly limit: number;
  readonly offset?: number | undefined;
  /** Opaque cursor: start strictly after this record (GraphQL `after`). */
  readonly after?: string | undefined;
  readonly count?: boolean | undefined;
  /** Fields to return (REST $select); all scalar fields when absent. */
  readonly select?: readonly string[] | undefined;
}

export interface Page<T> {
  readonly items: T[];
  readonly totalCount: number | undefined;
  /** More matching records follow this page. */
  readonly hasMore: boolean;
  /** A method (bivariant): a page of records with relations is also a page of the bare records. */
  cursorOf(item: T): string;
}

/** The slice of a Prisma model delegate that listing needs. */
export interface ListableDelegate {
  findMany(args: object): Promise<unknown[]>;
  count(args: object): Promise<number>;
}

export interface ListOptions {
  /** Prisma `include` for relations returned inside the record (customer addresses). */
  readonly include?: Record<string, unknown>;
  /** A fixed condition ANDed to the caller's filter. */
  readonly scope?: Record<string, unknown>;
  /**
   * Read pages without a filter, cursor or $select (the common browse) as one statement
   * answered in JSON (src/db/query/page-sql.ts) instead of through Prisma's engine; the
   * relations it names are the ones `include` reads on the other path.
   */
  readonly page?: PageSource;
}

export async function listRecords<T extends { id: string }>(
  delegate: ListableDelegate,
  fields: FieldCatalog,
  q: ListQuery,
  o: ListOptions = {},
): Promise<Page<T>> {
  const sortKeys = q.orderBy ?? [];
  const conditions: Record<string, unknown>[] = [];
  if (o.scope) conditions.push(o.scope);
  if (q.filter) conditions.push(toPrismaWhere(q.filter, fields));
  const where = conditions.length === 0 ? {} : conditions.length === 1 ? conditions[0]! : { AND: conditions };
  const pageWhere = q.after ? { AND: [where, cursorToWhere(q.after, sortKeys, fields)] } : where;

  let select: Record<string, unknown> | undefined;
  if (q.select) {
    // Sort keys are needed for cursors, the id for the tie-break; both are projected away below.
    select = Object.fromEntries([...new Set(['id', ...q.select, ...sortKeys.map((k) => k.field)])].map((f) => [f, true]));
    if (o.include) for (const [k, v] of Object.entries(o.include)) if (q.select.includes(k)) select[k] = v;
  }

  const orderBy = toPrismaOrderBy([...sortKeys], fields);
  const plain = !q.filter && !q.after && !q.select && !o.scope;
  const [rows, totalCount] = o.page && plain
    ? await readPage(o.page, { fields, orderBy, take: q.limit + 1, skip: q.offset ?? 0, count: q.count === true }).then(
        (r) => [r.rows as T[], r.total] as const,
      )
    : await Promise.all([
    delegate.findMany({
      where: pageWhere,
      orderBy,
      skip: q.offset ?? 0,
      take: q.limit + 1,
      ...(select ? { select } : o.include ? { include: o.include } : {}),
    }) as Promise<T[]>,
    q.count ? delegate.count({ where }) : Promise.resolve(undefined),
  ]);
  const hasMore = rows.length > q.limit;
  const page = hasMore ? rows.slice(0, q.limit) : rows;
  const items = q.select ? page.map((r) => pick(r, q.select!) as T) : page;
  // Cursors are computed from the full rows (only $select projects them), so keep them by id.
  const full = q.select ? new Map(page.map((r) => [r.id, r])) : undefined;
  return {
    items,
    totalCount,
    hasMore,
    cursorOf: (item) => encodeCursor([...sortKeys], (full?.get(item.id) ?? item) as unknown as Record<string, unknown>),
  };
}

function pick(row: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = row[f];
  return out;
}
