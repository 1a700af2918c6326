// The custom scalars of schema.graphql. Input faults are GraphQL errors with
// extensions.code VALIDATION_FAILED (src/graphql/errors.ts keeps that code when Apollo
// reports them as validation or variable errors). Output is kept trivial: these run once
// per value of every row returned.

import Decimal from 'decimal.js';
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { exactDecimal, exactNumber, type ExactNumber } from '../http/json';
import { GUID_PATTERN, parseInstant as parseInstantText, plainDecimal } from '../query/values';
import { memoized } from '../lib/memo';

/**
 * A scalar input that does not parse: VALIDATION_FAILED (src/graphql/errors.ts). A plain
 * Error, not a GraphQLError, so that graphql-js wraps it in an error that says which
 * value (`Expected value of type "UUID!", found "x"; ...`) and where it is in the query.
 */
export class ScalarInputError extends Error {
  readonly code = 'VALIDATION_FAILED';
  constructor(message: string) {
    super(message);
    this.name = 'ScalarInputError';
  }
}

const describe = (value: unknown): string =>
  typeof value === 'string' ? `'${value.length > 60 ? `${value.slice(0, 60)}...` : value}'` : value === null ? 'null' : typeof value;

// ---------------------------------------------------------------------------------------
// UUID

function parseUuid(value: unknown): string {
  if (typeof value !== 'string' || !GUID_PATTERN.test(value)) throw new ScalarInputError(`must be a UUID; got ${describe(value)}`);
  return value.toLowerCase();
}

export const UUIDScalar = new GraphQLScalarType<string, string>({
  name: 'UUID',
  description: 'A UUID in its textual form; accepted in any letter case, always returned in lower case.',
  // Ids come from the database, already lower-case text.
  serialize: (value) => {
    if (typeof value !== 'string') throw new GraphQLError(`UUID cannot represent ${describe(value)}`);
    return value;
  },
  parseValue: parseUuid,
  parseLiteral: (ast: ValueNode) => parseUuid(ast.kind === Kind.STRING ? ast.value : notAString(ast)),
});

// ---------------------------------------------------------------------------------------
// DateTime

function parseInstant(value: unknown): Date {
  if (typeof value !== 'string') throw new ScalarInputError(`must be an ISO 8601 date-time string; got ${describe(value)}`);
  const parsed = parseInstantText(value);
  if (typeof parsed === 'string')
    throw new ScalarInputError(`must be an ISO 8601 date-time with a time zone, e.g. 2026-01-01T00:00:00Z: ${parsed}`);
  return parsed;
}

// Billing data repeats its instants (prices and terms start on a few dates; a page of 50
// articles with their prices has a handful), and toISOString costs about as much as the rest
// of a value's way out: the last ones written are remembered.
const isoText = memoized((time: number) => new Date(time).toISOString(), 1024);

export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  description: 'An ISO 8601 date-time with a time zone (a plain date means midnight UTC); returned in UTC with milliseconds.',
  serialize: (value) => {
    if (value instanceof Date) {
      const time = value.getTime();
      if (!Number.isNaN(time)) return isoText(time);
    }
    throw new GraphQLError(`DateTime cannot represent ${describe(value)}`);
  },
  parseValue: parseInstant,
  parseLiteral: (ast: ValueNode) => parseInstant(ast.kind === Kind.STRING ? ast.value : notAString(ast)),
});

// ---------------------------------------------------------------------------------------
// Decimal

/** Plain decimal notation, as written, with an optional sign. */
const PLAIN_DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
/** JSON / GraphQL number text, exponent included. */
const NUMBER_TEXT = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
/** No decimal needs more digits than this; refusing longer text keeps `1e999999` from expanding. */
const MAX_DIGITS = 60;

