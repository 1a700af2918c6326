// The rules for which literal fits which field type, shared by both doors: the OData
// binder (src/rest/odata/bind.ts) and the GraphQL `where` translation
// (src/graphql/where.ts) and the keyset cursor decoder (src/query/cursor.ts). Keeping
// them in one place is what makes "a value is valid in one door exactly when it is valid in
// the other" true by construction.
//
// Functions here never throw: they return a message, and the caller turns it into an
// INVALID_QUERY with its own option name and position (a character offset for OData, a path
// for GraphQL).

import type { EnumFieldSpec, FieldSpec } from './fields';
import type { FilterValue } from './filter-tree';

/** A literal as it arrived, before it is bound to a field's type. */
export type RawValue =
  | { readonly type: 'string'; readonly value: string }
  /** An OData number literal or a GraphQL Decimal: exact decimal text, never a float. */
  | { readonly type: 'number'; readonly text: string }
  | { readonly type: 'boolean'; readonly value: boolean }
  /** An unquoted OData GUID literal. */
  | { readonly type: 'guid'; readonly text: string }
  /** `2026-01-01`: midnight UTC of that day when compared with a date-time field. */
  | { readonly type: 'date'; readonly text: string }
  /** `2026-01-01T00:00:00Z` and friends. */
  | { readonly type: 'datetime'; readonly text: string }
  /** A GraphQL DateTime, already parsed by its scalar. */
  | { readonly type: 'instant'; readonly value: Date };

export type Bound = { readonly ok: true; readonly value: FilterValue } | { readonly ok: false; readonly message: string };

const ok = (value: FilterValue): Bound => ({ ok: true, value });
const fail = (message: string): Bound => ({ ok: false, message });

/** A UUID (GUID) in its textual form, any letter case: the one pattern of the service. */
export const GUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const isUuid = (text: string): boolean => GUID_PATTERN.test(text);
/** Plain decimal notation only: an exponent would hide how many digits the value has. */
export const DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/;

/** Anything with an exact decimal text: Prisma's Decimal, decimal.js Decimals, DecimalText. */
export interface DecimalValue {
  /** The exact value in plain notation, without trailing zeros (as decimal.js writes it). */
  toFixed(): string;
}

/**
 * Whether a value is such a decimal. By shape, not by class: Prisma's runtime bundles its own
 * copy of decimal.js, so its Decimals are not instances of the one this project imports.
 * The text must be plain decimal notation, so a toFixed of some other kind never passes.
 */
export function isDecimal(value: unknown): value is DecimalValue {
  if (typeof value !== 'object' || value === null || !('toFixed' in value)) return false;
  const toFixed: unknown = value.toFixed;
  if (typeof toFixed !== 'function') return false;
  const text: unknown = Reflect.apply(toFixed, value, []);
  return typeof text === 'string' && DECIMAL_PATTERN.test(text);
}

/**
 * A decimal's exact text passed on unchanged: a JSON number on its way out where the runtime
 * has no JSON.rawJSON (src/http/json.ts). Not for arithmetic.
 */
export class DecimalText implements DecimalValue {
  constructor(private readonly text: string) {}
  toFixed(): string {
    return this.text;
  }
}
/**
 * What a decimal written as text may look like, in a JSON body or a GraphQL variable: digits
 * with an optional point and sign. Never hex (`0x10`), binary (`0b101`), octal, an exponent,
 * `Infinity` or `NaN`, which a number parser would read as some other value.
 */
const PLAIN_DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * A decimal given as text → its plain form (`+.5` → `0.5`, `12.` → `12`, scale kept:
 * `19.00` stays `19.00`), or undefined when the text is not plain decimal notation.
 */
export function plainDecimal(text: string): string | undefined {
  if (!PLAIN_DECIMAL_TEXT.test(text)) return undefined;
  const neg = text.startsWith('-');
  let body = /^[+-]/.test(text) ? text.slice(1) : text;
  if (body.startsWith('.')) body = `0${body}`;
  if (body.endsWith('.')) body = body.slice(0, -1);
  return neg ? `-${body}` : body;
}

