// Prints a $filter syntax tree back as canonical OData text: keywords and function names in
// lowercase, single spaces, and parentheses only where precedence needs them. Parsing the
// printed text gives the same tree again (up to positions), which the tests rely on to check
// precedence ("a or b and c" prints as it parses, "(a or b) and c" keeps its parentheses).
// It is also handy for logging a filter in one normalised spelling.

import type { Expr, Literal } from './ast';

// Binding strength of each node kind; a child that binds more loosely than its context
// needs parentheses.
// `in` binds tighter than `not` (OData 4.01), so it sits between `not` and the primaries.
const PRECEDENCE = { or: 1, and: 2, compare: 3, not: 4, in: 4.5, call: 5, field: 5, literal: 5 } as const;

export function printLiteral(literal: Literal): string {
  switch (literal.type) {
    case 'string':
      return `'${literal.value.replaceAll("'", "''")}'`;
    case 'boolean':
      return literal.value ? 'true' : 'false';
    case 'null':
      return 'null';
    case 'number':
    case 'guid':
    case 'date':
    case 'datetime':
      return literal.text;
  }
}

/** `expr` printed so that it still parses as one operand where at least `min` binding is needed. */
function printAt(expr: Expr, min: number): string {
  const text = printFilter(expr);
  return PRECEDENCE[expr.kind] < min ? `(${text})` : text;
}

export function printFilter(expr: Expr): string {
  switch (expr.kind) {
    case 'literal':
      return printLiteral(expr.literal);
    case 'field':
      return expr.name;
    case 'call':
      return `${expr.name}(${expr.args.map((a) => printFilter(a)).join(', ')})`;
    case 'not':
      // `not` is right-associative: `not not x` needs no parentheses, `not (a eq b)` does.
      return `not ${printAt(expr.operand, PRECEDENCE.not)}`;
    case 'compare':
      // Comparisons do not chain, so both operands must bind tighter than a comparison.
      return `${printAt(expr.left, PRECEDENCE.not)} ${expr.op} ${printAt(expr.right, PRECEDENCE.not)}`;
    case 'in':
      return `${printAt(expr.left, PRECEDENCE.call)} in (${expr.items.map((i) => printLiteral(i.literal)).join(', ')})`;
    case 'and':
    case 'or': {
      // Left-associative: the left child may be the same operator, the right one may not.
      const own = PRECEDENCE[expr.kind];
      return `${printAt(expr.left, own)} ${expr.kind} ${printAt(expr.right, own + 1)}`;
    }
  }
}
