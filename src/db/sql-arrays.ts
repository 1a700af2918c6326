// Column arrays as statement parameters. Each array travels as ONE text parameter in
// PostgreSQL's array syntax ('{"a","b",NULL}') and is cast in SQL ($1::text::uuid[]).
// It is still a parameter, never SQL text. Why not a JavaScript array: Prisma serialises
// every element of an array parameter separately (slow, and it keeps the last requests'
// arguments for its debug log), and the PGlite adapter cannot send arrays of enum types.

/** `$n::text::type[]`: the SQL of an array parameter. `type` comes from our own column lists. */
export const arrayParam = (n: number, type: string): string => `$${n}::text::${type}[]`;

/** An element needs double quotes when empty, NULL-like, or holding syntax or white space. */
const NEEDS_QUOTES = /^$|^null$|["\\{},\s]/i;
const ESCAPE = /["\\]/g;

/**
 * The PostgreSQL array literal of the values, NULL for null. Only elements that need it
 * are quoted: ids, numbers and timestamps travel bare, which keeps the parameter small
 * (Prisma escapes every quote again when it serialises the request).
 */
export function arrayLiteral(values: readonly (string | boolean | null | undefined)[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) out += ',';
    if (v === null || v === undefined) out += 'NULL';
    else if (typeof v === 'boolean') out += v ? 't' : 'f';
    else out += NEEDS_QUOTES.test(v) ? `"${v.replace(ESCAPE, '\\$&')}"` : v;
  }
  return `${out}}`;
}
