// Reads the OData system query options of a REST request ($filter, $orderby, $top, $skip,
// $count, $select, $expand, $format) into neutral form: a filter tree, sort keys, paging
// numbers and expansions. Every fault is INVALID_QUERY naming the option and the position in
// its value.
//
// Decisions worth knowing:
//  - The query string is read raw: percent-escapes are decoded and a `+` stays a plus sign
//    (`contains(name,'+')`), as OData URLs mean it; form encoding's "+ is a space" is not URL syntax.
//  - Option names are case-insensitive and the `$` is optional (`filter=`, `$Top=`), as OData
//    4.01 requires; so `$filter` and `FILTER` together are the same option given twice.
//  - Any other system option ($search, $skiptoken, `search=`, ...) and any unknown `$` name is
//    refused rather than ignored: a client asking for something we do not do should hear so.
//    Other names (`sap-client=100`) are custom options, which OData lets a service ignore.
//  - `top` is what the client asked for, or undefined when it gave no $top, so that the
//    caller can tell a page it cut itself (and owes a nextLink for) from one the client chose.

import { MAX_OFFSET, MAX_PAGE_SIZE } from '../../domain/common/list';
import { invalidQuery } from '../../errors/catalogue';
import { unknownFieldMessage } from '../../query/conditions';
import { lookupField } from '../../query/fields';
import type { FieldCatalog, RelationCatalog } from '../../query/fields';
import type { Expansion, FilterNode, SortKey } from '../../query/filter-tree';
import { bindFilter } from './bind';
import { describeToken, tokenize, type Token } from './lexer';
import { MAX_FILTER_LENGTH, parseFilter } from './parser';
import { isOneOf } from '../../lib/collections';

export interface ODataOptions {
  readonly filter?: FilterNode;
  readonly orderBy: SortKey[];
  readonly top?: number;
  readonly skip: number;
  readonly count: boolean;
  readonly select?: string[];
  readonly expand?: Expansion[];
}

export interface ODataOptionLimits {
  /** Largest $top accepted (default: the service's MAX_PAGE_SIZE). */
  readonly maxTop?: number;
  /** The caller's page size when $top is absent; only checked against maxTop here. */
  readonly defaultTop?: number;
  /** The relations $expand may name (none when absent). */
  readonly relations?: RelationCatalog;
  /** The options this request may carry (default: those of a collection). */
  readonly allowed?: readonly OptionName[];
}

/** The options of a collection request, in the order the service applies them. */
export const SUPPORTED_OPTIONS = ['$filter', '$orderby', '$top', '$skip', '$count', '$select', '$expand', '$format'] as const;
export type OptionName = (typeof SUPPORTED_OPTIONS)[number];
/** What a single record (`/payment-sources/{id}`) may be asked for. */
export const RECORD_OPTIONS: readonly OptionName[] = ['$select', '$expand', '$format'];
/** What `/<set>/$count` may be asked for. */
export const COUNT_OPTIONS: readonly OptionName[] = ['$filter', '$format'];
// OData 4.01's system query options: with or without `$`, these names are never custom options.
const SYSTEM_OPTIONS = new Set([
  ...SUPPORTED_OPTIONS.map((o) => o.slice(1)),
  'search',
  'skiptoken',
  'deltatoken',
  'apply',
  'compute',
  'index',
  'schemaversion',
  'levels',
  'id',
]);
const INTEGER = /^\d+$/;

/** The query input: a raw query string (`a=1&b=2`, without `?`) or already-split parameters. */
export type QueryInput = string | Readonly<Record<string, unknown>>;

