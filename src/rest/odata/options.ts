// Reads the OData system query options of a REST list request ($filter, $orderby, $top,
// $skip, $count, $select) into neutral form: a filter tree, sort keys and paging numbers.
// Every fault is INVALID_QUERY naming the option and the position in its value.
//
// Decisions worth knowing:
//  - Option names are matched case-insensitively (`$Filter`), as OData 4.01 allows; so
//    `$filter` and `$FILTER` together count as the same option given twice.
//  - Any other `$` option ($expand, $search, $format, ...) is refused rather than ignored:
//    a client asking for something we do not do should hear so.
//  - Parameters without `$` are not OData options and are left to the route.
//  - `top` is what the client asked for, or undefined when it gave no $top, so that the
//    caller can tell a page it cut itself (and owes a nextLink for) from one the client chose.

import { MAX_OFFSET, MAX_PAGE_SIZE } from '../../domain/common/list';
import { invalidQuery } from '../../errors/catalogue';
import { lookupField, unknownFieldMessage } from '../../query/conditions';
import type { FieldCatalog } from '../../query/fields';
import type { FilterNode, SortKey } from '../../query/filter-tree';
import { bindFilter } from './bind';
import { describeToken, tokenize, type Token } from './lexer';
import { MAX_FILTER_LENGTH, parseFilter } from './parser';

export interface ODataOptions {
  readonly filter?: FilterNode;
  readonly orderBy: SortKey[];
  readonly top?: number;
  readonly skip: number;
  readonly count: boolean;
  readonly select?: string[];
}

export interface ODataOptionLimits {
  /** Largest $top accepted (default: the service's MAX_PAGE_SIZE). */
  readonly maxTop?: number;
}

export const SUPPORTED_OPTIONS = ['$filter', '$orderby', '$top', '$skip', '$count', '$select'] as const;
type OptionName = (typeof SUPPORTED_OPTIONS)[number];
const INTEGER = /^\d+$/;

const isSupported = (name: string): name is OptionName => (SUPPORTED_OPTIONS as readonly string[]).includes(name);

/** The options' raw string values, each at most once; faults on duplicates and unknown `$` options. */
function collect(query: Readonly<Record<string, unknown>>): Partial<Record<OptionName, string>> {
  const found: Partial<Record<OptionName, string>> = {};
  for (const [key, value] of Object.entries(query)) {
    if (!key.startsWith('$') || value === undefined) continue;
    const name = key.toLowerCase();
    if (!isSupported(name)) {
      throw invalidQuery(key, `unsupported query option (supported: ${SUPPORTED_OPTIONS.join(', ')})`);
    }
    // Express gives an array for a repeated parameter (and qs-style parsers an object for `$top[x]=`).
    if (Array.isArray(value)) throw invalidQuery(key, 'given more than once');
    if (typeof value !== 'string') throw invalidQuery(key, 'must be a single text value');
    if (found[name] !== undefined) throw invalidQuery(key, `given more than once (also as ${name} in another case)`);
    if (value.length > MAX_FILTER_LENGTH) throw invalidQuery(key, `longer than ${MAX_FILTER_LENGTH} characters`, MAX_FILTER_LENGTH);
    found[name] = value;
  }
  return found;
}

function integer(option: string, text: string, min: number, max: number): number {
  const trimmed = text.trim();
  const offset = text.indexOf(trimmed);
  if (!INTEGER.test(trimmed)) throw invalidQuery(option, `must be a whole number from ${min} to ${max}`, offset);
  const n = Number(trimmed);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw invalidQuery(option, `must be a whole number from ${min} to ${max}`, offset);
  return n;
}

function boolean(option: string, text: string): boolean {
  const lower = text.trim().toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  throw invalidQuery(option, 'must be true or false', 0);
}

/**
 * Split a comma-separated list of `name [word]` items with positions, using the $filter
 * lexer (so names follow the same rules). Each item is its tokens up to the next comma.
 */
function items(option: string, text: string): Token[][] {
  const tokens = tokenize(text, option);
  const out: Token[][] = [];
  let current: Token[] = [];
  for (const t of tokens) {
    if (t.kind === 'comma' || t.kind === 'eof') {
      if (current.length === 0) {
        throw invalidQuery(option, t.kind === 'eof' && out.length === 0 ? 'empty value' : `expected a field name, found ${describeToken(t)}`, t.pos);
      }
      out.push(current);
      current = [];
    } else {
      current.push(t);
    }
  }
  return out;
}

function fieldName(option: string, t: Token, fields: FieldCatalog): string {
  if (t.kind !== 'identifier') throw invalidQuery(option, `expected a field name, found ${describeToken(t)}`, t.pos);
  if (!lookupField(fields, t.text)) throw invalidQuery(option, unknownFieldMessage(t.text, fields), t.pos);
  return t.text;
}

/** `$orderby=name desc, code`: known fields, each at most once, asc/desc in any case. */
export function parseOrderBy(text: string, fields: FieldCatalog, option = '$orderby'): SortKey[] {
  const seen = new Set<string>();
  return items(option, text).map(([first, second, extra]) => {
    const field = fieldName(option, first as Token, fields);
    if (seen.has(field)) throw invalidQuery(option, `field '${field}' is listed more than once`, (first as Token).pos);
    seen.add(field);
    if (extra) throw invalidQuery(option, `expected ',' or the end, found ${describeToken(extra)}`, extra.pos);
    if (!second) return { field, direction: 'asc' };
    const word = second.kind === 'identifier' ? second.text.toLowerCase() : '';
    if (word !== 'asc' && word !== 'desc') throw invalidQuery(option, `expected asc or desc, found ${describeToken(second)}`, second.pos);
    return { field, direction: word };
  });
}

/** `$select=code,name`: known fields, in the order asked, a repeated one kept once; `*` is every field. */
export function parseSelect(text: string, fields: FieldCatalog, option = '$select'): string[] {
  if (text.trim() === '*') return Object.keys(fields);
  const selected: string[] = [];
  for (const [first, extra] of items(option, text)) {
    const field = fieldName(option, first as Token, fields);
    if (extra) throw invalidQuery(option, `expected ',' or the end, found ${describeToken(extra)}`, extra.pos);
    if (!selected.includes(field)) selected.push(field);
  }
  return selected;
}

/**
 * The OData options of a list request. `query` is Express's `req.query`; parameters not
 * starting with `$` are ignored. Throws INVALID_QUERY on any fault.
 */
export function parseODataOptions(
  query: Readonly<Record<string, unknown>>,
  fields: FieldCatalog,
  opts: ODataOptionLimits = {},
): ODataOptions {
  const maxTop = opts.maxTop ?? MAX_PAGE_SIZE;
  const raw = collect(query);
  const result: {
    filter?: FilterNode;
    orderBy: SortKey[];
    top?: number;
    skip: number;
    count: boolean;
    select?: string[];
  } = { orderBy: [], skip: 0, count: false };
  if (raw.$filter !== undefined) result.filter = bindFilter(parseFilter(raw.$filter, '$filter'), fields, '$filter');
  if (raw.$orderby !== undefined) result.orderBy = parseOrderBy(raw.$orderby, fields);
  if (raw.$top !== undefined) result.top = integer('$top', raw.$top, 0, maxTop);
  if (raw.$skip !== undefined) result.skip = integer('$skip', raw.$skip, 0, MAX_OFFSET);
  if (raw.$count !== undefined) result.count = boolean('$count', raw.$count);
  if (raw.$select !== undefined) result.select = parseSelect(raw.$select, fields);
  return result;
}
