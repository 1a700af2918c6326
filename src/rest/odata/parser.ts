// Recursive-descent parser for the $filter subset of docs/service.md "OData subset".
//
// Why our own parser rather than `@odata/parser` (checked: npm 0.2.14, the latest release,
// CHANGELOG dated 2023-03-23; source github.com/Soontao/odata-v4-parser):
//  - it matches keywords by exact character codes (`Utils.equals`), so `EQ`, `And`,
//    `Contains(` fail, while the contract promises OData 4.01's case-insensitive keywords;
//  - it has no `in` operator (OData 4.01), which the contract requires (`x in ()` included);
//  - a failure is a bare `Error("Fail at 0")` / `"Unexpected character at N"`, not a fault
//    naming the token and its position in our INVALID_QUERY catalogue form;
//  - its tree covers the whole URL grammar (paths, $expand, arithmetic, lambdas) that we
//    would have to walk and reject, and it pulls in two further runtime packages.
// The subset we need is small; a hand-written parser with positions is less code to trust.
//
// Grammar (lowest precedence first), with OData 4.01's precedence: `in` is in the primary
// group and binds tighter than `not`, which binds tighter than the comparisons:
//   or      := and ( 'or' and )*
//   and     := compare ( 'and' compare )*
//   compare := unary [ ( eq|ne|gt|ge|lt|le ) unary ]
//   unary   := 'not' unary | member
//   member  := primary [ 'in' '(' [ literal (',' literal)* ] ')' | 'in' '(' name ')' ]
//   primary := '(' or ')' | literal | name '(' [ or (',' or)* ] ')' | name
// `x in (y)` with a single field in the parentheses is the ABNF's "x in y", kept as `x eq y`.
// Comparisons do not chain (`a eq b eq c` is refused): no meaning of it is worth guessing.
// The expression may not start or end with a space (the ABNF has none there).

import { invalidQuery } from '../../errors/catalogue';
import { COMPARISON_OPS, FUNCTION_ARITY, isFunctionName, type ComparisonOp, type Expr, type Literal, type LiteralExpr } from './ast';
import { describeToken, tokenize, type Token } from './lexer';
import { isOneOf } from '../../lib/collections';

/** Longest $filter accepted, in characters. */
export const MAX_FILTER_LENGTH = 8000;
/** Deepest nesting of parentheses, `not` and function calls accepted. */
export const MAX_NESTING_DEPTH = 50;

const isComparisonOp = (k: string): k is ComparisonOp => isOneOf(COMPARISON_OPS, k);

