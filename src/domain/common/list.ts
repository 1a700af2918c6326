import type { FieldCatalog } from '../../query/fields';
import type { FilterNode, SortKey } from '../../query/filter-tree';
import { encodeCursor } from '../../db/query/keyset';
import { pageArgs, type ModelDelegate, type ModelName } from '../../db/query/model';
import { readPage, type PageSource } from '../../db/query/page-sql';
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
 * `page`: read pages without a filter or cursor (the common browse) as one statement answered
 * in JSON (src/db/query/page-sql.ts) instead of through Prisma's engine; its relations are the
 * ones the delegate includes on the other path.
 */
export async function listRecords<M extends ModelName, T extends { id: string }>(
  delegate: ModelDelegate<M, T>,
  fields: FieldCatalog,
  q: ListQuery,
  page?: PageSource,
): Promise<Page<T>> {
  const sortKeys = q.orderBy ?? [];
  const args = pageArgs<M>(fields, { filter: q.filter, orderBy: sortKeys, after: q.after, offset: q.offset ?? 0, take: q.limit + 1 });
  const [rows, totalCount] =
    page && !q.filter && !q.after
      ? await readPage(page, { fields, orderBy: toPrismaOrderBy(sortKeys, fields), take: q.limit + 1, skip: q.offset ?? 0, count: q.count === true }).then(
          // The statement's rows have the delegate's shape (test/db/query/page-sql.test.ts compares them).
          (r) => [r.rows as T[], r.total] as const,
        )
      : await Promise.all([delegate.findMany(args.find), q.count ? delegate.count(args.count) : undefined]);
  const hasMore = rows.length > q.limit;
  return {
    items: hasMore ? rows.slice(0, q.limit) : rows,
    totalCount,
    hasMore,
    cursorOf: (item) => encodeCursor(sortKeys, item),
  };
}
