// What a query selects of a resource's records, so that the read path reads only that: the
// record fields (the scalars selected and what the selected relation fields read off their
// record), and the declared relations to read inside the records with the fields selected of
// them. Fragments count. The field nodes belong to the parsed document, which Apollo caches,
// so the answers are cached with them.

import type { FieldNode, GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import { Kind } from 'graphql';
import type { Expansion } from '../../query/filter-tree';
import type { ModelName } from '../../domain/common/declaration';
import { resourceOf } from '../../domain/resources';
import { RELATION_NEEDS as NEEDS, RELATION_READS as READS } from './relations';

/** The fields to read of each record (undefined: every field) and the relations to read inside them. */
export interface Selection {
  readonly select: readonly string[] | undefined;
  readonly include: readonly Expansion[];
}

const selectionCache = new WeakMap<FieldNode, Map<string, unknown>>();

function cached<T>(info: GraphQLResolveInfo, key: string, compute: () => T): T {
  const first = info.fieldNodes[0];
  // Several nodes (the same field selected twice) are rare: not worth caching.
  if (!first || info.fieldNodes.length !== 1) return compute();
  let byKey = selectionCache.get(first);
  if (!byKey) selectionCache.set(first, (byKey = new Map<string, unknown>()));
  if (byKey.has(key)) return byKey.get(key) as T;
  const found = compute();
  byKey.set(key, found);
  return found;
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

/** Whether the field's own selection has `name` (a connection's `totalCount`, `pageInfo`, ...). */
export function selects(info: GraphQLResolveInfo, name: string): boolean {
  return cached(info, name, () => info.fieldNodes.some((n) => fieldsNamed(n.selectionSet, name, info).length > 0));
}

/**
 * How many levels of relations a record's read holds: its relations, and theirs (read with
 * them by the parents' ids: src/db/read/compile.ts readRelated). Deeper ones are left to the
 * loaders.
 */
const RELATION_LEVELS = 2;

/**
 * What `fields` (selected on records of `model`) read, with `levels` levels of relations. A
 * field that is neither a record field nor a relation field with known needs makes every
 * field read. A relation field of the same name as its declared relation reads the fields
 * selected of it (and the id) and its relations selected; one that shows a relation by
 * another name (Customer.defaultAddress) reads all of it.
 */
function selectionOf(model: ModelName, fields: readonly FieldNode[], info: GraphQLResolveInfo, levels: number): Selection {
  const resource = resourceOf(model);
  const needs = NEEDS[model];
  const reads = READS[model] ?? {};
  if (!resource || !needs) return { select: undefined, include: [] };
  const catalogue = resource.fields;
  const own = new Set<string>(['id']);
  let every = false;
  const relations = new Map<string, FieldNode[] | 'all'>();
  for (const f of fields) {
    const name = f.name.value;
    if (Object.hasOwn(catalogue, name)) own.add(name);
    else if (Object.hasOwn(needs, name)) {
      for (const n of needs[name]!) own.add(n);
      const relation = Object.hasOwn(reads, name) ? reads[name]! : undefined;
      if (levels === 0 || relation === undefined) continue;
      const nodes = relations.get(relation);
      if (relation !== name) relations.set(relation, 'all');
      else if (nodes !== 'all') relations.set(relation, [...(nodes ?? []), f]);
    } else if (name !== '__typename') every = true;
  }
  const include = [...relations].map(([relation, nodes]): Expansion => {
    if (nodes === 'all') return { relation };
    const target = resource.relations[relation]!.target;
    const { select, include: nested } = selectionOf(
      target,
      nodes.flatMap((n) => fieldsIn(n.selectionSet, info)),
      info,
      levels - 1,
    );
    return { relation, ...(select && { select }), ...(nested.length > 0 && { include: nested }) };
  });
  return { select: every ? undefined : [...own], include };
}

/** What a list field's records select (under `nodes { ... }` and `edges { node { ... } }`). */
export function listSelection(info: GraphQLResolveInfo, model: ModelName): Selection {
  return cached(info, 'selection', () => {
    const records = info.fieldNodes.flatMap((n) =>
      [
        ...fieldsNamed(n.selectionSet, 'nodes', info),
        ...fieldsNamed(n.selectionSet, 'edges', info).flatMap((e) => fieldsNamed(e.selectionSet, 'node', info)),
      ].flatMap((f) => fieldsIn(f.selectionSet, info)),
    );
    return selectionOf(model, records, info, RELATION_LEVELS);
  });
}

/** What a single-record field selects (`customer(id:) { ... }`). */
export function recordSelection(info: GraphQLResolveInfo, model: ModelName): Selection {
  return cached(info, 'selection', () =>
    selectionOf(
      model,
      info.fieldNodes.flatMap((n) => fieldsIn(n.selectionSet, info)),
      info,
      RELATION_LEVELS,
    ),
  );
}

/**
 * What `_entities` selects on the records of `model`: the fields inside its fragments on that
 * type (`... on Customer { ... }`, as a router writes them), not those on the other entity types.
 */
export function entitySelection(info: GraphQLResolveInfo, model: ModelName): Selection {
  return cached(info, `entity:${model}`, () => {
    const onModel = (set: SelectionSetNode | undefined, seen: Set<string>): FieldNode[] =>
      (set?.selections ?? []).flatMap((sel): FieldNode[] => {
        // A fragment without a type condition is on `_Entity` still: only its own fragments name a type.
        if (sel.kind === Kind.INLINE_FRAGMENT)
          return !sel.typeCondition
            ? onModel(sel.selectionSet, seen)
            : sel.typeCondition.name.value === model
              ? fieldsIn(sel.selectionSet, info, seen)
              : [];
        if (sel.kind !== Kind.FRAGMENT_SPREAD || seen.has(sel.name.value)) return [];
        seen.add(sel.name.value);
        const fragment = info.fragments[sel.name.value];
        if (!fragment) return [];
        return fragment.typeCondition.name.value === model
          ? fieldsIn(fragment.selectionSet, info, seen)
          : onModel(fragment.selectionSet, seen);
      });
    return selectionOf(
      model,
      info.fieldNodes.flatMap((n) => onModel(n.selectionSet, new Set())),
      info,
      RELATION_LEVELS,
    );
  });
}