class Parser {
  private index = 0;
  private depth = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly option: string,
  ) {}

  private fault(message: string, pos: number): never {
    throw invalidQuery(this.option, message, pos);
  }

  private peek(): Token {
    // The token list always ends with `eof`, and the index never moves past it.
    return this.tokens[this.index] ?? this.tokens.at(-1)!;
  }

  private next(): Token {
    const t = this.peek();
    if (t.kind !== 'eof') this.index++;
    return t;
  }

  private isKeyword(t: Token, keyword: string): boolean {
    return t.kind === 'keyword' && t.keyword === keyword;
  }

  private enter(pos: number): void {
    if (++this.depth > MAX_NESTING_DEPTH) this.fault(`expression nested deeper than ${MAX_NESTING_DEPTH} levels`, pos);
  }

  private leave(): void {
    this.depth--;
  }

  parseAll(): Expr {
    if (this.peek().kind === 'eof') this.fault('empty expression', 0);
    const expr = this.parseOr();
    const rest = this.peek();
    if (rest.kind !== 'eof') {
      this.fault(
        rest.kind === 'rparen' ? "unbalanced ')'" : `expected 'and', 'or' or the end of the expression, found ${describeToken(rest)}`,
        rest.pos,
      );
    }
    return expr;
  }

  private parseOr(): Expr {
    let left = this.parseAnd();
    while (this.isKeyword(this.peek(), 'or')) {
      const op = this.next();
      const right = this.parseAnd();
      left = { kind: 'or', left, right, pos: left.pos, opPos: op.pos };
    }
    return left;
  }

  private parseAnd(): Expr {
    let left = this.parseCompare();
    while (this.isKeyword(this.peek(), 'and')) {
      const op = this.next();
      const right = this.parseCompare();
      left = { kind: 'and', left, right, pos: left.pos, opPos: op.pos };
    }
    return left;
  }

  private parseCompare(): Expr {
    const left = this.parseUnary();
    const t = this.peek();
    if (!(t.kind === 'keyword' && isComparisonOp(t.keyword))) {
      if (this.isKeyword(t, 'in')) this.chainFault(t);
      return left;
    }
    this.next();
    const right = this.parseUnary();
    const after = this.peek();
    if (after.kind === 'keyword' && (isComparisonOp(after.keyword) || after.keyword === 'in')) this.chainFault(after);
    return { kind: 'compare', op: t.keyword, left, right, pos: left.pos, opPos: t.pos };
  }

  private chainFault(t: Token): never {
    return this.fault(`comparisons cannot be chained; use 'and', 'or' or parentheses before '${t.text}'`, t.pos);
  }

  /** A primary, and the `in` that binds to it before anything else. */
  private parseMember(): Expr {
    const left = this.parsePrimary();
    const t = this.peek();
    if (!this.isKeyword(t, 'in')) return left;
    this.next();
    // `x in (y)`: a single name in the parentheses is an operand, not a list (ABNF commonExpr).
    const [open, name, close] = [this.peek(), this.tokens[this.index + 1], this.tokens[this.index + 2]];
    if (open.kind === 'lparen' && name?.kind === 'identifier' && close?.kind === 'rparen') {
      this.index += 3;
      const right: Expr = { kind: 'field', name: name.text, pos: name.pos };
      return { kind: 'compare', op: 'eq', left, right, pos: left.pos, opPos: t.pos };
    }
    const result: Expr = { kind: 'in', left, items: this.parseList(), pos: left.pos, opPos: t.pos };
    if (this.isKeyword(this.peek(), 'in')) this.chainFault(this.peek());
    return result;
  }

  private parseList(): LiteralExpr[] {
    const open = this.next();
    if (open.kind !== 'lparen') this.fault(`expected '(' after 'in', found ${describeToken(open)}`, open.pos);
    const items: LiteralExpr[] = [];
    if (this.peek().kind === 'rparen') {
      this.next();
      return items;
    }
    for (;;) {
      const t = this.next();
      const literal = this.literalOf(t);
      if (!literal) this.fault(`expected a literal in the 'in' list, found ${describeToken(t)}`, t.pos);
      items.push({ kind: 'literal', literal, pos: t.pos });
      const sep = this.next();
      if (sep.kind === 'rparen') return items;
      if (sep.kind !== 'comma') this.fault(`expected ',' or ')' in the 'in' list, found ${describeToken(sep)}`, sep.pos);
    }
  }

  private parseUnary(): Expr {
    const t = this.peek();
    if (this.isKeyword(t, 'not')) {
      this.next();
      this.enter(t.pos);
      const operand = this.parseUnary();
      this.leave();
      return { kind: 'not', operand, pos: t.pos };
    }
    return this.parseMember();
  }

  private parsePrimary(): Expr {
    const t = this.next();
    if (t.kind === 'lparen') {
      this.enter(t.pos);
      const inner = this.parseOr();
      const close = this.next();
      if (close.kind !== 'rparen') this.fault(`expected ')' to close the opening parenthesis, found ${describeToken(close)}`, close.pos);
      this.leave();
      return inner;
    }
    const literal = this.literalOf(t);
    if (literal) return { kind: 'literal', literal, pos: t.pos };
    if (t.kind === 'identifier') {
      if (this.peek().kind !== 'lparen') return { kind: 'field', name: t.text, pos: t.pos };
      return this.parseCall(t);
    }
    if (t.kind === 'eof') this.fault('unexpected end of expression', t.pos);
    this.fault(`expected a field, a literal, a function or '(', found ${describeToken(t)}`, t.pos);
  }

  private parseCall(nameToken: Token): Expr {
    const name = nameToken.text.toLowerCase();
    if (!isFunctionName(name)) {
      this.fault(`unknown function '${nameToken.text}' (supported: ${Object.keys(FUNCTION_ARITY).join(', ')})`, nameToken.pos);
    }
    this.next(); // '('
    this.enter(nameToken.pos);
    const args: Expr[] = [];
    if (this.peek().kind !== 'rparen') {
      for (;;) {
        args.push(this.parseOr());
        const sep = this.next();
        if (sep.kind === 'rparen') break;
        if (sep.kind !== 'comma') this.fault(`expected ',' or ')' in the arguments of ${name}(), found ${describeToken(sep)}`, sep.pos);
      }
    } else {
      this.next();
    }
    this.leave();
    const arity = FUNCTION_ARITY[name];
    if (args.length !== arity) {
      this.fault(`${name}() takes ${arity} argument${arity === 1 ? '' : 's'}, not ${args.length}`, nameToken.pos);
    }
    return { kind: 'call', name, args, pos: nameToken.pos };
  }

  private literalOf(t: Token): Literal | undefined {
    switch (t.kind) {
      case 'string':
        return { type: 'string', value: t.value };
      case 'number':
      case 'guid':
      case 'date':
      case 'datetime':
        return { type: t.kind, text: t.text };
      case 'keyword':
        if (t.keyword === 'true' || t.keyword === 'false') return { type: 'boolean', value: t.keyword === 'true' };
        if (t.keyword === 'null') return { type: 'null' };
        return undefined;
      default:
        return undefined;
    }
  }
}

/**
 * Parse a $filter expression into its syntax tree. Throws INVALID_QUERY naming the fault
 * and its 0-based position. `option` is the name used in the error (default `$filter`).
 */
export function parseFilter(text: string, option = '$filter'): Expr {
  // Checked before lexing so that an oversized input costs nothing more than this test.
  if (text.length > MAX_FILTER_LENGTH) {
    throw invalidQuery(option, `expression longer than ${MAX_FILTER_LENGTH} characters`, MAX_FILTER_LENGTH);
  }
  const lead = /^\s/.test(text) ? 0 : /\s$/.test(text) ? text.length - 1 : -1;
  if (lead >= 0) throw invalidQuery(option, 'the expression may not start or end with a space', lead);
  return new Parser(tokenize(text, option), option).parseAll();
}
