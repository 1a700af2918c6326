// Differential fuzz test of the $filter parser against the rules of the grammar, written
// down a second time below as a small reference parser built differently (precedence
// climbing with binding powers instead of one function per level). Random token strings,
// valid and not, go through both: either both refuse, or both give the same tree.
//
// The rules (docs/odata.md says the same in prose):
//  R1 loosest to tightest: or, and, the comparisons (eq ne gt ge lt le; they do not chain),
//     not (prefix), in (postfix on a primary; does not chain), primaries.
//  R2 a primary is ( expression ), a literal, a name, or name( arguments ) for a known
//     function with its number of arguments (contains 2, tolower 1).
//  R3 after in: ( ) or ( literal, ... ) — or ( name ), which is `x eq name` (ABNF "x in y").
//  R4 keywords and function names in any case; names as written.
//  R5 nothing before the first or after the last token (no leading or trailing space).
import fc from 'fast-check';
import type { Expr, Literal } from '../../../src/rest/odata/ast';
import { parseFilter } from '../../../src/rest/odata/parser';

const CMP = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];
const ARITY: Record<string, number> = { contains: 2, tolower: 1 };
const LITERALS = ['1', '-2.5', "'x'", 'true', 'null'];
const NAMES = ['a', 'b'];
const KEYWORDS = [...CMP, 'and', 'or', 'not', 'in', 'true', 'false', 'null'];
const VOCABULARY = [...LITERALS, ...NAMES, ...CMP, 'and', 'or', 'not', 'in', '(', ')', ',', 'contains', 'tolower', 'bogus'];

const literalText = (l: Literal): string => {
  switch (l.type) {
    case 'string':
      return `'${l.value}'`;
    case 'boolean':
      return String(l.value);
    case 'null':
      return 'null';
    default:
      return l.text;
  }
};

/** The real parser's tree as an S-expression. */
function sexp(e: Expr): string {
  switch (e.kind) {
    case 'literal':
      return literalText(e.literal);
    case 'field':
      return e.name;
    case 'call':
      return `${e.name}(${e.args.map(sexp).join(' ')})`;
    case 'not':
      return `(not ${sexp(e.operand)})`;
    case 'compare':
      return `(${e.op} ${sexp(e.left)} ${sexp(e.right)})`;
    case 'in':
      return `(in ${sexp(e.left)} [${e.items.map(sexp).join(' ')}])`;
    case 'and':
    case 'or':
      return `(${e.kind} ${sexp(e.left)} ${sexp(e.right)})`;
  }
}

class Refused extends Error {}

/** The reference: the rules above, by binding power. Returns an S-expression or throws Refused. */
function reference(tokens: readonly string[]): string {
  let i = 0;
  const peek = (): string | undefined => tokens[i]?.toLowerCase();
  const take = (): string => {
    const t = tokens[i++];
    if (t === undefined) throw new Refused('end');
    return t;
  };
  const expect = (t: string): void => {
    if (take() !== t) throw new Refused(`expected ${t}`);
  };
  const isLiteral = (t: string | undefined): boolean => t !== undefined && LITERALS.includes(t);
  // Any word that is not a keyword is a name (`contains` too, when no `(` follows).
  const isName = (t: string | undefined): boolean => t !== undefined && /^[a-z]+$/i.test(t) && !KEYWORDS.includes(t.toLowerCase());
  const BP: Record<string, number> = { or: 10, and: 20, ...Object.fromEntries(CMP.map((c) => [c, 30])) };

  function primary(): string {
    const t = take();
    const lower = t.toLowerCase();
    if (t === '(') {
      const inner = expr(0);
      expect(')');
      return inner;
    }
    if (isLiteral(lower)) return lower === 'true' || lower === 'null' ? lower : t;
    if (lower in ARITY && tokens[i] === '(') {
      take();
      const args: string[] = [];
      if (tokens[i] === ')') take();
      else {
        for (;;) {
          args.push(expr(0));
          const sep = take();
          if (sep === ')') break;
          if (sep !== ',') throw new Refused('argument separator');
        }
      }
      if (args.length !== ARITY[lower]) throw new Refused('arity');
      return `${lower}(${args.join(' ')})`;
    }
    if (isName(t) && tokens[i] !== '(') return t;
    // A name followed by `(` that is no known function is refused, as any other stray token.
    throw new Refused(`no primary at ${t}`);
  }

  function member(): string {
    const left = primary();
    if (peek() !== 'in') return left;
    take();
    expect('(');
    let result: string;
    if (isName(tokens[i]) && tokens[i + 1] === ')') {
      result = `(eq ${left} ${take()})`;
      take();
    } else {
      const items: string[] = [];
      if (tokens[i] === ')') take();
      else {
        for (;;) {
          const item = take();
          if (!isLiteral(item.toLowerCase())) throw new Refused('list item');
          items.push(item.toLowerCase() === 'true' || item.toLowerCase() === 'null' ? item.toLowerCase() : item);
          const sep = take();
          if (sep === ')') break;
          if (sep !== ',') throw new Refused('list separator');
        }
      }
      result = `(in ${left} [${items.join(' ')}])`;
    }
    if (peek() === 'in') throw new Refused('in chained');
    return result;
  }

  function unary(): string {
    if (peek() === 'not') {
      take();
      return `(not ${unary()})`;
    }
    return member();
  }

  function expr(minBP: number): string {
    let left = unary();
    for (;;) {
      const op = peek();
      if (op === undefined || !(op in BP) || (BP[op] ?? 0) <= minBP) {
        if (op === 'in') throw new Refused('in after a comparison');
        return left;
      }
      take();
      const bp = BP[op] ?? 0;
      const right = bp === 30 ? unary() : expr(bp);
      left = `(${op} ${left} ${right})`;
      if (bp === 30 && (CMP.includes(peek() ?? '') || peek() === 'in')) throw new Refused('comparison chained');
    }
  }

  if (tokens.length === 0) throw new Refused('empty');
  const result = expr(0);
  if (i !== tokens.length) throw new Refused('trailing tokens');
  return result;
}

