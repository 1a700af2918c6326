import type { Expansion, FilterNode, SortKey } from '../../query/filter-tree';

// What a list asks and answers, for both doors: a neutral filter and sort, offset or cursor
// paging over a total order (the id breaks every tie), an optional total count. The reading
// itself is ./read-service.ts.

/** The page size a list answers when the client names none (REST without $top, GraphQL without `first`). */
export const DEFAULT_PAGE_SIZE = 100;
/** The most records one list request may ask for (REST $top, GraphQL `first`). */
export const MAX_PAGE_SIZE = 1000;
// A 32-bit integer, as Prisma's `skip` took it before reads were compiled; no table here comes near.
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
  /** Declared relations to read inside each record (GraphQL: those the query selects, with the fields it selects of them). */
  readonly include?: readonly Expansion[] | undefined;
  /**
   * The fields the caller reads from each record (GraphQL: what the query selects). A page
   * may then leave the others out of its records; `id` and the sort keys are always there.
   * Absent: every field.
   */
  readonly select?: readonly string[] | undefined;
  /**
   * Whether the caller holds the personal-data scope (src/query/fields.ts `personal`); the
   * doors always say. False: records leave the personal fields out, and a query naming one
   * is FORBIDDEN. Absent: the service layer's own reads, every field.
   */
  readonly personalData?: boolean | undefined;
}

export interface Page<T> {
  readonly items: T[];
  readonly totalCount: number | undefined;
  /** More matching records follow this page. */
  readonly hasMore: boolean;
  /** The cursor of one of the items (a method: a page of a subtype is a page of its supertype). */
  cursorOf(item: T): string;
}

/** The record with only `fields`, in that order (REST $select). */
export function pick(row: object, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f, Object.getOwnPropertyDescriptor(row, f)?.value]));
}
