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

/**
 * The list's query. `needs` names, for each relation field of the records, the record fields
 * its resolver reads (src/graphql/resolvers/relations.ts); with it, the query asks the service
 * for only the fields the records' selection uses.
 */
export function listQuery(args: ListArgs, fields: FieldCatalog, info: GraphQLResolveInfo, needs?: RelationNeeds, reads?: RelationReads): ListQuery {
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
    select: needs && nodeFields(info, fields, needs),
    include: reads && cached(info, 'include', () => relationsIn(recordFields(info), reads)),
  };
}

/**
 * For each relation field of a type, the declared relation (src/domain/<resource>/resource.ts)
 * it shows. Selected, the relation is read inside the records' own statement (src/db/read),
 * not through a loader afterwards: an article with its tax code is one statement.
 */
export type RelationReads = Readonly<Record<string, string>>;

const relationsIn = (selected: readonly FieldNode[], reads: RelationReads): string[] => [
  ...new Set(selected.flatMap((f) => (Object.hasOwn(reads, f.name.value) ? [reads[f.name.value]!] : []))),
];

/** The declared relations a single-record field's selection shows (`customer(id:) { addresses { ... } }`). */
export function recordRelations(info: GraphQLResolveInfo, reads: RelationReads): string[] {
  return cached(info, 'include', () => relationsIn(info.fieldNodes.flatMap((n) => fieldsIn(n.selectionSet, info)), reads));
}

/** For each relation field of a type, the fields of its own record that the field's resolver reads. */
export type RelationNeeds = Readonly<Record<string, readonly string[]>>;

// What a connection field's selection asks for (fragments included). The field nodes
// belong to the parsed document, which Apollo caches, so the answers are cached with them.
const selectionCache = new WeakMap<FieldNode, Map<string, unknown>>();

function cached<T>(info: GraphQLResolveInfo, key: string, compute: () => T): T {
  const first = info.fieldNodes[0];
  if (!first) return compute();
  // Several nodes (the same field selected twice) are rare: not worth caching.
  if (info.fieldNodes.length !== 1) return compute();
  let byKey = selectionCache.get(first);
  if (!byKey) selectionCache.set(first, (byKey = new Map<string, unknown>()));
  if (byKey.has(key)) return byKey.get(key) as T;
  const found = compute();
  byKey.set(key, found);
  return found;
}

/** Whether the connection's own selection has the field (`totalCount`, `pageInfo`, ...). */
export function selects(info: GraphQLResolveInfo, name: string): boolean {
  return cached(info, name, () => info.fieldNodes.some((n) => fieldsNamed(n.selectionSet, name, info).length > 0));
}

/** The fields selected on the connection's records: under `nodes { ... }` and `edges { node { ... } }`. */
function recordFields(info: GraphQLResolveInfo): FieldNode[] {
  return info.fieldNodes.flatMap((n) =>
    [...fieldsNamed(n.selectionSet, 'nodes', info), ...fieldsNamed(n.selectionSet, 'edges', info).flatMap((e) => fieldsNamed(e.selectionSet, 'node', info))].flatMap(
      (f) => fieldsIn(f.selectionSet, info),
    ),
  );
}

/**
 * The record fields the connection's records read: the scalar fields selected and what the
 * selected relations need. Undefined (every field) when a selected field is neither.
 */
function nodeFields(info: GraphQLResolveInfo, fields: FieldCatalog, needs: RelationNeeds): string[] | undefined {
  return cached(info, 'select', () => {
    const out = new Set<string>();
    for (const f of recordFields(info)) {
      const name = f.name.value;
      if (Object.hasOwn(fields, name)) out.add(name);
      else if (Object.hasOwn(needs, name)) for (const n of needs[name]!) out.add(n);
      else if (name !== '__typename') return undefined;
    }
    return [...out];
  });
}

/** The fields of a selection set, through inline fragments and fragment spreads (each fragment once). */
function fieldsIn(set: SelectionSetNode | undefined, info: GraphQLResolveInfo, seen = new Set<string>()): FieldNode[] {
  if (!set) return [];
  const out: FieldNode[] = [];
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) out.push(sel);
    else if (sel.kind === Kind.INLINE_FRAGMENT) out.push(...fieldsIn(sel.selectionSet, info, seen));
    else if (!seen.has(sel.name.value)) {
      seen.add(sel.name.value);
      const fragment = info.fragments[sel.name.value];
      if (fragment) out.push(...fieldsIn(fragment.selectionSet, info, seen));
    }
  }
  return out;
}

const fieldsNamed = (set: SelectionSetNode | undefined, name: string, info: GraphQLResolveInfo): FieldNode[] =>
  fieldsIn(set, info).filter((f) => f.name.value === name);

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
