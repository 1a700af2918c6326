import fc from 'fast-check';
import { AppError } from '../../../src/errors/catalogue';
import type { ComparisonOp, Expr, Literal, LiteralExpr } from '../../../src/rest/odata/ast';
import { MAX_FILTER_LENGTH, MAX_NESTING_DEPTH, parseFilter } from '../../../src/rest/odata/parser';
import { printFilter } from '../../../src/rest/odata/printer';

/** The tree without positions: what "the same parse" means across different spellings. */
function strip(e: Expr): unknown {
  switch (e.kind) {
    case 'literal':
      return { literal: e.literal };
    case 'field':
      return { field: e.name };
    case 'call':
      return { call: e.name, args: e.args.map(strip) };
    case 'not':
      return { not: strip(e.operand) };
    case 'and':
    case 'or':
      return { [e.kind]: [strip(e.left), strip(e.right)] };
    case 'compare':
      return { [e.op]: [strip(e.left), strip(e.right)] };
    case 'in':
      return { in: [strip(e.left), e.items.map((i) => i.literal)] };
  }
}

/** Every binary node in parentheses: shows how the parser grouped things. */
function grouped(e: Expr): string {
  switch (e.kind) {
    case 'and':
    case 'or':
      return `(${grouped(e.left)} ${e.kind} ${grouped(e.right)})`;
    case 'compare':
      return `(${grouped(e.left)} ${e.op} ${grouped(e.right)})`;
    case 'not':
      return `(not ${grouped(e.operand)})`;
    case 'in':
      return `(${grouped(e.left)} in [${e.items.length}])`;
    case 'call':
      return `${e.name}(${e.args.map(grouped).join(', ')})`;
    default:
      return printFilter(e);
  }
}