/** Exact decimal text in plain notation (`19.00` stays `19.00`, `1e2` becomes `100`). */
function decimalText(text: string): string {
  const t = text.trim();
  if (!PLAIN_DECIMAL.test(t) && !NUMBER_TEXT.test(t)) throw new ScalarInputError(`must be a decimal number; got ${describe(text)}`);
  if (PLAIN_DECIMAL.test(t) && t.length <= MAX_DIGITS + 2) {
    // Keep what the client wrote (scale included); only normalise the sign and bare points.
    const unsigned = t.replace(/^\+/, '');
    const neg = unsigned.startsWith('-');
    let body = neg ? unsigned.slice(1) : unsigned;
    if (body.startsWith('.')) body = `0${body}`;
    if (body.endsWith('.')) body = body.slice(0, -1);
    return neg ? `-${body}` : body;
  }
  const d = new Decimal(t);
  const exponent = d.e;
  if (!d.isFinite() || Math.abs(exponent) > MAX_DIGITS || d.sd() > MAX_DIGITS)
    throw new ScalarInputError(`is not a decimal number this service can hold: ${describe(text)}`);
  return d.toFixed();
}

/** A decimal given as a string: plain decimal notation only (src/query/values.ts). */
function decimalString(text: string): string {
  const plain = plainDecimal(text);
  if (plain === undefined) throw new ScalarInputError(`must be a decimal number in plain notation (12.50); got ${describe(text)}`);
  return decimalText(plain);
}

function parseDecimal(value: unknown): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ScalarInputError('must be a finite number');
    // The shortest text that reads back as this double: the text the client wrote for
    // every value with at most 15 significant digits.
    return decimalText(String(value));
  }
  if (typeof value === 'string') return decimalString(value);
  throw new ScalarInputError(`must be a number or a numeric string; got ${describe(value)}`);
}

export const DecimalScalar = new GraphQLScalarType<string, ExactNumber>({
  name: 'Decimal',
  description: 'An exact decimal number: a JSON number written from its exact decimal value; input also as a numeric string.',
  // exactNumber: src/http/json.ts writes it as a JSON number with exactly this text.
  serialize: (value) => {
    const exact = exactDecimal(value);
    if (exact !== undefined) return exact;
    if (typeof value === 'string' || typeof value === 'number') return exactNumber(parseDecimal(value));
    throw new GraphQLError(`Decimal cannot represent ${describe(value)}`);
  },
  parseValue: parseDecimal,
  parseLiteral: (ast: ValueNode) => {
    if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return decimalText(ast.value);
    if (ast.kind === Kind.STRING) return decimalString(ast.value);
    return notAString(ast, 'a number or a numeric string');
  },
});

/** A literal of the wrong kind (variables are left to parseValue). */
function notAString(ast: ValueNode, expected = 'a string'): never {
  switch (ast.kind) {
    case Kind.INT:
    case Kind.FLOAT:
    case Kind.ENUM:
      throw new ScalarInputError(`must be ${expected}; got ${ast.value}`);
    case Kind.BOOLEAN:
      throw new ScalarInputError(`must be ${expected}; got ${String(ast.value)}`);
    case Kind.NULL:
      throw new ScalarInputError('must not be null');
    default:
      throw new ScalarInputError(`must be ${expected}; got ${ast.kind === Kind.LIST ? 'a list' : 'an object'}`);
  }
}

// ---------------------------------------------------------------------------------------
// FieldValue: a change-log value as the API writes its field (decimals arrive as exact text objects).

export const FieldValueScalar = new GraphQLScalarType<never, string | boolean | null | ExactNumber>({
  name: 'FieldValue',
  description: "A field's value in a change-log entry, as the API writes that field. Output only.",
  serialize: (value) => {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    const exact = exactDecimal(value);
    if (exact !== undefined) return exact;
    throw new GraphQLError(`FieldValue cannot represent ${describe(value)}`);
  },
  parseValue: () => {
    throw new ScalarInputError('FieldValue is output only');
  },
  parseLiteral: () => {
    throw new ScalarInputError('FieldValue is output only');
  },
});

export const scalarResolvers = { UUID: UUIDScalar, DateTime: DateTimeScalar, Decimal: DecimalScalar, FieldValue: FieldValueScalar };
