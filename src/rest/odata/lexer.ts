// The OData lexer: turns the text of a $filter (or $orderby / $select) into tokens that
// each carry their 0-based start and end offset, so that every later fault can be reported
// "at position N" (docs/service.md "OData subset").
//
// Only the subset of OData's ABNF the service supports is recognised. Literal values are
// kept as their exact source text (numbers are never turned into floats, dates never into
// Date objects here); the binder decides what they mean for the field they meet.

import { invalidQuery } from '../../errors/catalogue';
import { COMPARISON_OPERATORS } from '../../query/filter-tree';
import { GUID_PATTERN, parseDate, parseDateTime } from '../../query/values';
import { isOneOf } from '../../lib/collections';

/** Operators and literal words. OData 4.01 lets clients write them in any case (`EQ`, `Null`). */
export const KEYWORDS = [...COMPARISON_OPERATORS, 'and', 'or', 'not', 'in', 'true', 'false', 'null'] as const;
export type Keyword = (typeof KEYWORDS)[number];

interface Span {
  /** Offset of the first character. */
  readonly pos: number;
  /** Offset just past the last character. */
  readonly end: number;
}

export type Token =
  | (Span & { readonly kind: 'identifier'; readonly text: string })
  | (Span & { readonly kind: 'keyword'; readonly keyword: Keyword; readonly text: string })
  /** `value` is the unescaped text: `'it''s'` → `it's`. */
  | (Span & { readonly kind: 'string'; readonly value: string; readonly text: string })
  | (Span & { readonly kind: 'number' | 'guid' | 'date' | 'datetime'; readonly text: string })
  | (Span & { readonly kind: 'lparen' | 'rparen' | 'comma' | 'eof'; readonly text: string });

// Sticky patterns: each is tried exactly at the current offset.
const GUID = new RegExp(GUID_PATTERN.source.slice(1, -1), 'y');
// Deliberately broad after the date part: the exact shape is checked afterwards so that
// `2026-01-01T25:00Z` is reported as a bad date-time rather than as a stray character.
// OData's year is `[-] 4DIGIT` with more digits allowed when the first is not 0 (`-10000`).
const DATE_LIKE = /-?(?:0\d{3}|[1-9]\d{3,})-\d{2}-\d{2}([Tt][0-9A-Za-z:.+-]*)?/y;
// OData's decimalValue / doubleValue: optional sign, digits, optional fraction and exponent.
const NUMBER = /[+-]?\d+(\.\d+)?([eE][+-]?\d+)?/y;
/** The special values of decimalValue / doubleValue; case-sensitive in the ABNF. */
const SPECIAL_NUMBER = /-?INF|NaN/y;
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/y;

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;
/** Characters that may not directly follow a literal: `12abc`, `1.2.3`, `2026-01-01x`. */
const GLUED = /[A-Za-z0-9_.\-:]/;

function matchAt(re: RegExp, text: string, pos: number): string | undefined {
  re.lastIndex = pos;
  const m = re.exec(text);
  return m ? m[0] : undefined;
}

/**
 * Split `source` into tokens, ending with one `eof` token at `source.length`.
 * `option` names the query option in error details (`$filter`, `$orderby`, ...).
 */
