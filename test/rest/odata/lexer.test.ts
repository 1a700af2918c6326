import { AppError } from '../../../src/errors/catalogue';
import { tokenize, type Token } from '../../../src/rest/odata/lexer';

const kinds = (text: string): string[] => tokenize(text).map((t) => t.kind);
const only = (text: string): Token => {
  const tokens = tokenize(text);
  expect(tokens).toHaveLength(2);
  return tokens[0] as Token;
};

function faultOf(text: string): AppError {
  try {
    tokenize(text);
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error(`expected ${text} to fail`);
}

describe('OData lexer', () => {
  test('a simple comparison, with positions', () => {
    expect(tokenize("code eq 'abc'")).toEqual([
      { kind: 'identifier', text: 'code', pos: 0, end: 4 },
      { kind: 'keyword', keyword: 'eq', text: 'eq', pos: 5, end: 7 },
      { kind: 'string', value: 'abc', text: "'abc'", pos: 8, end: 13 },
      { kind: 'eof', text: '', pos: 13, end: 13 },
    ]);
  });

  test('keywords are case-insensitive, field names keep their case', () => {
    const tokens = tokenize('Code EQ NULL aNd NoT In TRUE False');
    expect(tokens.map((t) => (t.kind === 'keyword' ? t.keyword : t.kind))).toEqual([
      'identifier',
      'eq',
      'null',
      'and',
      'not',
      'in',
      'true',
      'false',
      'eof',
    ]);
    expect(tokens[0]).toMatchObject({ kind: 'identifier', text: 'Code' });
    expect(tokens[1]).toMatchObject({ keyword: 'eq', text: 'EQ' });
  });

  test.each(['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'and', 'or', 'not', 'in', 'true', 'false', 'null'])('keyword %s', (k) => {
    expect(only(k.toUpperCase())).toMatchObject({ kind: 'keyword', keyword: k });
  });

  test('names that merely start with a keyword are identifiers', () => {
    expect(only('equals')).toMatchObject({ kind: 'identifier', text: 'equals' });
    expect(only('inactive')).toMatchObject({ kind: 'identifier', text: 'inactive' });
    expect(only('_null')).toMatchObject({ kind: 'identifier' });
  });

  test.each([
    ["''", ''],
    ["'abc'", 'abc'],
    ["'it''s'", "it's"],
    ["''''", "'"],
    ["'a''''b'", "a''b"],
    ["'10%'", '10%'],
    ["'a_b\\c'", 'a_b\\c'],
    ["'  spaced  '", '  spaced  '],
    ["'(eq, or)'", '(eq, or)'],
    ["'Zürich €'", 'Zürich €'],
  ])('string literal %s', (text, value) => {
    expect(only(text)).toMatchObject({ kind: 'string', value, text, pos: 0, end: text.length });
  });

  test.each(['0', '42', '-7', '19.99', '-0.0001', '000123', '12345678901234567890.123456789'])('number %s keeps its text', (text) => {
    expect(only(text)).toEqual({ kind: 'number', text, pos: 0, end: text.length });
  });

  test.each([
    '01234567-89ab-cdef-0123-456789abcdef',
    'ABCDEF01-2345-6789-ABCD-EF0123456789',
    'deadbeef-dead-beef-dead-beefdeadbeef',
    '12345678-1234-1234-1234-123456789012',
  ])('GUID %s', (text) => {
    expect(only(text)).toEqual({ kind: 'guid', text, pos: 0, end: text.length });
  });

  test.each(['2026-01-01', '2024-02-29', '0001-01-01', '9999-12-31'])('date %s', (text) => {
    expect(only(text)).toEqual({ kind: 'date', text, pos: 0, end: text.length });
  });

  test.each([
    '2026-01-01T00:00:00Z',
    '2026-01-01T00:00Z',
    '2026-01-01T12:34:56.789Z',
    '2026-01-01T12:34:56.7Z',
    '2026-01-01T12:34:56.123000000000Z',
    '2026-01-01T12:34:56+02:00',
    '2026-01-01T12:34:56.5-05:30',
    '2026-01-01t00:00:00z',
  ])('date-time %s', (text) => {
    expect(only(text)).toEqual({ kind: 'datetime', text, pos: 0, end: text.length });
  });

  test('punctuation and whitespace', () => {
    expect(kinds(' ( a ,\tb\n) ')).toEqual(['lparen', 'identifier', 'comma', 'identifier', 'rparen', 'eof']);
    const tokens = tokenize('x in (1,2)');
    expect(tokens.map((t) => t.pos)).toEqual([0, 2, 5, 6, 7, 8, 9, 10]);
  });

  test('a literal directly before a parenthesis or comma', () => {
    expect(kinds("contains(code,'x')")).toEqual(['identifier', 'lparen', 'identifier', 'comma', 'string', 'rparen', 'eof']);
    expect(kinds('x in (2026-01-01,2026-01-02T00:00Z)')).toEqual([
      'identifier',
      'keyword',
      'lparen',
      'date',
      'comma',
      'datetime',
      'rparen',
      'eof',
    ]);
  });

  test('an empty text gives just eof', () => {
    expect(tokenize('')).toEqual([{ kind: 'eof', text: '', pos: 0, end: 0 }]);
    expect(tokenize('   ')).toEqual([{ kind: 'eof', text: '', pos: 3, end: 3 }]);
  });

  test.each([
    ["code eq 'abc", 8, 'unterminated'],
    ["'abc''", 0, 'unterminated'],
    ['code eq "abc"', 8, "unexpected character '\"'"],
    ['a / b', 2, "unexpected character '/'"],
    ['a eq 1e', 5, 'malformed number'],
    ['a eq 1.', 5, 'malformed number'],
    ['a eq 1.2.3', 5, 'malformed number'],
    ['a eq 12abc', 5, 'malformed number'],
    ['a eq - 1', 5, "unexpected character '-'"],
    ['a eq .5', 5, "unexpected character '.'"],
    ['a eq 2026-13-01', 5, 'not a calendar date'],
    ['a eq 2026-02-30', 5, 'not a calendar date'],
    ['a eq 2025-02-29', 5, 'not a calendar date'],
    ['a eq 2026-01-01T24:00:00Z', 5, 'not a valid time'],
    ['a eq 2026-01-01T00:60Z', 5, 'not a valid time'],
    ['a eq 2026-01-01T00:00:00', 5, 'is not a date-time'],
    ['a eq 2026-01-01T00:00:00+2:00', 5, 'is not a date-time'],
    ['a eq 2026-01-01T00:00:00.0001Z', 5, 'more precise than milliseconds'],
    ['a eq 2026-01-01x', 5, 'malformed date'],
    ['a eq 2026-1-1', 5, 'malformed number'],
    ['a eq 01234567-89ab-cdef-0123-456789abcdeg', 5, 'malformed number'],
    ['a eq @', 5, "unexpected character '@'"],
    ['a eq 😀', 5, "unexpected character '😀'"],
  ])('%s fails at %i', (text, pos, message) => {
    const e = faultOf(text);
    expect(e.code).toBe('INVALID_QUERY');
    expect(e.detail).toContain(message);
    expect(e.detail).toMatch(new RegExp(`at position ${pos}$`));
  });

  test('the option name appears in the error', () => {
    try {
      tokenize('a @', '$orderby');
      throw new Error('should fail');
    } catch (e) {
      expect((e as AppError).detail).toBe("$orderby: unexpected character '@' at position 2");
    }
  });

  test('a GUID-looking prefix glued to more text is not a GUID', () => {
    expect(() => tokenize('01234567-89ab-cdef-0123-456789abcdef0')).toThrow(AppError);
  });
});