/**
 * Why a string cannot be stored or compared, or undefined when it can: PostgreSQL text
 * refuses NUL (SQLSTATE 22021), and a lone UTF-16 surrogate (which JSON's `\ud800` escape
 * can produce) is no character at all. The one check every string from a client passes:
 * body fields (src/domain/common/schemas.ts), OData literals and GraphQL where values
 * (bindValue below).
 */
export function textProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  // With the u flag a well-formed pair is one code point, so only lone halves match.
  if (/\p{Cs}/u.test(value)) return 'must not contain a lone UTF-16 surrogate (not valid Unicode)';
  return undefined;
}
export const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
// OData's dateTimeOffsetValue: seconds optional, fractional seconds 1-12 digits, and a
// zone that is required (Z or ±hh:mm) so that an instant never depends on the server's zone.
export const DATETIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,12}))?)?(Z|[+-]\d{2}:\d{2})$/i;

const daysInMonth = (year: number, month: number): number => {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
};

/** Whether year-month-day names a real calendar day (no 30 February). */
export const validDay = (year: number, month: number, day: number): boolean =>
  month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);

// The instants the database can hold and the service can write back: years 1 to 9999 in
// UTC. PostgreSQL refuses year 0 and ISO 8601 text has no room for year 10000, so an
// offset that moves an instant across either edge (`9999-12-31T23:00-14:00`) is refused too.
const FIRST_INSTANT = new Date(0).setUTCFullYear(1, 0, 1);
const LAST_INSTANT = new Date(0).setUTCFullYear(9999, 11, 31) + 86_400_000 - 1;

/** Why an instant cannot be stored, or undefined when it can. */
export function instantProblem(d: Date): string | undefined {
  const ms = d.getTime();
  if (Number.isNaN(ms)) return 'is not a valid date';
  if (ms < FIRST_INSTANT || ms > LAST_INSTANT) return 'is outside the years 0001 to 9999 (UTC) that can be stored';
  return undefined;
}

const inRange = (text: string, d: Date): Date | string => {
  const problem = instantProblem(d);
  return problem ? `'${text}' ${problem}` : d;
};

/** `2026-01-01` → midnight UTC of that day, or a message when it is not a calendar date. */
export function parseDate(text: string): Date | string {
  const m = DATE_PATTERN.exec(text);
  if (!m) return `'${text}' is not a date (yyyy-mm-dd)`;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!validDay(year, month, day)) return `'${text}' is not a calendar date (not a valid date)`;
  const d = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0-99 to 1900-1999.
  d.setUTCFullYear(year, month - 1, day);
  return inRange(text, d);
}

/**
 * An ISO 8601 date-time with zone → the instant, or a message. Fractional seconds finer than
 * a millisecond are accepted only when the extra digits are zeros: the database keeps
 * milliseconds, and silently cutting `.0005` would turn `gt` into `ge` for some records.
 */
export function parseDateTime(text: string): Date | string {
  const m = DATETIME_PATTERN.exec(text);
  if (!m) return `'${text}' is not a date-time (yyyy-mm-ddThh:mm[:ss[.fff]] followed by Z or ±hh:mm)`;
  const [year, month, day, hour, minute] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const fraction = m[7] ?? '';
  const zone = (m[8] ?? 'Z').toUpperCase();
  if (!validDay(year, month, day)) return `'${text}' is not a calendar date (not a valid date)`;
  // Second 60 is a leap second (OData's ABNF allows it); it is the first instant of the next minute.
  if (hour > 23 || minute > 59 || second > 60) return `'${text}' is not a valid time of day`;
  if (/[1-9]/.test(fraction.slice(3))) return `'${text}' is more precise than milliseconds`;
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const [oh, om] = [Number(zone.slice(1, 3)), Number(zone.slice(4, 6))];
    if (oh > 23 || om > 59) return `'${text}' has an invalid zone offset`;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  const ms = Number(fraction.slice(0, 3).padEnd(3, '0'));
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute - offsetMinutes, second, ms);
  return inRange(text, d);
}