export function tokenize(source: string, option = '$filter'): Token[] {
  const tokens: Token[] = [];
  const fault = (message: string, pos: number): never => {
    throw invalidQuery(option, message, pos);
  };
  const gluedCheck = (pos: number, end: number, what: string): void => {
    const next = source[end];
    if (next !== undefined && GLUED.test(next)) fault(`malformed ${what} '${source.slice(pos, end + 1)}…'`, pos);
  };

  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    const pos = i;
    if (c === 40 /* ( */ || c === 41 /* ) */ || c === 44 /* , */) {
      tokens.push({ kind: c === 40 ? 'lparen' : c === 41 ? 'rparen' : 'comma', text: source[i] ?? '', pos, end: i + 1 });
      i++;
      continue;
    }
    if (c === 39 /* ' */) {
      // A quote inside a string is written twice; anything else, % _ \ included, is literal.
      let value = '';
      let j = i + 1;
      for (;;) {
        const q = source.indexOf("'", j);
        if (q < 0) fault('unterminated string literal', pos);
        value += source.slice(j, q);
        if (source.charCodeAt(q + 1) === 39) {
          value += "'";
          j = q + 2;
          continue;
        }
        j = q + 1;
        break;
      }
      tokens.push({ kind: 'string', value, text: source.slice(pos, j), pos, end: j });
      i = j;
      continue;
    }
    // A GUID may start with a digit or a letter, so it is tried before numbers and names.
    const guid = matchAt(GUID, source, i);
    if (guid !== undefined && !GLUED.test(source[i + guid.length] ?? ' ')) {
      tokens.push({ kind: 'guid', text: guid, pos, end: i + guid.length });
      i += guid.length;
      continue;
    }
    const signed = (c === 45 /* - */ || c === 43) /* + */ && isDigit(source.charCodeAt(i + 1));
    if (isDigit(c) || (c === 45 && signed)) {
      const dateLike = matchAt(DATE_LIKE, source, i);
      if (dateLike !== undefined) {
        const end = i + dateLike.length;
        gluedCheck(pos, end, 'date');
        const isDateTime = /[Tt]/.test(dateLike); // ABNF literals are case-insensitive: 't' too
        const message = checkDateShape(dateLike, isDateTime);
        if (message !== undefined) fault(message, pos);
        tokens.push({ kind: isDateTime ? 'datetime' : 'date', text: dateLike, pos, end });
        i = end;
        continue;
      }
    }
    const special = matchAt(SPECIAL_NUMBER, source, i);
    if (special !== undefined && !/[A-Za-z0-9_]/.test(source[i + special.length] ?? ' ')) {
      tokens.push({ kind: 'number', text: special, pos, end: i + special.length });
      i += special.length;
      continue;
    }
    if (isDigit(c) || signed) {
      const num = matchAt(NUMBER, source, i) ?? '';
      const end = i + num.length;
      gluedCheck(pos, end, 'number');
      tokens.push({ kind: 'number', text: num, pos, end });
      i = end;
      continue;
    }
    const name = matchAt(IDENTIFIER, source, i);
    if (name !== undefined) {
      const end = i + name.length;
      // Keywords are case-insensitive; field names are not, so the text is kept as written.
      const lower = name.toLowerCase();
      if (isOneOf(KEYWORDS, lower)) tokens.push({ kind: 'keyword', keyword: lower, text: name, pos, end });
      else tokens.push({ kind: 'identifier', text: name, pos, end });
      i = end;
      continue;
    }
    const ch = String.fromCodePoint(source.codePointAt(i) ?? c);
    fault(`unexpected character '${ch}'`, pos);
  }
  tokens.push({ kind: 'eof', text: '', pos: n, end: n });
  return tokens;
}

/**
 * Undefined when `text` is a calendar date (or date-time) as OData writes them, else why not.
 * Years outside 0001-9999 (year 0, negative, five digits) are valid OData; their month, day
 * and time are checked on a stand-in year with the same leap rule, and the binder decides
 * what comparing with an instant no record can hold means.
 */
export function checkDateShape(text: string, isDateTime: boolean): string | undefined {
  const m = /^(-?\d+)(-.*)$/.exec(text);
  const year = Number(m?.[1] ?? 'x');
  const standIn = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? '2000' : '2001';
  const ordinary = year >= 1 && year <= 9999 && !text.startsWith('-');
  const probe = ordinary ? text : `${standIn}${m?.[2] ?? ''}`;
  const parsed = isDateTime ? parseDateTime(probe) : parseDate(probe);
  return typeof parsed === 'string' ? parsed.replace(probe, text) : undefined;
}

/** How a token is named in an error message. */
export const describeToken = (t: Token): string => (t.kind === 'eof' ? 'the end of the expression' : `'${t.text}'`);
