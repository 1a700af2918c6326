import { stringify as losslessStringify } from 'lossless-json';
import { DecimalText, isDecimal } from '../query/values';

// The one JSON writer of both doors, for exact decimals. Money and rates leave the service
// as JSON numbers written from their decimal text ("1234.5000" → 1234.5), never through a
// JavaScript float. JSON.stringify can emit raw number text only through JSON.rawJSON
// (Node 22 and later); where the runtime lacks it, lossless-json writes the document.

const rawJSON = (JSON as { rawJSON?: (text: string) => unknown }).rawJSON;

/**
 * False where the runtime lacks JSON.rawJSON (Node before 22): every response is then written
 * by lossless-json, exact but slower (measured on Node 20 under load: a fifth of the service's
 * CPU on a page of 100 customers). Start-up says so.
 */
export const NATIVE_EXACT_JSON = rawJSON !== undefined;

const withRawJson = (value: unknown): string =>
  // The replacer sees the value before toJSON() has turned a decimal into a string.
  JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    return exactDecimal(this[key]) ?? v;
  });

// One test of what a decimal is for both writers (isDecimal: Prisma's, decimal.js's, DecimalText).
// toFixed() without digits is the exact value in plain notation (no exponent).
const NUMBER_STRINGIFIERS = [{ test: isDecimal, stringify: (v: unknown) => (isDecimal(v) ? v.toFixed() : String(v)) }];

const withLosslessJson = (value: unknown): string => losslessStringify(value, undefined, undefined, NUMBER_STRINGIFIERS) ?? 'null';

/** JSON text of a response body (REST), decimals (Prisma's, decimal.js's) as exact numbers. */
export const stringifyJson: (value: unknown) => string = rawJSON ? withRawJson : withLosslessJson;

/** A JSON number of exactly this text, on its way out (GraphQL's Decimal scalar). */
export type ExactNumber = DecimalText | { readonly rawJSON: string };

/** A decimal's exact text as a value that stringifyExact writes as a JSON number. */
export const exactNumber: (text: string) => ExactNumber = rawJSON
  ? (text) => rawJSON(text) as { readonly rawJSON: string }
  : (text) => new DecimalText(text);

// The read path hands out one Decimal per distinct text it has read lately (src/db/read/row.ts),
// so a page read again writes the same objects again: their numbers are remembered with them.
const exactNumbers = new WeakMap<object, ExactNumber>();

/** A decimal's exact number (exactNumber of its text), or undefined when the value is no decimal (isDecimal). */
export function exactDecimal(value: unknown): ExactNumber | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  let exact = exactNumbers.get(value);
  if (exact === undefined && isDecimal(value)) exactNumbers.set(value, (exact = exactNumber(value.toFixed())));
  return exact;
}

/**
 * JSON text of a value whose decimals are all exactNumber values (a GraphQL result: every
 * decimal has passed the Decimal scalar). With JSON.rawJSON that is JSON.stringify itself,
 * on its fast path: a replacer function (stringifyJson) costs a call per value.
 */
export const stringifyExact: (value: unknown) => string = rawJSON ? (value) => JSON.stringify(value) : withLosslessJson;
