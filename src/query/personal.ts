// Which personal fields (./fields.ts `personal`) a query names, decided on the parsed query
// before anything is read: its filter, sort keys, selection and expansions. A caller
// without PERSONAL_DATA_SCOPE who names one gets 403 whether or not any record matches.

import { AppError } from '../errors/catalogue';
import { PERSONAL_DATA_SCOPE, personalFieldsOf, type FieldCatalog } from './fields';
import type { Expansion, FilterNode, SortKey } from './filter-tree';

/** What a read names: the neutral parts of a ListQuery or a single-record read. */
export interface NamedFields {
  readonly filter?: FilterNode | undefined;
  readonly orderBy?: readonly SortKey[] | undefined;
  readonly select?: readonly string[] | undefined;
  readonly expand?: readonly Expansion[] | undefined;
}

function filterNames(node: FilterNode, personalNames: ReadonlySet<string>, found: Set<string>): void {
  switch (node.kind) {
    case 'and':
    case 'or':
      for (const n of node.nodes) filterNames(n, personalNames, found);
      return;
    case 'not':
      filterNames(node.node, personalNames, found);
      return;
    case 'const':
      // A condition folded away still named its field (`email eq email`).
      if (node.field !== undefined && personalNames.has(node.field)) found.add(node.field);
      return;
    default:
      if (personalNames.has(node.field)) found.add(node.field);
  }
}

/**
 * The personal fields a read names, as `field` or `relation/field` (expansions, and
 * `relation/nested/field` for their included relations), sorted. `relationFields` gives the
 * catalogue of the relation at a path of relation names from the record.
 */
export function personalFieldsNamed(
  fields: FieldCatalog,
  q: NamedFields,
  relationFields: (path: readonly string[]) => FieldCatalog,
): string[] {
  const found = new Set<string>();
  const own = personalFieldsOf(fields);
  if (own.size > 0) {
    if (q.filter) filterNames(q.filter, own, found);
    for (const k of q.orderBy ?? []) if (own.has(k.field)) found.add(k.field);
    for (const f of q.select ?? []) if (own.has(f)) found.add(f);
  }
  const expansions = (list: readonly Expansion[], path: readonly string[]): void => {
    for (const e of list) {
      const at = [...path, e.relation];
      const theirs = personalFieldsOf(relationFields(at));
      for (const f of [...(e.select ?? []), ...(e.orderBy ?? []).map((k) => k.field)]) if (theirs.has(f)) found.add(`${at.join('/')}/${f}`);
      expansions(e.include ?? [], at);
    }
  };
  expansions(q.expand ?? [], []);
  return [...found].sort();
}

/** The catalogue of the relation a write's key names, when its records hold personal fields (a customer's addresses): such a relation is personal as a whole. */
export function personalRelation(
  fields: FieldCatalog,
  key: string,
  relationFields: (relation: string) => FieldCatalog | undefined,
): FieldCatalog | undefined {
  const theirs = Object.hasOwn(fields, key) ? undefined : relationFields(key);
  return theirs && personalFieldsOf(theirs).size > 0 ? theirs : undefined;
}

/**
 * The personal fields a write's body sets, as `field` or `relation/field` (records of a
 * relation written inside it, such as a customer's addresses), sorted: a caller without the
 * scope may not create or change them.
 */
export function personalFieldsWritten(
  fields: FieldCatalog,
  body: unknown,
  relationFields: (relation: string) => FieldCatalog | undefined,
): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const found = new Set<string>();
  const own = personalFieldsOf(fields);
  for (const [key, value] of Object.entries(body)) {
    if (own.has(key)) found.add(key);
    const theirs = personalRelation(fields, key, relationFields);
    if (!theirs) continue;
    const before = found.size;
    for (const record of Array.isArray(value) ? value : [value])
      for (const f of personalFieldsWritten(theirs, record, () => undefined)) found.add(`${key}/${f}`);
    // Records holding personal data, named at all (`addresses: []` deletes every address): the set is personal.
    if (found.size === before) found.add(key);
  }
  return [...found].sort();
}

/**
 * A record as a caller without the scope sees it: without its personal fields, and the records
 * of its relations (`relationFields` gives their catalogues) without theirs. The keys keep their
 * order, so the view is the record a read without personal fields gives, ETag included.
 */
export function withoutPersonal(
  fields: FieldCatalog,
  record: object,
  relationFields: (relation: string) => FieldCatalog | undefined,
): Record<string, unknown> {
  const own = personalFieldsOf(fields);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (own.has(key)) continue;
    const theirs = Object.hasOwn(fields, key) ? undefined : relationFields(key);
    out[key] = theirs && Array.isArray(value) ? value.map((r: object) => withoutPersonal(theirs, r, () => undefined)) : value;
  }
  return out;
}

/** FORBIDDEN naming each personal field (never a value): what a caller without the scope gets for naming one. */
export function personalDataForbidden(names: readonly string[]): AppError {
  const list = names.join(', ');
  return new AppError(
    'FORBIDDEN',
    `${names.length === 1 ? 'The field' : 'The fields'} ${list} ${names.length === 1 ? 'is' : 'are'} personal data: the token lacks the scope ${PERSONAL_DATA_SCOPE}`,
    names.map((field) => ({ field, message: `needs the scope ${PERSONAL_DATA_SCOPE}` })),
  );
}
