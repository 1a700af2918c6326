import { paymentFields } from '../../../src/domain/payment/fields';
import { paymentSourceFields } from '../../../src/domain/payment-source/fields';
import { taxCodeFields } from '../../../src/domain/tax-code/fields';
import { AppError } from '../../../src/errors/catalogue';
import type { FieldCatalog } from '../../../src/query/fields';
import type { FilterNode } from '../../../src/query/filter-tree';
import { bindFilter } from '../../../src/rest/odata/bind';
import { parseFilter } from '../../../src/rest/odata/parser';

const bind = (text: string, fields: FieldCatalog = paymentSourceFields): FilterNode => bindFilter(parseFilter(text), fields);

function faultOf(text: string, fields: FieldCatalog = paymentSourceFields): AppError {
  try {
    bind(text, fields);
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`);
}

const NEVER: FilterNode = { kind: 'const', value: false };
const ALWAYS: FilterNode = { kind: 'const', value: true };
/** A condition on `field` folded to a constant: it still names the field (a personal field needs its scope). */
const never = (field: string): FilterNode => ({ kind: 'const', value: false, field });
const always = (field: string): FilterNode => ({ kind: 'const', value: true, field });
const GUID = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

describe('binding comparisons', () => {
  test('a string field compared with a string', () => {
    expect(bind("code eq 'BANK'")).toEqual({ kind: 'compare', field: 'code', op: 'eq', value: { type: 'string', value: 'BANK' } });
  });

  test.each(['eq', 'ne', 'gt', 'ge', 'lt', 'le'] as const)('string fields allow %s', (op) => {
    expect(bind(`name ${op} 'M'`)).toMatchObject({ kind: 'compare', op });
  });

  test('a literal on the left is mirrored', () => {
    expect(bind('10 lt amount', paymentFields)).toEqual({
      kind: 'compare',
      field: 'amount',
      op: 'gt',
      value: { type: 'decimal', value: '10' },
    });
    expect(bind('10 ge amount', paymentFields)).toMatchObject({ op: 'le' });
    expect(bind("'X' eq code")).toMatchObject({ field: 'code', op: 'eq' });
  });

  test('uuid fields take GUID literals and quoted GUIDs, in canonical lowercase', () => {
    const expected = { kind: 'compare', field: 'accountId', op: 'eq', value: { type: 'uuid', value: GUID } };
    expect(bind(`accountId eq ${GUID.toUpperCase()}`)).toEqual(expected);
    expect(bind(`accountId eq '${GUID.toUpperCase()}'`)).toEqual(expected);
  });

  test('decimal fields keep the exact text of integers and decimals', () => {
    expect(bind('amount eq 19.990', paymentFields)).toMatchObject({ value: { type: 'decimal', value: '19.990' } });
    expect(bind('amount gt -1', paymentFields)).toMatchObject({ value: { type: 'decimal', value: '-1' } });
    expect(bind('amount lt 123456789012345678901234567890.0001', paymentFields)).toMatchObject({
      value: { type: 'decimal', value: '123456789012345678901234567890.0001' },
    });
  });

  test('a date compared with a date-time field means midnight UTC', () => {
    const node = bind('createdAt ge 2026-03-01');
    expect(node).toMatchObject({ kind: 'compare', field: 'createdAt', op: 'ge', value: { type: 'datetime' } });
    expect((node as { value: { value: Date } }).value.value.toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });

  test.each([
    ['2026-03-01T00:00:00Z', '2026-03-01T00:00:00.000Z'],
    ['2026-03-01T01:30:00+02:00', '2026-02-28T23:30:00.000Z'],
    ['2026-03-01T22:00-05:00', '2026-03-02T03:00:00.000Z'],
    ['2026-03-01T12:00:00.5Z', '2026-03-01T12:00:00.500Z'],
    ['2026-03-01T12:00:00.123000Z', '2026-03-01T12:00:00.123Z'],
    ['2024-02-29T23:59:59.999Z', '2024-02-29T23:59:59.999Z'],
  ])('date-time %s is the instant %s', (literal, iso) => {
    const node = bind(`createdAt lt ${literal}`) as { value: { value: Date } };
    expect(node.value.value.toISOString()).toBe(iso);
  });

  test('enum fields take one of their string values', () => {
    expect(bind("sourceType eq 'Cash'")).toEqual({
      kind: 'compare',
      field: 'sourceType',
      op: 'eq',
      value: { type: 'enum', value: 'Cash' },
    });
    expect(bind("taxType eq 'Sales Tax'", taxCodeFields)).toMatchObject({ value: { type: 'enum', value: 'Sales Tax' } });
    expect(bind("sourceType gt 'Cash'")).toMatchObject({ op: 'gt' });
  });

  test('boolean fields take true and false', () => {
    expect(bind('isActive eq false')).toEqual({ kind: 'compare', field: 'isActive', op: 'eq', value: { type: 'boolean', value: false } });
    expect(bind('isDefault ne true')).toMatchObject({ op: 'ne', value: { value: true } });
  });

  test('a boolean field alone is a condition', () => {
    expect(bind('isActive')).toEqual({ kind: 'compare', field: 'isActive', op: 'eq', value: { type: 'boolean', value: true } });
    expect(bind('not isActive')).toEqual({
      kind: 'not',
      node: { kind: 'compare', field: 'isActive', op: 'eq', value: { type: 'boolean', value: true } },
    });
  });

  test('true and false alone are constants', () => {
    expect(bind('true')).toEqual(ALWAYS);
    expect(bind('false or isActive')).toMatchObject({ kind: 'or', nodes: [NEVER, { field: 'isActive' }] });
  });
});

describe('null', () => {
  test('eq null and ne null on a nullable field', () => {
    expect(bind('description eq null')).toEqual({ kind: 'compare', field: 'description', op: 'eq', value: null });
    expect(bind('description ne null')).toEqual({ kind: 'compare', field: 'description', op: 'ne', value: null });
    expect(bind('null eq updatedAt')).toEqual({ kind: 'compare', field: 'updatedAt', op: 'eq', value: null });
  });

  test('on a field that cannot be null they fold to constants', () => {
    expect(bind('code eq null')).toEqual(never('code'));
    expect(bind('code ne null')).toEqual(always('code'));
    expect(bind('isActive eq null')).toEqual(never('isActive'));
  });

  test.each(['gt', 'ge', 'lt', 'le'])('null with %s is refused at the literal', (op) => {
    const e = faultOf(`description ${op} null`);
    expect(e.detail).toBe(`$filter: null can only be compared with eq or ne, not ${op} at position ${13 + op.length}`);
  });

  test('tolower(x) eq null is x eq null', () => {
    expect(bind('tolower(description) eq null')).toEqual({ kind: 'compare', field: 'description', op: 'eq', value: null });
  });
});

describe('tolower / toupper', () => {
  test('a comparison ignoring case when the literal is in that case', () => {
    expect(bind("tolower(code) eq 'bank'")).toEqual({
      kind: 'compare',
      field: 'code',
      op: 'eq',
      value: { type: 'string', value: 'bank' },
      ignoreCase: true,
    });
    expect(bind("toupper(code) ne 'BANK'")).toMatchObject({ op: 'ne', ignoreCase: true });
    expect(bind("tolower(code) eq '10%_'")).toMatchObject({ value: { value: '10%_' }, ignoreCase: true });
  });

  test('a literal not in the requested case can never match', () => {
    expect(bind("tolower(code) eq 'Bank'")).toEqual(never('code'));
    expect(bind("toupper(code) eq 'bank'")).toEqual(never('code'));
    expect(bind("tolower(code) ne 'BANK'")).toEqual(always('code'));
    expect(bind("tolower(description) ne 'X'")).toEqual(always('description'));
  });

  test('in keeps only the values that can match', () => {
    expect(bind("tolower(code) in ('a', 'B', 'c')")).toEqual({
      kind: 'in',
      field: 'code',
      values: [
        { type: 'string', value: 'a' },
        { type: 'string', value: 'c' },
      ],
      ignoreCase: true,
    });
    expect(bind("toupper(code) in ('a')")).toEqual({ kind: 'in', field: 'code', values: [], ignoreCase: true });
  });

  test('text functions on tolower(field)', () => {
    expect(bind("contains(tolower(name), 'card')")).toEqual({
      kind: 'text',
      field: 'name',
      op: 'contains',
      value: 'card',
      ignoreCase: true,
    });
    expect(bind("startswith(toupper(name), 'CA')")).toMatchObject({ op: 'startswith', ignoreCase: true });
    expect(bind("endswith(tolower(name), 'Card')")).toEqual(never('name'));
  });
});

describe('text functions', () => {
  test.each([
    ["contains(code, '10%')", 'contains', '10%'],
    ["startswith(code, 'a_')", 'startswith', 'a_'],
    ["EndsWith(code, '\\')", 'endswith', '\\'],
    ["contains(description, '')", 'contains', ''],
  ])('%s', (text, op, value) => {
    const field = text.includes('description') ? 'description' : 'code';
    expect(bind(text)).toEqual({ kind: 'text', field, op, value });
  });

  test('a text function compared with true or false', () => {
    expect(bind("contains(code, 'x') eq true")).toEqual({ kind: 'text', field: 'code', op: 'contains', value: 'x' });
    expect(bind("contains(code, 'x') eq false")).toEqual({
      kind: 'not',
      node: { kind: 'text', field: 'code', op: 'contains', value: 'x' },
    });
    expect(bind("true eq contains(code, 'x')")).toEqual({ kind: 'text', field: 'code', op: 'contains', value: 'x' });
    expect(bind("(code eq 'a' or isActive) eq false")).toMatchObject({ kind: 'not', node: { kind: 'or' } });
  });
});

describe('in', () => {
  test('a list of values of the field type', () => {
    expect(bind("sourceType in ('Cash', 'Check')")).toEqual({
      kind: 'in',
      field: 'sourceType',
      values: [
        { type: 'enum', value: 'Cash' },
        { type: 'enum', value: 'Check' },
      ],
    });
    expect(bind('amount in (1, 2.50)', paymentFields)).toMatchObject({ values: [{ value: '1' }, { value: '2.50' }] });
  });

  test('an empty list', () => {
    expect(bind('code in ()')).toEqual({ kind: 'in', field: 'code', values: [] });
  });

  test('null in the list means "or null" on a nullable field, and is dropped otherwise', () => {
    expect(bind("description in ('a', null)")).toEqual({
      kind: 'or',
      nodes: [
        { kind: 'in', field: 'description', values: [{ type: 'string', value: 'a' }] },
        { kind: 'compare', field: 'description', op: 'eq', value: null },
      ],
    });
    expect(bind('description in (null)')).toEqual({ kind: 'compare', field: 'description', op: 'eq', value: null });
    expect(bind("code in ('a', null)")).toEqual({ kind: 'in', field: 'code', values: [{ type: 'string', value: 'a' }] });
  });
});

describe('logic', () => {
  test('and / or chains are flattened, parentheses kept as structure', () => {
    expect(bind("code eq 'a' and name eq 'b' and isActive")).toMatchObject({ kind: 'and', nodes: [{}, {}, {}] });
    expect(bind("code eq 'a' or (name eq 'b' or isActive)")).toMatchObject({ kind: 'or', nodes: [{}, {}, {}] });
    expect(bind("code eq 'a' and (name eq 'b' or isActive)")).toMatchObject({
      kind: 'and',
      nodes: [{ kind: 'compare' }, { kind: 'or', nodes: [{}, {}] }],
    });
  });

  test('not', () => {
    expect(bind("not (code eq 'a')")).toEqual({
      kind: 'not',
      node: { kind: 'compare', field: 'code', op: 'eq', value: { type: 'string', value: 'a' } },
    });
  });
});

// [filter, position, message fragment]
const FAULTS: ReadonlyArray<readonly [string, number, string]> = [
  ["foo eq 'a'", 0, "unknown field 'foo'"],
  ["Code eq 'a'", 0, "unknown field 'Code'"],
  ["code eq 'a' and bar eq 1", 16, "unknown field 'bar'"],
  ["constructor eq 'a'", 0, "unknown field 'constructor'"],
  ["__proto__ eq 'a'", 0, "unknown field '__proto__'"],
  ["tolower(nope) eq 'a'", 8, "unknown field 'nope'"],
  ["contains(nope, 'a')", 9, "unknown field 'nope'"],
  ["nope in ('a')", 0, "unknown field 'nope'"],
  ['nope', 0, "unknown field 'nope'"],
  ["'a' eq nope", 7, "unknown field 'nope'"],
  ['code eq 1', 8, "field 'code' is a string; a number does not fit"],
  ['code eq true', 8, 'a boolean does not fit'],
  [`code eq ${GUID}`, 8, 'a GUID does not fit'],
  ['code eq 2026-01-01', 8, 'a date does not fit'],
  ["accountId eq 'abc'", 13, "field 'accountId' is a GUID; 'abc' is not one"],
  ['accountId eq 1', 13, 'a number does not fit'],
  ["isActive eq 'true'", 12, "field 'isActive' is a boolean; a string does not fit"],
  ['isActive eq 1', 12, 'a number does not fit'],
  ["createdAt gt '2026-01-01'", 13, "field 'createdAt' is a date-time (a date means midnight UTC); a string does not fit"],
  ['createdAt gt 20260101', 13, 'a number does not fit'],
  [
    "sourceType eq 'cash'",
    14,
    "'cash' is not a value of field 'sourceType'; allowed: 'BankTransfer', 'CreditCard', 'DebitCard', 'Cash', 'Check', 'DirectDebit', 'OnlineWallet', 'Other'",
  ],
  ['sourceType eq 1', 14, 'a number does not fit'],
  ["sourceType in ('Cash', 'Coins')", 23, "'Coins' is not a value of field 'sourceType'"],
  ["code in ('a', 2)", 14, 'a number does not fit'],
  ['isActive gt false', 9, "gt is not defined for the boolean field 'isActive'"],
  ['isActive le true', 9, 'le is not defined'],
  ['false lt isActive', 6, 'gt is not defined'],
  ["tolower(amount) eq '1'", 0, "tolower() applies only to text fields; 'amount' is a number"],
  ["toupper(sourceType) eq 'CASH'", 0, 'toupper() applies only to text fields'],
  ["tolower(code) gt 'a'", 14, 'tolower() can only be used with eq, ne, in and the text functions, not gt'],
  ["tolower('abc') eq 'abc'", 8, 'tolower() takes a field'],
  ["contains(isActive, 'a')", 9, "contains applies only to text fields; 'isActive' is a boolean"],
  ["startswith(accountId, '0a')", 11, 'startswith applies only to text fields'],
  ['contains(code, 1)', 15, 'contains needs a string literal'],
  ['contains(code, null)', 15, 'contains needs a string literal'],
  ["contains('abc', code)", 9, 'the first argument of contains() must be a field'],
  ['contains(code, name)', 15, 'the second argument of contains() must be a string literal'],
  ["contains(tolower(amount), 'a')", 17, "contains applies only to text fields; 'amount' is a number"],
  ["tolower(code) eq 'a' and contains(tolower(isActive), 'a')", 42, 'contains applies only to text fields'],
  ['code eq name', 8, 'comparing two fields is not supported'],
  ["'a' eq 1", 4, 'cannot compare string with number'],
  ['tolower(code)', 0, 'tolower() gives text, not a condition'],
  ["contains(code, 'a') ne true", 20, 'can only be compared with true or false using eq'],
  ['code', 0, "'code' is not a boolean field"],
  ['not code', 4, "'code' is not a boolean field"],
  ["not code eq 'x'", 0, "'not' applies only to the operand right after it"],
  ["'abc'", 0, 'a literal alone is not a condition'],
  ['null', 0, 'a literal alone is not a condition'],
  ["code in ('a') in ('b')", 14, 'cannot be chained'],
  ["(code eq 'a') eq 'x'", 1, 'a comparison needs a field on one side'],
  ["code eq (name eq 'a')", 9, "expected a literal to compare 'code' with"],
  ["(code eq 'a') in (true)", 1, "the left side of 'in' must be a field"],
  ['createdAt eq 2026-01-01T00:00:00.0001Z', 13, 'more precise than milliseconds'],
];

describe('faults', () => {
  test.each(FAULTS)('%s → position %i', (text, pos, fragment) => {
    const e = faultOf(text, { ...paymentSourceFields, amount: paymentFields.amount });
    expect(e.code).toBe('INVALID_QUERY');
    expect(e.detail).toContain(fragment);
    expect(e.detail.endsWith(` at position ${pos}`)).toBe(true);
  });

  test('an unknown field names the known ones', () => {
    expect(faultOf('nope eq 1', paymentFields).detail).toBe(
      "$filter: unknown field 'nope' (known: id, paymentSourceId, customerId, amount, receivedAt, reference, createdAt, createdById) at position 0",
    );
  });
});
