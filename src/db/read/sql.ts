// The SQL helpers of the read path, in one module: a statement builder that numbers its
// parameters, identifiers (only names from code: the resource declarations and field
// catalogues, never input), LIKE escaping and the index range of a text prefix.

/** One parameterised statement: `$1`, `$2`... in `text` are `values[0]`, `values[1]`... */
export interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
}

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;

/** A table or column name as a quoted SQL identifier. */
export function ident(name: string): string {
  // Names come from code (declarations, catalogues); anything else is a programming error.
  if (!IDENTIFIER.test(name)) throw new Error(`not an SQL identifier: ${name}`);
  return `"${name}"`;
}

/** `alias."column"`. */
export const column = (alias: string, name: string): string => `${alias}.${ident(name)}`;

// Private-use characters: never in the text built here (identifiers are checked, values are parameters).
const MARK = /\uE000(\d+)\uE001/g;

/**
 * Builds a statement's text while collecting its values as parameters. A placeholder is a
 * mark until the text is final: a condition that folds away (`true or x`) takes its values
 * with it, and the parameters are numbered in the order the finished text uses them.
 */
export class SqlBuilder {
  private readonly values: unknown[] = [];

  /** The placeholder of a new parameter holding `value`. */
  param(value: unknown): string {
    this.values.push(value);
    return `\uE000${this.values.length - 1}\uE001`;
  }

  statement(text: string): Statement {
    const used: unknown[] = [];
    const sql = text.replace(MARK, (_m, i: string) => {
      used.push(this.values[Number(i)]);
      return `$${used.length}`;
    });
    return { text: sql, values: used };
  }
}

/** `%`, `_` and `\` taken literally in a LIKE pattern (PostgreSQL's default escape is `\`). */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, '\\$&');

/** The LIKE pattern of a text condition on literal `value`. */
export function likePattern(op: 'contains' | 'startswith' | 'endswith', value: string): string {
  const v = escapeLike(value);
  return op === 'startswith' ? `${v}%` : op === 'endswith' ? `%${v}` : `%${v}%`;
}

const MAX_CODE_POINT = 0x10ffff;

/**
 * The texts starting with `prefix` as a range [from, to) in code point order, which is the
 * order of every text column (collation billing_c, prisma/migrations/*_text_code_point_order):
 * `lastName >= 'M' AND lastName < 'N'`. PostgreSQL turns a LIKE prefix into such a range only
 * when it plans for the actual pattern, and still tests LIKE on every row of it (a count of
 * 12,500 customers under 'M' spent most of its time there); the range alone is the same set.
 * `to` is undefined when no text is above the range.
 */
export function prefixRange(prefix: string): { from: string; to: string | undefined } {
  const points = [...prefix];
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    // Surrogate code points cannot be stored; skip over them.
    let next = last + 1;
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
    if (next <= MAX_CODE_POINT) return { from: prefix, to: points.join('') + String.fromCodePoint(next) };
  }
  return { from: prefix, to: undefined };
}
