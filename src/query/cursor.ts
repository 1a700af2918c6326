// Opaque cursors for GraphQL cursor paging (`after:`). A cursor holds the sort-key values and
// the id of the last record of a page; the next page is "every record strictly after it" in
// the total order of a page (the sort keys, then id ascending: src/db/read/compile.ts orderList), which unlike an
// offset neither skips nor repeats records when rows are inserted or deleted meanwhile.
//
// "Strictly after" in a lexicographic order over keys k1..kn is
//   (k1 after v1) or (k1 = v1 and k2 after v2) or ... or (k1 = v1 and ... and kn after vn)
// where "after" depends on the direction and on where nulls sort: first in ascending order,
// last in descending order (OData's rule, written out by orderList). The condition is
// built as a neutral filter tree and compiled with the page's filter (src/db/read/where.ts), so the
// null, boolean and enum handling is the same as for filters.
//
// The cursor is base64url JSON; it is opaque, not secret: a forged cursor can only choose
// where a page starts, and the filter still applies. Values are kept exact: decimals as
// text, date-times as ISO strings with milliseconds.

import { invalidQuery } from '../errors/catalogue';
import { lookupField, type FieldCatalog, type FieldSpec } from './fields';
import type { FilterNode, FilterValue, SortKey } from './filter-tree';
import { bindValue, canonicalGuid, DECIMAL_PATTERN, isDecimal, type RawValue } from './values';

type CursorValue = string | boolean | null;

interface CursorPayload {
  /** The sort keys the cursor was made for, as `field:direction`. */
  readonly k: readonly string[];
  /** The record's value of each sort key. */
  readonly p: readonly CursorValue[];
  /** The record's id: the final tie-breaker. */
  readonly id: string;
}

/** Longest cursor accepted: a cursor is a handful of values, never kilobytes. */
const MAX_CURSOR_LENGTH = 4096;
const OPTION = 'after';

const signature = (keys: readonly SortKey[]): string[] => keys.map((k) => `${k.field}:${k.direction}`);

/** A record's value as it goes into a cursor: exact text for decimals and instants. */
function encodeValue(field: string, value: unknown): CursorValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' && Number.isFinite(value) && DECIMAL_PATTERN.test(String(value))) return String(value);
  // The read path revives decimals as decimal.js objects; toFixed() without digits is exact.
  if (isDecimal(value)) return value.toFixed();
  // A record without the sort field is a programming error (the field was not selected).
  throw new Error(`encodeCursor: cannot encode the value of '${field}'`);
}

/** A record's own field by its catalogue name (a record is a plain object from the read path). */
const valueOf = (record: object, field: string): unknown => Object.getOwnPropertyDescriptor(record, field)?.value;

/** The cursor pointing at `record` in the order of `sortKeys` (then id). */
export function encodeCursor(sortKeys: readonly SortKey[], record: object): string {
  const id = valueOf(record, 'id');
  if (typeof id !== 'string') throw new Error('encodeCursor: the record has no id');
  const payload: CursorPayload = { k: signature(sortKeys), p: sortKeys.map((k) => encodeValue(k.field, valueOf(record, k.field))), id };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

const bad = (why: string): never => {
  throw invalidQuery(OPTION, `the cursor is not valid (${why})`);
};

function decodePayload(cursor: string): CursorPayload {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) bad('not base64url');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return bad('does not decode');
  }
  if (typeof parsed !== 'object' || parsed === null) return bad('does not decode');
  const { k, p, id } = parsed as Record<string, unknown>;
  const isValue = (v: unknown): v is CursorValue => v === null || typeof v === 'string' || typeof v === 'boolean';
  if (!Array.isArray(k) || !k.every((x) => typeof x === 'string')) return bad('no sort keys');
  if (!Array.isArray(p) || !p.every(isValue) || p.length !== k.length) return bad('no values');
  if (typeof id !== 'string') return bad('no id');
  return { k, p, id };
}

/** A cursor value back as a typed filter value (or null), checked against the field. */
function decodeValue(field: string, spec: FieldSpec, value: CursorValue): FilterValue | null {
  if (value === null) return spec.nullable ? null : bad(`'${field}' cannot be null`);
  let raw: RawValue;
  if (typeof value === 'boolean') raw = { type: 'boolean', value };
  else if (spec.type === 'decimal') raw = { type: 'number', text: value };
  else if (spec.type === 'datetime') raw = { type: 'datetime', text: value };
  else raw = { type: 'string', value };
  const bound = bindValue(field, spec, raw);
  return bound.ok ? bound.value : bad(bound.message);
}

/**
 * The filter selecting the records strictly after the cursor's record, in the order of the
 * sort keys (then id). INVALID_QUERY (option `after`) when the cursor does not
 * decode or was made for other sort keys.
 */
export function cursorFilter(cursor: string, sortKeys: readonly SortKey[], fields: FieldCatalog): FilterNode {
  const payload = decodePayload(cursor);
  const expected = signature(sortKeys);
  if (payload.k.length !== expected.length || payload.k.some((k, i) => k !== expected[i])) {
    bad('it was made for another order');
  }
  const id = canonicalGuid(payload.id) ?? bad('bad id');

  // The total order: the sort keys, then id ascending unless id is a key already (then the
  // keys after it never decide anything).
  const keys: { field: string; spec: FieldSpec; direction: 'asc' | 'desc'; value: FilterValue | null }[] = [];
  for (const [i, key] of sortKeys.entries()) {
    const spec = lookupField(fields, key.field);
    if (!spec) throw new Error(`cursorFilter: sort field '${key.field}' is not in the catalogue`);
    keys.push({ field: key.field, spec, direction: key.direction, value: decodeValue(key.field, spec, payload.p[i] ?? null) });
    if (key.field === 'id') break;
  }
  if (!keys.some((k) => k.field === 'id')) {
    keys.push({ field: 'id', spec: { type: 'uuid', nullable: false }, direction: 'asc', value: { type: 'uuid', value: id } });
  }

  const disjuncts: FilterNode[] = [];
  const equalSoFar: FilterNode[] = [];
  for (const key of keys) {
    const after = afterNode(key.field, key.spec, key.direction, key.value);
    if (after) disjuncts.push(equalSoFar.length === 0 ? after : { kind: 'and', nodes: [...equalSoFar, after] });
    equalSoFar.push({ kind: 'compare', field: key.field, op: 'eq', value: key.value });
  }
  return { kind: 'or', nodes: disjuncts };
}

/** Records whose `field` comes strictly after `value` in that key's order, or undefined if none can. */
function afterNode(field: string, spec: FieldSpec, direction: 'asc' | 'desc', value: FilterValue | null): FilterNode | undefined {
  const isNull: FilterNode = { kind: 'compare', field, op: 'eq', value: null };
  if (direction === 'asc') {
    // Ascending, nulls first: after a null come all values; after a value come greater values.
    if (value === null) return { kind: 'compare', field, op: 'ne', value: null };
    return { kind: 'compare', field, op: 'gt', value };
  }
  // Descending, nulls last: after a null comes nothing; after a value come smaller values and the nulls.
  if (value === null) return undefined;
  const smaller: FilterNode = { kind: 'compare', field, op: 'lt', value };
  return spec.nullable ? { kind: 'or', nodes: [smaller, isNull] } : smaller;
}
