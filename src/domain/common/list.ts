import type { FieldCatalog, RelationCatalog } from '../../query/fields';
import type { Expansion, FilterNode, SortKey } from '../../query/filter-tree';
import { encodeCursor } from '../../db/query/keyset';
import { idsArgs, includeOf, pageArgs, type IdDelegate, type ModelDelegate, type ModelName } from '../../db/query/model';
import { narrowByLexicons, type Lexicons } from '../../db/query/lexicon';
import { readPage, type PageRelation, type PageSource } from '../../db/query/page-sql';
import type { RowReader } from '../../db/row-reader';
import { toPrismaOrderBy } from '../../db/query/to-prisma';

// One way to list any resource, for both doors: a neutral filter and sort, offset or
// cursor paging over a total order (the id breaks every tie), an optional total count.

/** The page size a list answers when the client names none (REST without $top, GraphQL without `first`). */
export const DEFAULT_PAGE_SIZE = 100;
/** The most records one list request may ask for (REST $top, GraphQL `first`). */
export const MAX_PAGE_SIZE = 1000;
// Prisma takes `skip` as a 32-bit integer: checked with Prisma 6.19, a skip of
// 9007199254740991 reached the database as OFFSET 4294967295. No table here comes near.
/** The largest offset a list accepts (REST $skip, GraphQL `offset`). */
export const MAX_OFFSET = 2147483647;

export interface ListQuery {
  readonly filter?: FilterNode | undefined;
  readonly orderBy?: readonly SortKey[] | undefined;
  /** Page size; the caller has already bounded it. */
  readonly limit: number;
  readonly offset?: number | undefined;
  /** Opaque cursor: start strictly after this record (GraphQL `after`). */
  readonly after?: string | undefined;
  readonly count?: boolean | undefined;
  /** Relations to return inside each record (REST $expand), checked against the resource's relations. */
  readonly expand?: readonly Expansion[] | undefined;
  /**
   * The fields the caller reads from each record (GraphQL: what the query selects). A page
   * may then leave the others out of its records; `id` and the sort keys are always there.
   * Absent: every field.
   */
  readonly select?: readonly string[] | undefined;
}

export interface Page<T> {
  readonly items: T[];
  readonly totalCount: number | undefined;
  /** More matching records follow this page. */
  readonly hasMore: boolean;
  /** The cursor of one of the items (a method: a page of a subtype is a page of its supertype). */
  cursorOf(item: T): string;
}

/**
 * The Prisma `include` for the expansions asked for (a read view's own inclusions, such as
 * customers' addresses, are replaced by an expansion of the same relation: see the view's
 * delegate). Undefined when there is nothing to include.
 */
export function expansionInclude(expand: readonly Expansion[] | undefined, relations: RelationCatalog = {}): Record<string, unknown> | undefined {
  const include: Record<string, unknown> = {};
  for (const e of expand ?? []) {
    const spec = Object.hasOwn(relations, e.relation) ? relations[e.relation] : undefined;
    // The options layer checked the names against the same catalogue; a miss is a programming error.
    if (!spec) throw new Error(`expansionInclude: unknown relation '${e.relation}'`);
    const select = e.select ? { select: Object.fromEntries(e.select.map((f) => [f, true])) } : {};
    include[e.relation] = spec.many
      ? {
          ...select,
          orderBy: toPrismaOrderBy(e.orderBy ?? spec.defaultOrder ?? [], spec.fields),
          ...(e.top === undefined ? {} : { take: e.top }),
        }
      : e.select
        ? select
        : true;
  }
  return Object.keys(include).length === 0 ? undefined : include;
}

export interface ListOptions<M extends ModelName> {
  /**
   * Read pages without an expansion through src/db/query/page-sql.ts instead of Prisma's
   * engine; the source's relations are the ones the delegate includes on the other path. A
   * page without a filter or cursor is a window of the table; any other page first reads its
   * ids through `ids` (Prisma compiles the filter and the cursor).
   */
  readonly page?: { readonly source: PageSource; readonly ids: IdDelegate<M>; readonly lexicons?: Lexicons | undefined } | undefined;
  /** The relations `expand` may name. */
  readonly relations?: RelationCatalog | undefined;
}

/**
 * ListOptions' `page` for a table read by `rows`, its ids through `ids`, with `relations`
 * inside each record, and the `lexicons` (./lexicon.ts) its text filters look in first.
 */
export function tablePages<M extends ModelName>(
  rows: RowReader,
  table: string,
  ids: IdDelegate<M>,
  { relations = [], lexicons }: { readonly relations?: readonly PageRelation[]; readonly lexicons?: Lexicons } = {},
): NonNullable<ListOptions<M>['page']> {
  return { source: { rows, table, relations }, ids, lexicons };
}

export async function listRecords<M extends ModelName, T extends { id: string }>(
  delegate: ModelDelegate<M, T>,
  fields: FieldCatalog,
  q: ListQuery,
  o: ListOptions<M> = {},
): Promise<Page<T>> {
  const sortKeys = q.orderBy ?? [];
  const filter = o.page?.lexicons ? await narrowByLexicons(o.page.source.rows, o.page.lexicons, q.filter) : q.filter;
  const args = pageArgs<M>(fields, { filter, orderBy: sortKeys, after: q.after, offset: q.offset ?? 0, take: q.limit + 1 });
  const include = expansionInclude(q.expand, o.relations);
  const read = async (): Promise<{ rows: T[]; totalCount: number | undefined; hasMore: boolean }> => {
    if (!o.page || include) {
      const [found, counted] = await Promise.all([delegate.findMany(include ? { ...args.find, include: includeOf<M>(include) } : args.find), q.count ? delegate.count(args.count) : undefined]);
      return { rows: found, totalCount: counted, hasMore: found.length > q.limit };
    }
    const { source, ids } = o.page;
    const page = {
      fields,
      select: q.select && [...new Set(['id', ...sortKeys.map((k) => k.field), ...q.select])],
      orderBy: toPrismaOrderBy(sortKeys, fields),
    };
    // The statements' rows have the delegate's shape (test/db/query/page-sql.test.ts compares them).
    if (!q.filter && !q.after) {
      const r = await readPage(source, { ...page, window: { take: q.limit + 1, skip: q.offset ?? 0, count: q.count === true } });
      return { rows: r.rows as T[], totalCount: r.total, hasMore: r.rows.length > q.limit };
    }
    // Ids first: filter, order and limit over the id alone, which an index on the sort key
    // often answers by itself (an index-only scan: no table row is read for a record the
    // filter drops); then the page's records by id. Whether more follow is known from the
    // ids, so a record deleted in between leaves the page one short, not the paging wrong.
    const [keys, counted] = await Promise.all([ids.findMany(idsArgs(args.find)), q.count ? delegate.count(args.count) : undefined]);
    const r = await readPage(source, { ...page, window: { ids: keys.slice(0, q.limit).map((k) => k.id) } });
    return { rows: r.rows as T[], totalCount: counted, hasMore: keys.length > q.limit };
  };
  const { rows, totalCount, hasMore } = await read();
  return {
    items: hasMore ? rows.slice(0, q.limit) : rows,
    totalCount,
    hasMore,
    cursorOf: (item) => encodeCursor(sortKeys, item),
  };
}

/** The record with only `fields`, in that order (REST $select). */
export function pick(row: object, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f, Object.getOwnPropertyDescriptor(row, f)?.value]));
}
