// List fields: `where`, `orderBy`, `first`, `after`, `offset` → the service layer's
// ListQuery, and the connection built lazily from the Page the service returns.

import type { FieldNode, GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import { Kind } from 'graphql';
import { DEFAULT_PAGE_SIZE, MAX_OFFSET, MAX_PAGE_SIZE, type ListQuery, type Page } from '../../domain/common/list';
import { invalidQuery, validationFailed } from '../../errors/catalogue';
import type { FieldCatalog } from '../../query/fields';
import type { SortKey } from '../../query/filter-tree';
import { graphqlWhereToFilter } from '../where';
import type { EdgeModel } from '../models';

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

export function listQuery(args: ListArgs, fields: FieldCatalog, info: GraphQLResolveInfo): ListQuery {
  const first = args.first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 0 || first > MAX_PAGE_SIZE)
    throw validationFailed([{ field: 'first', message: `must be a whole number from 0 to ${MAX_PAGE_SIZE}` }]);
  const offset = args.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET)
    throw validationFailed([{ field: 'offset', message: `must be a whole number from 0 to ${MAX_OFFSET}` }]);
  return {
    filter: graphqlWhereToFilter(args.where, fields),
    orderBy: sortKeys(args.orderBy, fields),
    limit: first,
    offset: offset === 0 ? undefined : offset,
    after: args.after ?? undefined,
    count: selects(info, 'totalCount'),
  };
}

// What a connection field's selection asks for (fragments included). The field nodes
// belong to the parsed document, which Apollo caches, so the answers are cached with them.
const selectionCache = new WeakMap<FieldNode, Map<string, boolean>>();

function cached(info: GraphQLResolveInfo, key: string, compute: () => boolean): boolean {
  const first = info.fieldNodes[0];
  if (!first) return false;
  // Several nodes (the same field selected twice) are rare: not worth caching.
  if (info.fieldNodes.length !== 1) return compute();
  let byKey = selectionCache.get(first);
  if (!byKey) selectionCache.set(first, (byKey = new Map()));
  let found = byKey.get(key);
  if (found === undefined) byKey.set(key, (found = compute()));
  return found;
}

/** Whether the connection's own selection has the field (`totalCount`, `pageInfo`, ...). */
export function selects(info: GraphQLResolveInfo, name: string): boolean {
  return cached(info, name, () => info.fieldNodes.some((n) => fieldsNamed(n.selectionSet, name, info).length > 0));
}

/** Whether the records of the connection (`nodes { ... }` or `edges { node { ... } }`) select one of these fields. */
export function nodesSelect(info: GraphQLResolveInfo, names: readonly string[]): boolean {
  return cached(info, `nodes:${names.join(',')}`, () =>
    info.fieldNodes.some((n) => {
      const sets = [
        ...fieldsNamed(n.selectionSet, 'nodes', info),
        ...fieldsNamed(n.selectionSet, 'edges', info).flatMap((e) => fieldsNamed(e.selectionSet, 'node', info)),
      ];
      return sets.some((f) => names.some((name) => fieldsNamed(f.selectionSet, name, info).length > 0));
    }),
  );
}

/** The fields of this name in a selection set, through inline fragments and fragment spreads. */
function fieldsNamed(set: SelectionSetNode | undefined, name: string, info: GraphQLResolveInfo, seen = new Set<string>()): FieldNode[] {
  if (!set) return [];
  const out: FieldNode[] = [];
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value === name) out.push(sel);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      out.push(...fieldsNamed(sel.selectionSet, name, info, seen));
    } else if (!seen.has(sel.name.value)) {
      seen.add(sel.name.value);
      const fragment = info.fragments[sel.name.value];
      if (fragment) out.push(...fieldsNamed(fragment.selectionSet, name, info, seen));
    }
  }
  return out;
}

/** The resolvers of every XConnection type over a Page. */
export function connectionResolvers<T extends { id: string }>() {
  return {
    nodes: (page: Page<T>): T[] => page.items,
    edges: (page: Page<T>): EdgeModel<T>[] => page.items.map((node) => ({ cursor: page.cursorOf(node), node })),
    totalCount: (page: Page<T>): number => {
      // listQuery asks for the count whenever totalCount is selected.
      if (page.totalCount === undefined) throw new Error('totalCount was not computed for this page');
      return page.totalCount;
    },
    pageInfo: (page: Page<T>) => {
      const last = page.items[page.items.length - 1];
      return { hasNextPage: page.hasMore, endCursor: last ? page.cursorOf(last) : null };
    },
  };
}