/**
 * The one instant parser of client input (JSON bodies, GraphQL DateTime, OData literals
 * through parseDate/parseDateTime): a plain date (midnight UTC) or a date-time with a zone.
 */
export function parseInstant(text: string): Date | string {
  return DATE_PATTERN.test(text) ? parseDate(text) : parseDateTime(text);
}

/** Lowercase canonical form of a GUID, or undefined when the text is not one. */
export const canonicalGuid = (text: string): string | undefined => (isUuid(text) ? text.toLowerCase() : undefined);

const mismatchOf = (fieldName: string, raw: RawValue, expected: string): Bound =>
  fail(`field '${fieldName}' is ${expected}; ${describe(raw)} does not fit`);

const describe = (raw: RawValue): string => {
  switch (raw.type) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'guid':
      return 'a GUID';
    case 'date':
      return 'a date';
    case 'datetime':
    case 'instant':
      return 'a date-time';
  }
};

/**
 * Bind a (non-null) literal to a field: the FilterValue when it fits the field's type,
 * otherwise a message naming the field and what it expects.
 */
export function bindValue(fieldName: string, spec: FieldSpec, raw: RawValue): Bound {
  switch (spec.type) {
    case 'string': {
      if (raw.type !== 'string') return mismatchOf(fieldName, raw, 'a string');
      const problem = textProblem(raw.value);
      return problem ? fail(`a value for field '${fieldName}' ${problem}`) : ok({ type: 'string', value: raw.value });
    }
    case 'uuid': {
      // An unquoted GUID is OData's own literal; a quoted one is what most clients send.
      const text = raw.type === 'guid' || raw.type === 'string' ? (raw.type === 'guid' ? raw.text : raw.value) : undefined;
      if (text === undefined) return mismatchOf(fieldName, raw, 'a GUID');
      const guid = canonicalGuid(text);
      return guid ? ok({ type: 'uuid', value: guid }) : fail(`field '${fieldName}' is a GUID; '${text}' is not one`);
    }
    case 'boolean':
      return raw.type === 'boolean' ? ok({ type: 'boolean', value: raw.value }) : mismatchOf(fieldName, raw, 'a boolean');
    case 'decimal':
      if (raw.type !== 'number') return mismatchOf(fieldName, raw, 'a number');
      return DECIMAL_PATTERN.test(raw.text)
        ? ok({ type: 'decimal', value: raw.text })
        : fail(`field '${fieldName}' is a number; '${raw.text}' is not a plain decimal number`);
    case 'datetime': {
      if (raw.type === 'instant') {
        const problem = instantProblem(raw.value);
        return problem ? fail(`field '${fieldName}' is a date-time; the value ${problem}`) : ok({ type: 'datetime', value: raw.value });
      }
      if (raw.type !== 'date' && raw.type !== 'datetime') return mismatchOf(fieldName, raw, 'a date-time (a date means midnight UTC)');
      const parsed = raw.type === 'date' ? parseDate(raw.text) : parseDateTime(raw.text);
      return typeof parsed === 'string' ? fail(parsed) : ok({ type: 'datetime', value: parsed });
    }
    case 'enum': {
      const allowed = spec.values;
      if (raw.type !== 'string') return mismatchOf(fieldName, raw, `one of ${listValues(allowed)}`);
      return allowed.includes(raw.value)
        ? ok({ type: 'enum', value: raw.value })
        : fail(`'${raw.value}' is not a value of field '${fieldName}'; allowed: ${listValues(allowed)}`);
    }
  }
}

const listValues = (values: readonly string[]): string => values.map((v) => `'${v}'`).join(', ');

/**
 * The order enum values sort in: by their string value (docs/service.md: "enum fields sort by
 * their string value"), compared by code point as the `C` collation does. Keyset cursors
 * and `gt`/`lt` on enum fields are computed from this order.
 */
export const enumSortOrder = (spec: EnumFieldSpec): readonly string[] => [...spec.values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** Which text case a literal must already be in for tolower()/toupper() to be able to match it. */
export const isInCase = (value: string, fn: 'tolower' | 'toupper'): boolean =>
  fn === 'tolower' ? value.toLowerCase() === value : value.toUpperCase() === value;