function faultOf(text: string): AppError {
  try {
    parseFilter(text);
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`);
}

// [input, canonical text]
const VALID: ReadonlyArray<readonly [string, string]> = [
  ["code eq 'abc'", "code eq 'abc'"],
  ["code EQ 'abc'", "code eq 'abc'"],
  ["Code eq 'abc'", "Code eq 'abc'"],
  ["code ne 'x'", "code ne 'x'"],
  ['amount gt 10', 'amount gt 10'],
  ['amount ge 10.5', 'amount ge 10.5'],
  ['amount lt -3', 'amount lt -3'],
  ['amount le 0.0001', 'amount le 0.0001'],
  ['amount Gt 1 and amount lE 2', 'amount gt 1 and amount le 2'],
  ['isActive eq true', 'isActive eq true'],
  ['isActive eq FALSE', 'isActive eq false'],
  ['description eq null', 'description eq null'],
  ['description ne NULL', 'description ne null'],
  ['isActive', 'isActive'],
  ['not isActive', 'not isActive'],
  ['NOT isActive', 'not isActive'],
  ['not not isActive', 'not not isActive'],
  ['not not not isActive', 'not not not isActive'],
  ["not (code eq 'a')", "not (code eq 'a')"],
  ["not(code eq 'a')", "not (code eq 'a')"],
  ['a eq 1 and b eq 2', 'a eq 1 and b eq 2'],
  ['a eq 1 or b eq 2', 'a eq 1 or b eq 2'],
  ['a eq 1 and b eq 2 or c eq 3', 'a eq 1 and b eq 2 or c eq 3'],
  ['a eq 1 or b eq 2 and c eq 3', 'a eq 1 or b eq 2 and c eq 3'],
  ['(a eq 1 or b eq 2) and c eq 3', '(a eq 1 or b eq 2) and c eq 3'],
  ['a eq 1 and (b eq 2 or c eq 3)', 'a eq 1 and (b eq 2 or c eq 3)'],
  ['((a eq 1))', 'a eq 1'],
  ['(a eq 1) and (b eq 2)', 'a eq 1 and b eq 2'],
  ['a eq 1 and b eq 2 and c eq 3', 'a eq 1 and b eq 2 and c eq 3'],
  ['a eq 1 and (b eq 2 and c eq 3)', 'a eq 1 and (b eq 2 and c eq 3)'],
  ['(a eq 1 and b eq 2) and c eq 3', 'a eq 1 and b eq 2 and c eq 3'],
  ['a eq 1 or (b eq 2 or c eq 3)', 'a eq 1 or (b eq 2 or c eq 3)'],
  ['(a eq 1 or b eq 2) or c eq 3', 'a eq 1 or b eq 2 or c eq 3'],
  ['a eq 1 or b eq 2 or c eq 3 or d eq 4', 'a eq 1 or b eq 2 or c eq 3 or d eq 4'],
  ['(a eq 1 or b eq 2) and (c eq 3 or d eq 4)', '(a eq 1 or b eq 2) and (c eq 3 or d eq 4)'],
  ['a eq 1 and b eq 2 or c eq 3 and d eq 4', 'a eq 1 and b eq 2 or c eq 3 and d eq 4'],
  ['(a eq 1 and b eq 2) or (c eq 3 and d eq 4)', 'a eq 1 and b eq 2 or c eq 3 and d eq 4'],
  ['not (a eq 1 or b eq 2) and c eq 3', 'not (a eq 1 or b eq 2) and c eq 3'],
  ['not a eq true', 'not a eq true'],
  ['not (a) eq true', 'not a eq true'],
  ['(not a) eq true', 'not a eq true'],
  ['not (a eq true)', 'not (a eq true)'],
  ["code in ('a', 'b')", "code in ('a', 'b')"],
  ["code in ('a','b')", "code in ('a', 'b')"],
  ['code in ()', 'code in ()'],
  ['code IN ( )', 'code in ()'],
  ["code in ('a')", "code in ('a')"],
  ['amount in (1, 2.5, -3)', 'amount in (1, 2.5, -3)'],
  ["description in ('x', null)", "description in ('x', null)"],
  ['id in (01234567-89ab-cdef-0123-456789abcdef)', 'id in (01234567-89ab-cdef-0123-456789abcdef)'],
  [
    "id in (01234567-89ab-cdef-0123-456789abcdef, '01234567-89ab-cdef-0123-456789abcdef')",
    "id in (01234567-89ab-cdef-0123-456789abcdef, '01234567-89ab-cdef-0123-456789abcdef')",
  ],
  ['createdAt in (2026-01-01, 2026-01-02T10:00Z)', 'createdAt in (2026-01-01, 2026-01-02T10:00Z)'],
  ['isActive in (true, false)', 'isActive in (true, false)'],
  ["code in ('a', 'b') and amount in (1)", "code in ('a', 'b') and amount in (1)"],
  // `in` binds tighter than `not` (OData 4.01): both spellings are the same tree.
  ["not (code in ('a'))", "not code in ('a')"],
  ["not code in ('a')", "not code in ('a')"],
  ["contains(code, 'abc')", "contains(code, 'abc')"],
  ["contains(code,'abc')", "contains(code, 'abc')"],
  ["Contains(code, 'abc')", "contains(code, 'abc')"],
  ["STARTSWITH(code, 'a')", "startswith(code, 'a')"],
  ["endswith(code, 'z')", "endswith(code, 'z')"],
  ["EndsWith( code , 'z' )", "endswith(code, 'z')"],
  ["contains(tolower(code), 'abc')", "contains(tolower(code), 'abc')"],
  ["startswith(toupper(name), 'AB')", "startswith(toupper(name), 'AB')"],
  ["tolower(code) eq 'abc'", "tolower(code) eq 'abc'"],
  ["ToUpper(code) eq 'ABC'", "toupper(code) eq 'ABC'"],
  ["TOLOWER(code) ne 'a'", "tolower(code) ne 'a'"],
  ["tolower(code) in ('a', 'b')", "tolower(code) in ('a', 'b')"],
  ['toupper(code) in ()', 'toupper(code) in ()'],
  ["not contains(code, 'x')", "not contains(code, 'x')"],
  ["not startswith(code, 'x') and isActive", "not startswith(code, 'x') and isActive"],
  ["contains(code, 'x') eq true", "contains(code, 'x') eq true"],
  ["contains(code, 'x') eq false", "contains(code, 'x') eq false"],
  ["contains(code, 'a') or contains(name, 'a')", "contains(code, 'a') or contains(name, 'a')"],
  ["(contains(code, 'a'))", "contains(code, 'a')"],
  ["not (tolower(code) eq 'a')", "not (tolower(code) eq 'a')"],
  ["contains(code, '')", "contains(code, '')"],
  ["startswith(code, '(')", "startswith(code, '(')"],
  ["endswith(code, ''')')", "endswith(code, ''')')"],
  ["contains(code, 'a or b')", "contains(code, 'a or b')"],
  ["'abc' eq code", "'abc' eq code"],
  ['10 lt amount', '10 lt amount'],
  ['null eq description', 'null eq description'],
  ['createdAt ge 2026-01-01', 'createdAt ge 2026-01-01'],
  ['createdAt lt 2026-01-01T00:00:00Z', 'createdAt lt 2026-01-01T00:00:00Z'],
  ['createdAt lt 2026-01-01T00:00:00.123+02:00', 'createdAt lt 2026-01-01T00:00:00.123+02:00'],
  ['createdAt gt 2024-02-29T23:59:59.999Z', 'createdAt gt 2024-02-29T23:59:59.999Z'],
  ['createdAt gt 2026-06-01T08:30-04:00', 'createdAt gt 2026-06-01T08:30-04:00'],
  ['id eq 01234567-89AB-cdef-0123-456789abcdef', 'id eq 01234567-89AB-cdef-0123-456789abcdef'],
  ["id eq '01234567-89ab-cdef-0123-456789abcdef'", "id eq '01234567-89ab-cdef-0123-456789abcdef'"],
  ["code eq 'it''s'", "code eq 'it''s'"],
  ["code eq ''''", "code eq ''''"],
  ["code eq '10%'", "code eq '10%'"],
  ["code eq 'a_b'", "code eq 'a_b'"],
  ["code eq 'a\\b'", "code eq 'a\\b'"],
  ["code eq ''", "code eq ''"],
  ["code eq 'eq'", "code eq 'eq'"],
  ["code eq 'Grüße'", "code eq 'Grüße'"],
  ['true', 'true'],
  ['FALSE', 'false'],
  ['false or isActive', 'false or isActive'],
  ['(isActive)', 'isActive'],
  ['isActive and not isDefault', 'isActive and not isDefault'],
  ['not (isActive and isDefault)', 'not (isActive and isDefault)'],
  ['not (isActive or isDefault)', 'not (isActive or isDefault)'],
  ['not isActive and isDefault', 'not isActive and isDefault'],
  ['not isActive or isDefault', 'not isActive or isDefault'],
  ['(not isActive)', 'not isActive'],
  ['not (not isActive)', 'not not isActive'],
  ['x eq null or y ne null', 'x eq null or y ne null'],
  ['amount eq 12345678901234567890.123456789', 'amount eq 12345678901234567890.123456789'],
  ['amount eq 007', 'amount eq 007'],
  ['amount ge -0.5 and amount le 0.5', 'amount ge -0.5 and amount le 0.5'],
  ["code   eq   'a'", "code eq 'a'"],
  ["code\teq\n'a'", "code eq 'a'"],
  ["code eq 'a' AND name eq 'b' OR isActive", "code eq 'a' and name eq 'b' or isActive"],
  ["code eq 'x'or name eq 'y'", "code eq 'x' or name eq 'y'"],
  ['(a eq 1)or(b eq 2)', 'a eq 1 or b eq 2'],
  ['a_b eq 1', 'a_b eq 1'],
  ['_x eq 1', '_x eq 1'],
  ['field1 eq 2', 'field1 eq 2'],
  ['isActive eq true and isDefault ne false', 'isActive eq true and isDefault ne false'],
  ["code eq 'a' and (b eq 1 or (c eq 2 and (d eq 3 or e eq 4)))", "code eq 'a' and (b eq 1 or c eq 2 and (d eq 3 or e eq 4))"],
  ["description eq null and not (code eq 'x')", "description eq null and not (code eq 'x')"],
  ['isActive ne true', 'isActive ne true'],
  ['(a eq 1 or b eq 2) and not (c eq 3 and d eq 4) or e', '(a eq 1 or b eq 2) and not (c eq 3 and d eq 4) or e'],
  ['a eq 1 and not not (b eq 2)', 'a eq 1 and not not (b eq 2)'],
  ['(a) eq (1)', 'a eq 1'],
  ['(a eq 1) eq true', '(a eq 1) eq true'],
  ['a eq (b eq 1)', 'a eq (b eq 1)'],
  ["(code in ('a')) eq false", "code in ('a') eq false"],
  ['a in (1) eq true', 'a in (1) eq true'],
  ['a eq 1 in (1)', 'a eq 1 in (1)'],
  // `x in (y)` with one name is the ABNF's `x in y`, kept as a comparison.
  ['code in (name)', 'code eq name'],
  ['code eq 1e5', 'code eq 1e5'],
  ['rate eq +42', 'rate eq +42'],
  ['rate lt -0.314e1', 'rate lt -0.314e1'],
  ['rate ne INF and rate gt -INF and rate ne NaN', 'rate ne INF and rate gt -INF and rate ne NaN'],
  ['validFrom gt -10000-04-01 and validFrom lt 0000-01-01T00:00Z', 'validFrom gt -10000-04-01 and validFrom lt 0000-01-01T00:00Z'],
  ['true eq false', 'true eq false'],
  ["(a or b) in ('x')", "(a or b) in ('x')"],
  ["contains(a or b, 'x')", "contains(a or b, 'x')"],
  ["tolower(tolower(code)) eq 'a'", "tolower(tolower(code)) eq 'a'"],
  ["contains(tolower(toupper(code)), 'a')", "contains(tolower(toupper(code)), 'a')"],
  ['deadbeef-dead-beef-dead-beefdeadbeef eq id', 'deadbeef-dead-beef-dead-beefdeadbeef eq id'],
  ['createdAt ge 2026-01-01 and createdAt lt 2026-02-01', 'createdAt ge 2026-01-01 and createdAt lt 2026-02-01'],
  ["sourceType eq 'BankTransfer' or sourceType eq 'Cash'", "sourceType eq 'BankTransfer' or sourceType eq 'Cash'"],
  ["sourceType in ('BankTransfer', 'Cash')", "sourceType in ('BankTransfer', 'Cash')"],
  ['true and false or true', 'true and false or true'],
  ['a eq 1 and b eq 2 and c eq 3 and d eq 4 and e eq 5', 'a eq 1 and b eq 2 and c eq 3 and d eq 4 and e eq 5'],
];

// [input, position of the fault, a fragment of the message]
const INVALID: ReadonlyArray<readonly [string, number, string]> = [
  ['', 0, 'empty expression'],
  ['   ', 0, 'may not start or end with a space'],
  ['  code eq 1', 0, 'may not start or end with a space'],
  ['code eq 1 ', 9, 'may not start or end with a space'],
  ['code eq', 7, 'unexpected end'],
  ["code eq 'a' and", 15, 'unexpected end'],
  ["and code eq 'a'", 0, "expected a field, a literal, a function or '(', found 'and'"],
  ["code eq eq 'a'", 8, "found 'eq'"],
  ["code 'a'", 5, "expected 'and', 'or' or the end"],
  ["(code eq 'a'", 12, "expected ')'"],
  ["code eq 'a')", 11, "unbalanced ')'"],
  ['()', 1, "found ')'"],
  ["code eq 'a' eq 'b'", 12, 'cannot be chained'],
  ['a eq 1 ne 2', 7, 'cannot be chained'],
  ['a in (1) in (true)', 9, 'cannot be chained'],
  ['a lt 1 gt 0', 7, 'cannot be chained'],
  ["code in 'a'", 8, "expected '(' after 'in'"],
  ["code in ('a',)", 13, "expected a literal in the 'in' list, found ')'"],
  ["code in ('a' 'b')", 13, "expected ',' or ')' in the 'in' list"],
  ["code in ('a'", 12, "expected ',' or ')' in the 'in' list"],
  ['code in (name, code)', 9, "expected a literal in the 'in' list, found 'name'"],
  ['code in ((1))', 9, 'expected a literal'],
  ['code in (,)', 9, 'expected a literal'],
  ['code in', 7, "expected '(' after 'in'"],
  ["code in (tolower('a'))", 9, 'expected a literal'],
  ['foo(code)', 0, "unknown function 'foo'"],
  ["substringof('a', code)", 0, "unknown function 'substringof'"],
  ['length(code) eq 1', 0, "unknown function 'length'"],
  ["trim(code) eq 'a'", 0, "unknown function 'trim'"],
  ["a eq 1 and concat(a, b) eq 'ab'", 11, "unknown function 'concat'"],
  ['contains(code)', 0, 'takes 2 arguments, not 1'],
  ["contains(code, 'a', 'b')", 0, 'takes 2 arguments, not 3'],
  ["tolower(code, 'a') eq 'a'", 0, 'takes 1 argument, not 2'],
  ["tolower() eq 'a'", 0, 'takes 1 argument, not 0'],
  ['contains()', 0, 'not 0'],
  ["contains(code 'a')", 14, "expected ',' or ')' in the arguments of contains()"],
  ["contains(code, 'a'", 18, "expected ',' or ')'"],
  ["contains(, 'a')", 9, 'expected a field'],
  ["contains(code,, 'a')", 14, 'expected a field'],
  ['not', 3, 'unexpected end'],
  ['not and', 4, "found 'and'"],
  ['not not', 7, 'unexpected end'],
  ["code eq 'abc", 8, 'unterminated string'],
  ['code eq "abc"', 8, "unexpected character '\"'"],
  ['code eq 1e', 8, 'malformed number'],
  ['createdAt gt 2026-02-30', 13, 'not a calendar date'],
  ['createdAt gt 2026-01-01T10:00', 13, 'not a date-time'],
  ['createdAt gt 2026-01-01T10:00:00.1234Z', 13, 'more precise than milliseconds'],
  ['a eq 0123456-89ab-cdef-0123-456789abcdef', 5, 'malformed number'],
  ['a eq 1 or', 9, 'unexpected end'],
  ['a eq 1 or or b eq 2', 10, "found 'or'"],
  ['a eq 1 and or b', 11, "found 'or'"],
  ['a eq (1', 7, "expected ')'"],
  ['a eq 1)', 6, "unbalanced ')'"],
  ['a/b eq 1', 1, "unexpected character '/'"],
  ['a eq 1 $', 7, "unexpected character '$'"],
  ["code eq 'a',name eq 'b'", 11, "found ','"],
  ['a eq in', 5, "found 'in'"],
  ['in (1)', 0, "found 'in'"],
  ['a lt', 4, 'unexpected end'],
  ['eq', 0, "found 'eq'"],
  ['(', 1, 'unexpected end'],
  [')', 0, "found ')'"],
  [',', 0, "found ','"],
  ['a eq 1 and (b eq 2', 18, "expected ')'"],
  ["contains(code, 'a') eq", 22, 'unexpected end'],
  ["code eq 'a' not", 12, "found 'not'"],
  ['a eq -', 5, "unexpected character '-'"],
  ['a in ())', 7, "unbalanced ')'"],
  ['a eq 1 a eq 2', 7, "found 'a'"],
  ['tolower(code) eq', 16, 'unexpected end'],
  ['a eq 1 and not', 14, 'unexpected end'],
  ['a eq 1 and ()', 12, "found ')'"],
  ['a eq 1 or (b eq 2))', 18, "unbalanced ')'"],
  ['code eq true false', 13, "found 'false'"],
  ['a eq [1]', 5, "unexpected character '['"],
  ['a.b eq 1', 1, "unexpected character '.'"],
  ['a eq 1;', 6, "unexpected character ';'"],
  ['a eq 1 && b eq 2', 7, "unexpected character '&'"],
  ['a eq 1 || b eq 2', 7, "unexpected character '|'"],
  ['a == 1', 2, "unexpected character '='"],
  ['a eq 1 and b eq', 15, 'unexpected end'],
];

describe('OData parser: table of valid expressions', () => {
  test.each(VALID)('%s', (input, canonical) => {
    const ast = parseFilter(input);
    expect(printFilter(ast)).toBe(canonical);
    // Round trip: the canonical text parses to the same tree, and prints the same again.
    const again = parseFilter(printFilter(ast));
    expect(strip(again)).toEqual(strip(ast));
    expect(printFilter(again)).toBe(canonical);
  });
});

describe('OData parser: table of invalid expressions', () => {
  test.each(INVALID)('%s → position %i', (input, pos, fragment) => {
    const e = faultOf(input);
    expect(e.code).toBe('INVALID_QUERY');
    expect(e.status).toBe(400);
    expect(e.detail.startsWith('$filter: ')).toBe(true);
    expect(e.detail).toContain(fragment);
    expect(e.detail.endsWith(` at position ${pos}`)).toBe(true);
  });
});

test('the tables hold at least 150 expressions', () => {
  expect(VALID.length + INVALID.length).toBeGreaterThanOrEqual(150);
});

describe('precedence: not > comparison > and > or', () => {
  test.each([
    ['a eq 1 or b eq 2 and c eq 3', '((a eq 1) or ((b eq 2) and (c eq 3)))'],
    ['a eq 1 and b eq 2 or c eq 3', '(((a eq 1) and (b eq 2)) or (c eq 3))'],
    ['a eq 1 and b eq 2 and c eq 3', '(((a eq 1) and (b eq 2)) and (c eq 3))'],
    ['a eq 1 or b eq 2 or c eq 3', '(((a eq 1) or (b eq 2)) or (c eq 3))'],
    ['not a eq true', '((not a) eq true)'],
    ['not a and b', '((not a) and b)'],
    ['not a or b and c', '((not a) or (b and c))'],
    ['not (a or b) and c', '((not (a or b)) and c)'],
    ["not contains(a, 'x') or b", "((not contains(a, 'x')) or b)"],
    ['a in (1) and b in () or c', '(((a in [1]) and (b in [0])) or c)'],
    ['a or b and not c eq d', '(a or (b and ((not c) eq d)))'],
    ['(a or b) and c', '((a or b) and c)'],
    ['a and (b or c)', '(a and (b or c))'],
    ['A EQ 1 OR B EQ 2 AND C EQ 3', '((A eq 1) or ((B eq 2) and (C eq 3)))'],
  ])('%s groups as %s', (input, expected) => {
    expect(grouped(parseFilter(input))).toBe(expected);
  });
});

describe('positions', () => {
  test('nodes and operators carry offsets into the text', () => {
    const ast = parseFilter("x eq 1 and  tolower(code) in ('a', 'b')");
    expect(ast).toMatchObject({ kind: 'and', pos: 0, opPos: 7 });
    if (ast.kind !== 'and') throw new Error('and expected');
    expect(ast.left).toMatchObject({ kind: 'compare', op: 'eq', pos: 0, opPos: 2, right: { pos: 5 } });
    expect(ast.right).toMatchObject({
      kind: 'in',
      pos: 12,
      opPos: 26,
      left: { kind: 'call', name: 'tolower', pos: 12, args: [{ kind: 'field', name: 'code', pos: 20 }] },
    });
    const items = (ast.right as { items: readonly LiteralExpr[] }).items;
    expect(items.map((i) => i.pos)).toEqual([30, 35]);
  });

  test('literals keep their exact text', () => {
    const ast = parseFilter('amount eq 0.10');
    expect(ast).toMatchObject({ right: { literal: { type: 'number', text: '0.10' } } });
  });
});

describe('limits', () => {
  test(`nesting up to ${MAX_NESTING_DEPTH} levels is accepted`, () => {
    const text = '('.repeat(MAX_NESTING_DEPTH) + 'a eq 1' + ')'.repeat(MAX_NESTING_DEPTH);
    expect(printFilter(parseFilter(text))).toBe('a eq 1');
  });

  test('one parenthesis more is refused at its position', () => {
    const text = '('.repeat(MAX_NESTING_DEPTH + 1) + 'a eq 1' + ')'.repeat(MAX_NESTING_DEPTH + 1);
    const e = faultOf(text);
    expect(e.detail).toContain(`nested deeper than ${MAX_NESTING_DEPTH} levels`);
    expect(e.detail).toMatch(new RegExp(`at position ${MAX_NESTING_DEPTH}$`));
  });

  test('too many nots are refused too', () => {
    const e = faultOf('not '.repeat(MAX_NESTING_DEPTH + 1) + 'a');
    expect(e.detail).toMatch(new RegExp(`nested deeper.* at position ${MAX_NESTING_DEPTH * 4}$`));
  });

  test('nested function calls count as nesting', () => {
    const n = MAX_NESTING_DEPTH + 1;
    const e = faultOf('tolower('.repeat(n) + 'a' + ')'.repeat(n) + " eq 'a'");
    expect(e.detail).toMatch(new RegExp(`nested deeper.* at position ${MAX_NESTING_DEPTH * 8}$`));
  });

  test('long flat and-chains are not nesting', () => {
    const text = Array.from({ length: 120 }, (_, i) => `f${i} eq ${i}`).join(' and ');
    expect(text.length).toBeLessThanOrEqual(MAX_FILTER_LENGTH);
    expect(printFilter(parseFilter(text))).toBe(text);
  });

  test(`an expression of ${MAX_FILTER_LENGTH} characters is accepted, one more is not`, () => {
    const base = "code eq '";
    const exact = base + 'x'.repeat(MAX_FILTER_LENGTH - base.length - 1) + "'";
    expect(exact).toHaveLength(MAX_FILTER_LENGTH);
    expect(() => parseFilter(exact)).not.toThrow();
    const e = faultOf(exact + ' ');
    expect(e.detail).toBe(`$filter: expression longer than ${MAX_FILTER_LENGTH} characters at position ${MAX_FILTER_LENGTH}`);
  });

  test('the option name can be changed', () => {
    try {
      parseFilter('a eq', 'filter');
      throw new Error('should fail');
    } catch (e) {
      expect((e as AppError).detail).toBe('filter: unexpected end of expression at position 4');
    }
  });
});

describe('round trip on generated trees', () => {
  const name = fc.constantFrom('code', 'name', 'amount', 'isActive', 'createdAt', 'Description', 'x_1');
  const literal: fc.Arbitrary<Literal> = fc.oneof(
    fc.string({ maxLength: 6 }).map((value): Literal => ({ type: 'string', value })),
    fc
      .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.option(fc.stringMatching(/^\d{1,6}$/)))
      .map(([neg, int, frac]): Literal => ({ type: 'number', text: `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}` })),
    fc.boolean().map((value): Literal => ({ type: 'boolean', value })),
    fc.constant<Literal>({ type: 'null' }),
    fc.uuid().map((text): Literal => ({ type: 'guid', text })),
    fc.constantFrom<Literal>({ type: 'date', text: '2026-01-31' }, { type: 'datetime', text: '2026-01-31T10:20:30.456+01:00' }),
  );
  const op = fc.constantFrom<ComparisonOp>('eq', 'ne', 'gt', 'ge', 'lt', 'le');
  const { expr } = fc.letrec<{ expr: Expr; operand: Expr }>((tie) => ({
    operand: fc.oneof(
      { depthSize: 'small' },
      name.map((n): Expr => ({ kind: 'field', name: n, pos: 0 })),
      literal.map((l): Expr => ({ kind: 'literal', literal: l, pos: 0 })),
      fc
        .tuple(fc.constantFrom<'tolower' | 'toupper'>('tolower', 'toupper'), tie('operand'))
        .map(([fn, arg]): Expr => ({ kind: 'call', name: fn, args: [arg], pos: 0 })),
    ),
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      tie('operand'),
      fc
        .tuple(op, tie('operand'), tie('operand'))
        .map(([o, l, r]): Expr => ({ kind: 'compare', op: o, left: l, right: r, pos: 0, opPos: 0 })),
      fc.tuple(tie('operand'), fc.array(literal, { maxLength: 3 })).map(([l, items]): Expr => ({
        kind: 'in',
        left: l,
        items: items.map((i) => ({ kind: 'literal', literal: i, pos: 0 })),
        pos: 0,
        opPos: 0,
      })),
      fc
        .tuple(fc.constantFrom('contains', 'startswith', 'endswith') as fc.Arbitrary<'contains'>, tie('operand'), literal)
        .map(([fn, a, l]): Expr => ({ kind: 'call', name: fn, args: [a, { kind: 'literal', literal: l, pos: 0 }], pos: 0 })),
      tie('expr').map((e): Expr => ({ kind: 'not', operand: e, pos: 0 })),
      fc
        .tuple(fc.constantFrom<'and' | 'or'>('and', 'or'), tie('expr'), tie('expr'))
        .map(([k, l, r]): Expr => ({ kind: k, left: l, right: r, pos: 0, opPos: 0 })),
    ),
  }));

  test('parse(print(t)) is t, for any tree', () => {
    fc.assert(
      fc.property(expr, (tree) => {
        const text = printFilter(tree);
        if (text.length > MAX_FILTER_LENGTH) return;
        expect(strip(parseFilter(text))).toEqual(strip(tree));
      }),
      { numRuns: 500 },
    );
  });
});