/** Percent-escapes decoded, or undefined when one is malformed (`%zz`). */
export function decodeComponent(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * A raw query string as name/value pairs: percent-escapes decoded, `+` kept as a plus sign.
 * A malformed escape (`%zz`) is INVALID_QUERY.
 */
export function queryPairs(raw: string): [string, string][] {
  const decode = (text: string, name: string): string => {
    const decoded = decodeComponent(text);
    if (decoded === undefined) throw invalidQuery(name, 'malformed percent-encoding in the query string');
    return decoded;
  };
  return raw
    .split('&')
    .filter((part) => part.length > 0)
    .map((part) => {
      const eq = part.indexOf('=');
      const name = decode(eq < 0 ? part : part.slice(0, eq), part);
      return [name, eq < 0 ? '' : decode(part.slice(eq + 1), name)];
    });
}

/** The canonical option (`$top`) a parameter name stands for, or undefined for a custom option. */
export function optionName(name: string): string | undefined {
  const lower = name.toLowerCase();
  const bare = lower.startsWith('$') ? lower.slice(1) : lower;
  return lower.startsWith('$') || SYSTEM_OPTIONS.has(bare) ? `$${bare}` : undefined;
}

function pairsOf(query: QueryInput): [string, unknown][] {
  return typeof query === 'string' ? queryPairs(query) : Object.entries(query);
}

/** The options' raw string values, each at most once; faults on duplicates and unsupported options. */
function collect(query: QueryInput, allowed: readonly OptionName[]): Partial<Record<OptionName, string>> {
  const found: Partial<Record<OptionName, string>> = {};
  for (const [key, value] of pairsOf(query)) {
    const name = optionName(key);
    if (name === undefined || value === undefined) continue;
    if (!isOneOf(allowed, name)) {
      throw invalidQuery(key, `unsupported query option here (supported: ${allowed.join(', ')}; the $ is optional)`);
    }
    const option = name;
    // Already-split parameters may hold an array for a repeated name (and an object for `$top[x]=`).
    if (Array.isArray(value)) throw invalidQuery(key, 'given more than once');
    if (typeof value !== 'string') throw invalidQuery(key, 'must be a single text value');
    if (found[option] !== undefined) throw invalidQuery(key, `given more than once (also as ${option} in another spelling)`);
    // $filter's length is the parser's to check, before it lexes anything.
    if (option !== '$filter' && value.length > MAX_FILTER_LENGTH)
      throw invalidQuery(key, `longer than ${MAX_FILTER_LENGTH} characters`, MAX_FILTER_LENGTH);
    found[option] = value;
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
function items(option: string, text: string): Array<[Token, ...Token[]]> {
  const tokens = tokenize(text, option);
  const out: Array<[Token, ...Token[]]> = [];
  let current: Token[] = [];
  for (const t of tokens) {
    if (t.kind === 'comma' || t.kind === 'eof') {
      const [head, ...rest] = current;
      if (!head) {
        throw invalidQuery(
          option,
          t.kind === 'eof' && out.length === 0 ? 'empty value' : `expected a field name, found ${describeToken(t)}`,
          t.pos,
        );
      }
      out.push([head, ...rest]);
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
    const field = fieldName(option, first, fields);
    if (seen.has(field)) throw invalidQuery(option, `field '${field}' is listed more than once`, first.pos);
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
    const field = fieldName(option, first, fields);
    if (extra) throw invalidQuery(option, `expected ',' or the end, found ${describeToken(extra)}`, extra.pos);
    if (!selected.includes(field)) selected.push(field);
  }
  return selected;
}

/** The format a `$format` value names (`json`, `xml`, or the media type with parameters). */
export function formatOf(text: string): 'json' | 'xml' | undefined {
  const media = text.split(';')[0]?.trim().toLowerCase();
  return media === 'json' || media === 'application/json' ? 'json' : media === 'xml' || media === 'application/xml' ? 'xml' : undefined;
}

/** `$format`: JSON is the only representation of data. */
function checkFormat(text: string): void {
  if (formatOf(text) !== 'json') throw invalidQuery('$format', "only 'json' is available", 0);
}

/** One piece of `text` split at `sep` outside quotes and parentheses, with its offset. */
interface Piece {
  readonly text: string;
  readonly pos: number;
}

function splitTop(text: string, sep: string, offset: number): Piece[] {
  const out: Piece[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = text[i];
    if (c === "'") quoted = !quoted;
    else if (!quoted && c === '(') depth++;
    else if (!quoted && c === ')') depth--;
    if (i === text.length || (c === sep && depth === 0 && !quoted)) {
      out.push({ text: text.slice(start, i), pos: offset + start });
      start = i + 1;
    }
  }
  return out;
}

const EXPAND_ITEM = /^([A-Za-z_][A-Za-z0-9_]*)(?:\((.*)\))?$/s;

/**
 * `$expand=account` or `prices($select=amount;$orderby=validFrom desc;$top=3)`: known
 * relations, each once; inside the parentheses `$select` (any relation) and `$orderby` /
 * `$top` (to-many relations), with or without `$`, separated by `;`.
 */
export function parseExpand(text: string, relations: RelationCatalog, option = '$expand'): Expansion[] {
  const seen = new Set<string>();
  return splitTop(text, ',', 0).map((piece) => {
    const m = EXPAND_ITEM.exec(piece.text);
    if (!m)
      throw invalidQuery(option, `expected a relation name, optionally with options in parentheses, found '${piece.text}'`, piece.pos);
    const name = m[1] ?? '';
    const spec = Object.hasOwn(relations, name) ? relations[name] : undefined;
    const known = Object.keys(relations);
    if (!spec) {
      throw invalidQuery(
        option,
        `unknown relation '${name}' (${known.length ? `known: ${known.join(', ')}` : 'this resource has none'})`,
        piece.pos,
      );
    }
    if (seen.has(name)) throw invalidQuery(option, `relation '${name}' is listed more than once`, piece.pos);
    seen.add(name);
    const expansion: { relation: string; select?: string[]; orderBy?: SortKey[]; top?: number } = { relation: name };
    if (m[2] === undefined) return expansion;
    const nestedAllowed: readonly OptionName[] = spec.many ? ['$select', '$orderby', '$top'] : ['$select'];
    const nestedOffset = piece.pos + name.length + 1;
    const nested: Record<string, string> = {};
    for (const part of splitTop(m[2], ';', nestedOffset)) {
      const eq = part.text.indexOf('=');
      const key = eq < 0 ? part.text : part.text.slice(0, eq);
      const canonical = optionName(key);
      if (canonical === undefined || !isOneOf(nestedAllowed, canonical)) {
        throw invalidQuery(
          option,
          `'${key}' is not available inside the expansion of '${name}' (available: ${nestedAllowed.join(', ')})`,
          part.pos,
        );
      }
      if (nested[canonical] !== undefined) throw invalidQuery(option, `${canonical} is given more than once for '${name}'`, part.pos);
      nested[canonical] = eq < 0 ? '' : part.text.slice(eq + 1);
    }
    const inner = `${option}(${name})`;
    if (nested.$select !== undefined) expansion.select = parseSelect(nested.$select, spec.fields, `${inner}/$select`);
    if (nested.$orderby !== undefined) expansion.orderBy = parseOrderBy(nested.$orderby, spec.fields, `${inner}/$orderby`);
    if (nested.$top !== undefined) expansion.top = integer(`${inner}/$top`, nested.$top, 0, MAX_PAGE_SIZE);
    return expansion;
  });
}

/**
 * The OData options of a request. `query` is the raw query string (or split parameters);
 * custom parameters (names that are no OData option) are ignored. Throws INVALID_QUERY on
 * any fault.
 */
export function parseODataOptions(query: QueryInput, fields: FieldCatalog, opts: ODataOptionLimits = {}): ODataOptions {
  const maxTop = opts.maxTop ?? MAX_PAGE_SIZE;
  if (opts.defaultTop !== undefined && (opts.defaultTop < 0 || opts.defaultTop > maxTop)) {
    throw new Error(`parseODataOptions: defaultTop ${opts.defaultTop} is outside 0..${maxTop}`);
  }
  const raw = collect(query, opts.allowed ?? SUPPORTED_OPTIONS);
  const result: {
    filter?: FilterNode;
    orderBy: SortKey[];
    top?: number;
    skip: number;
    count: boolean;
    select?: string[];
    expand?: Expansion[];
  } = { orderBy: [], skip: 0, count: false };
  if (raw.$filter !== undefined) result.filter = bindFilter(parseFilter(raw.$filter, '$filter'), fields, '$filter');
  if (raw.$orderby !== undefined) result.orderBy = parseOrderBy(raw.$orderby, fields);
  if (raw.$top !== undefined) result.top = integer('$top', raw.$top, 0, maxTop);
  if (raw.$skip !== undefined) result.skip = integer('$skip', raw.$skip, 0, MAX_OFFSET);
  if (raw.$count !== undefined) result.count = boolean('$count', raw.$count);
  if (raw.$select !== undefined) result.select = parseSelect(raw.$select, fields);
  if (raw.$expand !== undefined) result.expand = parseExpand(raw.$expand, opts.relations ?? {});
  if (raw.$format !== undefined) checkFormat(raw.$format);
  return result;
}
