// List fields: `where`, `orderBy`, `first`, `after`, `offset` → the service layer's
// ListQuery, and the connection built lazily from the Page the service returns.

import type { GraphQLResolveInfo } from 'graphql';
import { DEFAULT_PAGE_SIZE, MAX_OFFSET, MAX_PAGE_SIZE, type ListQuery, type Page } from '../../domain/common/list';
import { invalidQuery, validationFailed } from '../../errors/catalogue';
import type { FieldCatalog } from '../../query/fields';
import type { SortKey } from '../../query/filter-tree';
import { graphqlWhereToFilter } from '../where';
import type { EdgeModel } from '../models';
import type { Resource } from '../../domain/common/declaration';
import { listSelection, selects } from './selection';

export interface ListArgs {
  readonly where?: unknown;
  readonly orderBy?: ReadonlyArray<Readonly<Record<string, unknown>>> | null;
  readonly first?: number | null;
  readonly after?: string | null;
  readonly offset?: number | null;
}

/** `orderBy: [{ code: DESC }, { name: ASC }]`: one field per element, each field once. */
export function sortKeys(orderBy: ListArgs['orderBy'], fields: FieldCatalog): SortKey[] {
  if (!orderBy) return [];
  const keys: SortKey[] = [];
  const seen = new Set<string>();
  orderBy.forEach((element, i) => {
    const set = Object.entries(element).filter(([, v]) => v !== undefined && v !== null);
    if (set.length !== 1) throw invalidQuery(`orderBy[${i}]`, `name exactly one field per element (got ${set.length})`);
    const [field, direction] = set[0]!;
    if (!Object.hasOwn(fields, field)) throw invalidQuery(`orderBy[${i}]`, `unknown field '${field}'`);
    if (direction !== 'asc' && direction !== 'desc') throw invalidQuery(`orderBy[${i}].${field}`, 'must be ASC or DESC');
    if (seen.has(field)) throw invalidQuery(`orderBy[${i}].${field}`, `'${field}' is already a sort key`);
    seen.add(field);
    keys.push({ field, direction });
  });
  return keys;
}

/** The list's query: its filter, order and window, and only what the query selects of the records (./selection.ts). */
export function listQuery(args: ListArgs, r: Resource, info: GraphQLResolveInfo): ListQuery {
  const first = args.first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 0 || first > MAX_PAGE_SIZE)
    throw validationFailed([{ field: 'first', message: `must be a whole number from 0 to ${MAX_PAGE_SIZE}` }]);
  const offset = args.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET)
    throw validationFailed([{ field: 'offset', message: `must be a whole number from 0 to ${MAX_OFFSET}` }]);
  const { select, include } = listSelection(info, r.model);
  return {
    filter: graphqlWhereToFilter(args.where, r.fields),
    orderBy: sortKeys(args.orderBy, r.fields),
    limit: first,
    offset: offset === 0 ? undefined : offset,
    after: args.after ?? undefined,
    count: selects(info, 'totalCount'),
    select,
    include,
  };
}

/** The resolvers of every XConnection type over a Page. */
export function connectionResolvers() {
  // Each resolver generic in the record type, so one object serves every resource's connection.
  return {
    nodes: <T>(page: Page<T>): T[] => page.items,
    edges: <T>(page: Page<T>): EdgeModel<T>[] => page.items.map((node) => ({ cursor: page.cursorOf(node), node })),
    totalCount: <T>(page: Page<T>): number => {
      // listQuery asks for the count whenever totalCount is selected.
      if (page.totalCount === undefined) throw new Error('totalCount was not computed for this page');
      return page.totalCount;
    },
    pageInfo: <T>(page: Page<T>) => {
      const last = page.items[page.items.length - 1];
      return { hasNextPage: page.hasMore, endCursor: last ? page.cursorOf(last) : null };
    },
  };
}
