import { paymentFields } from '../../src/domain/payment/fields';
import { paymentSourceFields } from '../../src/domain/payment-source/fields';
import { taxCodeFields } from '../../src/domain/tax-code/fields';
import { AppError } from '../../src/errors/catalogue';
import type { FieldCatalog } from '../../src/query/fields';
import type { FilterNode } from '../../src/query/filter-tree';
import { graphqlWhereToFilter, MAX_WHERE_DEPTH } from '../../src/graphql/where';
import { bindFilter } from '../../src/rest/odata/bind';
import { parseFilter } from '../../src/rest/odata/parser';
import { toPrismaWhere } from '../support/prisma-where';

const fields: FieldCatalog = { ...paymentSourceFields, amount: paymentFields.amount };
const gql = (where: unknown, catalog: FieldCatalog = fields): FilterNode | undefined => graphqlWhereToFilter(where, catalog);
const odata = (text: string, catalog: FieldCatalog = fields): FilterNode => bindFilter(parseFilter(text), catalog);

function faultOf(where: unknown, catalog: FieldCatalog = fields): AppError {
  try {
    gql(where, catalog);
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(where)} to be refused`);
}

const GUID = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

describe('graphqlWhereToFilter', () => {
  test('no where, or an empty one, is no filter', () => {
    expect(gql(undefined)).toBeUndefined();
    expect(gql(null)).toBeUndefined();
    expect(gql({})).toBeUndefined();
    expect(gql({ code: {} })).toBeUndefined();
    expect(gql({ code: { eq: undefined } })).toBeUndefined();
  });

  test('one operator', () => {
    expect(gql({ isActive: { eq: true } })).toEqual(odata('isActive eq true'));
    expect(gql({ code: { ne: 'X' } })).toEqual(odata("code ne 'X'"));
  });

  // The same conditions through both doors give the same tree.
  test.each<[unknown, string]>([
    [{ code: { eq: 'A' } }, "code eq 'A'"],
    [{ name: { gt: 'M' } }, "name gt 'M'"],
    [{ name: { ge: 'M' } }, "name ge 'M'"],
    [{ name: { lt: 'M' } }, "name lt 'M'"],
    [{ name: { le: 'M' } }, "name le 'M'"],
    [{ code: { in: ['a', 'b'] } }, "code in ('a', 'b')"],
    [{ code: { in: [] } }, 'code in ()'],
    [{ code: { contains: '10%' } }, "contains(code, '10%')"],
    [{ code: { startsWith: 'a_' } }, "startswith(code, 'a_')"],
    [{ code: { endsWith: 'z' } }, "endswith(code, 'z')"],
    [{ description: { eq: null } }, 'description eq null'],
    [{ description: { ne: null } }, 'description ne null'],
    [{ description: { isNull: true } }, 'description eq null'],
    [{ description: { isNull: false } }, 'description ne null'],
    [{ code: { eq: null } }, 'code eq null'],
    [{ code: { isNull: false } }, 'code ne null'],
    [{ accountId: { eq: GUID } }, `accountId eq ${GUID}`],
    [{ accountId: { eq: GUID.toUpperCase() } }, `accountId eq ${GUID}`],
    [{ amount: { gt: '10.50' } }, 'amount gt 10.50'],
    [{ amount: { in: ['1', '2.5'] } }, 'amount in (1, 2.5)'],
    [{ amount: { eq: 3 } }, 'amount eq 3'],
    [{ createdAt: { ge: new Date('2026-01-01T00:00:00Z') } }, 'createdAt ge 2026-01-01'],
    [{ createdAt: { ge: '2026-01-01' } }, 'createdAt ge 2026-01-01'],
    [{ createdAt: { lt: '2026-01-01T10:00:00+02:00' } }, 'createdAt lt 2026-01-01T08:00:00Z'],
    [{ sourceType: { eq: 'Cash' } }, "sourceType eq 'Cash'"],
    [{ sourceType: { in: ['Cash', 'Check'] } }, "sourceType in ('Cash', 'Check')"],
    [{ description: { in: ['a', null] } }, "description in ('a', null)"],
    [{ isActive: { ne: false } }, 'isActive ne false'],
  ])('%j is the same as %s', (where, text) => {
    expect(gql(where)).toEqual(odata(text));
  });

  test('enums arrive as their string values, spaces included', () => {
    expect(gql({ taxType: { eq: 'Sales Tax' } }, taxCodeFields)).toEqual({
      kind: 'compare',
      field: 'taxType',
      op: 'eq',
      value: { type: 'enum', value: 'Sales Tax' },
    });
  });

  test('ignoreCase: compare ignoring case whatever the literal case', () => {
    expect(gql({ code: { eq: 'BaNk', ignoreCase: true } })).toEqual({
      kind: 'compare',
      field: 'code',
      op: 'eq',
      value: { type: 'string', value: 'BaNk' },
      ignoreCase: true,
    });
    expect(gql({ code: { in: ['A', 'b'], ignoreCase: true } })).toMatchObject({
      kind: 'in',
      values: [{ value: 'A' }, { value: 'b' }],
      ignoreCase: true,
    });
    expect(gql({ code: { contains: 'X_', ignoreCase: true } })).toEqual({
      kind: 'text',
      field: 'code',
      op: 'contains',
      value: 'X_',
      ignoreCase: true,
    });
    expect(gql({ code: { eq: 'a', ignoreCase: false } })).toEqual(odata("code eq 'a'"));
    expect(gql({ code: { eq: 'a', ignoreCase: null } })).toEqual(odata("code eq 'a'"));
  });

  test('several operators in one field object are ANDed', () => {
    expect(gql({ amount: { ge: '1', lt: '10' } })).toEqual({ kind: 'and', nodes: [odata('amount ge 1'), odata('amount lt 10')] });
  });

  test('several fields in one object are ANDed', () => {
    expect(gql({ code: { eq: 'a' }, isActive: { eq: true } })).toEqual({ kind: 'and', nodes: [odata("code eq 'a'"), odata('isActive')] });
  });

  test('AND, OR, NOT', () => {
    expect(gql({ OR: [{ code: { eq: 'a' } }, { code: { eq: 'b' } }] })).toEqual({
      kind: 'or',
      nodes: [odata("code eq 'a'"), odata("code eq 'b'")],
    });
    expect(gql({ AND: [{ code: { eq: 'a' } }, { isActive: { eq: true } }] })).toEqual({
      kind: 'and',
      nodes: [odata("code eq 'a'"), odata('isActive')],
    });
    expect(gql({ NOT: { isActive: { eq: true } } })).toEqual({ kind: 'not', node: odata('isActive') });
    expect(gql({ isDefault: { eq: false }, OR: [{ code: { eq: 'a' } }], NOT: { name: { eq: 'n' } } })).toEqual({
      kind: 'and',
      nodes: [odata('isDefault eq false'), { kind: 'or', nodes: [odata("code eq 'a'")] }, { kind: 'not', node: odata("name eq 'n'") }],
    });
  });

  test('empty AND holds, empty OR does not; null AND/OR/NOT are absent', () => {
    // An empty AND at the top is no filter at all.
    expect(gql({ AND: [] })).toBeUndefined();
    expect(gql({ OR: [] })).toEqual({ kind: 'or', nodes: [] });
    expect(toPrismaWhere(gql({ OR: [] }), fields)).toEqual({ id: { in: [] } });
    expect(toPrismaWhere(gql({ code: { eq: 'a' }, AND: [] }), fields)).toEqual({ code: { equals: 'a' } });
    expect(gql({ AND: null, OR: null, NOT: null })).toBeUndefined();
  });

  test('objects with a null prototype (as graphql-js may build them)', () => {
    const where = Object.assign(Object.create(null) as Record<string, unknown>, {
      code: Object.assign(Object.create(null) as Record<string, unknown>, { eq: 'a' }),
    });
    expect(gql(where)).toEqual(odata("code eq 'a'"));
  });

  test('the same folding as OData', () => {
    expect(gql({ code: { eq: null } })).toEqual({ kind: 'const', value: false, field: 'code' });
  });
});

// [where, path in the message, fragment]
const FAULTS: ReadonlyArray<readonly [unknown, string, string]> = [
  [{ nope: { eq: 1 } }, 'where.nope', "unknown field 'nope'"],
  [{ constructor: { eq: 'x' } }, 'where.constructor', "unknown field 'constructor'"],
  [{ OR: [{ code: { eq: 'a' } }, { nope: { eq: 1 } }] }, 'where.OR[1].nope', "unknown field 'nope'"],
  [{ NOT: { AND: [{ code: { eq: 1 } }] } }, 'where.NOT.AND[0].code.eq', "field 'code' is a string; a number does not fit"],
  [{ code: { like: 'a' } }, 'where.code.like', "unknown operator 'like'"],
  [{ code: 'a' }, 'where.code', 'expected an object of operators'],
  [{ code: { eq: 1 } }, 'where.code.eq', 'a number does not fit'],
  [{ code: { eq: ['a'] } }, 'where.code.eq', 'expected a scalar value'],
  [{ code: { eq: { a: 1 } } }, 'where.code.eq', 'expected a scalar value'],
  [{ accountId: { eq: 'not-a-guid' } }, 'where.accountId.eq', "'not-a-guid' is not one"],
  [{ isActive: { eq: 'true' } }, 'where.isActive.eq', 'a string does not fit'],
  [{ isActive: { gt: false } }, 'where.isActive.gt', "gt is not defined for the boolean field 'isActive'"],
  [{ amount: { gt: '1e5' } }, 'where.amount.gt', "'1e5' is not a plain decimal number"],
  [{ amount: { gt: 'ten' } }, 'where.amount.gt', 'not a plain decimal number'],
  [{ amount: { gt: 1e21 } }, 'where.amount.gt', 'not a plain decimal number'],
  [{ amount: { gt: Number.NaN } }, 'where.amount.gt', 'expected a finite number'],
  [{ amount: { gt: true } }, 'where.amount.gt', 'a boolean does not fit'],
  [{ createdAt: { gt: 'yesterday' } }, 'where.createdAt.gt', 'is not a date-time'],
  [{ createdAt: { gt: new Date('nonsense') } }, 'where.createdAt.gt', 'the value is not a valid date'],
  [{ createdAt: { gt: '2026-02-30' } }, 'where.createdAt.gt', 'not a calendar date'],
  [{ sourceType: { eq: 'Coins' } }, 'where.sourceType.eq', "'Coins' is not a value of field 'sourceType'; allowed: 'BankTransfer'"],
  [{ sourceType: { in: ['Cash', 'Coins'] } }, 'where.sourceType.in[1]', "'Coins' is not a value"],
  [{ code: { in: 'a' } }, 'where.code.in', 'expected a list'],
  [{ code: { in: ['a', 2] } }, 'where.code.in[1]', 'a number does not fit'],
  [{ code: { gt: null } }, 'where.code.gt', 'null can only be compared with eq or ne, not gt'],
  [{ code: { contains: null } }, 'where.code.contains', 'contains needs a string literal'],
  [{ code: { contains: 5 } }, 'where.code.contains', 'contains needs a string literal'],
  [{ amount: { contains: '1' } }, 'where.amount.contains', 'contains applies only to text fields'],
  [{ sourceType: { startsWith: 'C' } }, 'where.sourceType.startsWith', 'startswith applies only to text fields'],
  [{ code: { isNull: 'yes' } }, 'where.code.isNull', 'expected true or false'],
  [{ code: { isNull: null } }, 'where.code.isNull', 'expected true or false'],
  [{ code: { eq: 'a', ignoreCase: 'yes' } }, 'where.code.ignoreCase', 'expected a boolean'],
  [{ code: { gt: 'a', ignoreCase: true } }, 'where.code.gt', 'ignoreCase can only be used with eq, ne, in and the text functions, not gt'],
  [{ amount: { eq: '1', ignoreCase: true } }, 'where.amount.eq', "ignoreCase applies only to text fields; 'amount' is a number"],
  [{ isActive: { ignoreCase: true } }, 'where.isActive.ignoreCase', 'ignoreCase applies only to text fields'],
  [{ AND: { code: { eq: 'a' } } }, 'where.AND', 'expected a list of where objects'],
  [{ OR: ['x'] }, 'where.OR[0]', 'expected an object'],
  [{ NOT: [] }, 'where.NOT', 'expected an object'],
  ['code', 'where', 'expected an object'],
  [[{ code: { eq: 'a' } }], 'where', 'expected an object'],
];

describe('faults', () => {
  test.each(FAULTS)('%j → %s', (where, path, fragment) => {
    const e = faultOf(where);
    expect(e.code).toBe('INVALID_QUERY');
    expect(e.status).toBe(400);
    expect(e.detail.startsWith(`${path}: `)).toBe(true);
    expect(e.detail).toContain(fragment);
  });

  test(`nesting deeper than ${MAX_WHERE_DEPTH} is refused (a where can come from variables)`, () => {
    let deep: unknown = { code: { eq: 'a' } };
    for (let i = 0; i < MAX_WHERE_DEPTH; i++) deep = { NOT: deep };
    expect(() => gql(deep)).not.toThrow();
    expect(faultOf({ NOT: deep }).detail).toMatch(/nested deeper than 50 levels/);
  });

  test('too many conditions are refused', () => {
    const many = { OR: Array.from({ length: 1001 }, (_, i) => ({ code: { eq: `c${i}` } })) };
    expect(faultOf(many).detail).toMatch(/more than 1000 conditions/);
  });
});