const verdict = (f: () => string): string => {
  try {
    return f();
  } catch (e) {
    if (e instanceof Refused) return 'refused';
    if (e instanceof Error && 'code' in e && e.code === 'INVALID_QUERY') return 'refused';
    throw e;
  }
};

// Tokens drawn from the vocabulary, some in upper case (R4), joined by one space.
const token = fc
  .tuple(fc.constantFrom(...VOCABULARY), fc.boolean())
  .map(([t, upper]) => (upper && !NAMES.includes(t) ? t.toUpperCase() : t));
const randomTokens = fc.array(token, { minLength: 0, maxLength: 14 });

// Token strings shaped by the grammar (mostly valid, with every operator next to every
// other), then sometimes mutated: a token dropped, replaced or inserted.
const { shaped } = fc.letrec<{ shaped: string[]; operand: string[] }>((tie) => ({
  operand: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(...NAMES, ...LITERALS).map((t) => [t]),
    tie('shaped').map((e) => ['(', ...e, ')']),
    fc
      .tuple(fc.constantFrom(...NAMES), fc.array(fc.constantFrom(...LITERALS, ...NAMES), { maxLength: 2 }))
      .map(([n, items]) => [n, 'in', '(', ...items.flatMap((item, i) => (i === 0 ? [item] : [',', item])), ')']),
    tie('operand').map((e) => ['tolower', '(', ...e, ')']),
    fc.tuple(tie('operand'), fc.constantFrom(...LITERALS)).map(([a, l]) => ['contains', '(', ...a, ',', l, ')']),
  ),
  shaped: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('operand'),
    tie('shaped').map((e) => ['not', ...e]),
    fc.tuple(tie('operand'), fc.constantFrom(...CMP), tie('operand')).map(([l, op, r]) => [...l, op, ...r]),
    fc.tuple(tie('shaped'), fc.constantFrom('and', 'or'), tie('shaped')).map(([l, op, r]) => [...l, op, ...r]),
  ),
}));
const mutated = fc
  .tuple(shaped, fc.nat(), token, fc.constantFrom('keep', 'keep', 'drop', 'replace', 'insert'))
  .map(([tokens, at, t, how]) => {
    const i = tokens.length === 0 ? 0 : at % tokens.length;
    if (how === 'drop') return [...tokens.slice(0, i), ...tokens.slice(i + 1)];
    if (how === 'replace') return [...tokens.slice(0, i), t, ...tokens.slice(i + 1)];
    if (how === 'insert') return [...tokens.slice(0, i), t, ...tokens.slice(i)];
    return tokens;
  })
  .filter((tokens) => tokens.length <= 60);
const tokenList = fc.oneof(randomTokens, mutated);

export const FUZZ_RUNS = 20000;

test(`the parser and the written-down rules agree on ${FUZZ_RUNS} random token strings`, () => {
  let accepted = 0;
  fc.assert(
    fc.property(tokenList, (tokens) => {
      const expected = verdict(() => reference(tokens));
      const actual = verdict(() => sexp(parseFilter(tokens.join(' '))));
      if (expected !== 'refused') accepted++;
      expect(actual).toBe(expected);
    }),
    { numRuns: FUZZ_RUNS },
  );
  // The strings are not all rubbish: a fair share is valid.
  expect(accepted).toBeGreaterThan(FUZZ_RUNS / 5);
});

test('R5: a leading or trailing space is refused', () => {
  fc.assert(
    fc.property(fc.constantFrom(' ', '\t'), fc.boolean(), (space, before) => {
      const text = before ? `${space}a eq 1` : `a eq 1${space}`;
      expect(verdict(() => sexp(parseFilter(text)))).toBe('refused');
    }),
  );
});
