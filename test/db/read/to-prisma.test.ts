import { paymentFields } from '../../../src/domain/payment/fields';
import { paymentSourceFields } from '../../../src/domain/payment-source/fields';
import type { FieldCatalog } from '../../../src/query/fields';
import type { FilterNode } from '../../../src/query/filter-tree';
import { bindFilter } from '../../../src/rest/odata/bind';
import { parseFilter } from '../../../src/rest/odata/parser';
import { escapeLike, toPrismaOrderBy, toPrismaWhere } from '../../support/prisma-where';

const fields: FieldCatalog = { ...paymentSourceFields, amount: paymentFields.amount, reference: paymentFields.reference };
const where = (odata: string): Record<string, unknown> => toPrismaWhere(bindFilter(parseFilter(odata), fields), fields);
const NOTHING = { id: { in: [] } };

describe('escapeLike', () => {
  test.each([
    ['plain', 'plain'],
    ['10%', '10\\%'],
    ['a_b', 'a\\_b'],
    ['back\\slash', 'back\\\\slash'],
    ['%_\\', '\\%\\_\\\\'],
    ['', ''],
  ])('%j → %j', (input, output) => {
    expect(escapeLike(input)).toBe(output);
  });
});

describe('toPrismaWhere', () => {
  test('no filter, or one that always holds, is {}', () => {
    expect(toPrismaWhere(undefined, fields)).toEqual({});
    expect(where('true')).toEqual({});
    expect(where('code ne null')).toEqual({});
  });

  test('a filter that never holds matches nothing', () => {
    expect(where('false')).toEqual(NOTHING);
    expect(where('code in ()')).toEqual(NOTHING);
    expect(where("tolower(code) eq 'ABC'")).toEqual(NOTHING);
    expect(where('code eq null')).toEqual(NOTHING);
  });

  test('comparisons', () => {
    expect(where("code eq 'A'")).toEqual({ code: { equals: 'A' } });
    expect(where("code ne 'A'")).toEqual({ code: { not: 'A' } });
    expect(where("name gt 'M'")).toEqual({ name: { gt: 'M' } });
    expect(where("name ge 'M'")).toEqual({ name: { gte: 'M' } });
    expect(where("name lt 'M'")).toEqual({ name: { lt: 'M' } });
    expect(where("name le 'M'")).toEqual({ name: { lte: 'M' } });
  });

  test('decimals are passed as exact text, never as numbers', () => {
    expect(where('amount ge 0.10')).toEqual({ amount: { gte: '0.10' } });
    expect(where('amount eq 12345678901234567890.0001')).toEqual({ amount: { equals: '12345678901234567890.0001' } });
    expect(where('amount in (1, 2.5)')).toEqual({ amount: { in: ['1', '2.5'] } });
  });

  test('date-times are Dates; a date is midnight UTC', () => {
    expect(where('createdAt ge 2026-01-01')).toEqual({ createdAt: { gte: new Date('2026-01-01T00:00:00.000Z') } });
    expect(where('createdAt lt 2026-01-01T02:00+02:00')).toEqual({ createdAt: { lt: new Date('2026-01-01T00:00:00.000Z') } });
  });

  test('uuids are lowercase', () => {
    expect(where("accountId eq 'ABCDEF01-2345-6789-ABCD-EF0123456789'")).toEqual({
      accountId: { equals: 'abcdef01-2345-6789-abcd-ef0123456789' },
    });
  });

  test('null comparisons', () => {
    expect(where('description eq null')).toEqual({ description: null });
    expect(where('description ne null')).toEqual({ description: { not: null } });
    expect(where('not (description eq null)')).toEqual({ description: { not: null } });
    expect(where('not (description ne null)')).toEqual({ description: null });
  });

  test('ne on a nullable field also selects the nulls (OData: null ne x is true)', () => {
    expect(where("description ne 'x'")).toEqual({ OR: [{ description: { not: 'x' } }, { description: null }] });
    expect(where("code ne 'x'")).toEqual({ code: { not: 'x' } });
  });

  test('not is pushed to the leaves, each replaced by its exact complement', () => {
    expect(where("not (code eq 'a')")).toEqual({ code: { not: 'a' } });
    expect(where("not (description eq 'a')")).toEqual({ OR: [{ description: { not: 'a' } }, { description: null }] });
    expect(where("not (description ne 'a')")).toEqual({ description: { equals: 'a' } });
    expect(where('not (updatedAt gt 2026-01-01)')).toEqual({
      OR: [{ updatedAt: { lte: new Date('2026-01-01T00:00:00Z') } }, { updatedAt: null }],
    });
    expect(where('not (amount lt 5)')).toEqual({ amount: { gte: '5' } });
    expect(where("not (code eq 'a' and name eq 'b')")).toEqual({ OR: [{ code: { not: 'a' } }, { name: { not: 'b' } }] });
    expect(where("not (code eq 'a' or name eq 'b')")).toEqual({ AND: [{ code: { not: 'a' } }, { name: { not: 'b' } }] });
    expect(where("not not (code eq 'a')")).toEqual({ code: { equals: 'a' } });
    expect(where('not true')).toEqual(NOTHING);
  });

  test('text functions escape %, _ and \\', () => {
    expect(where("contains(code, '10%')")).toEqual({ code: { contains: '10\\%' } });
    expect(where("startswith(code, 'a_')")).toEqual({ code: { startsWith: 'a\\_' } });
    expect(where("endswith(code, '\\')")).toEqual({ code: { endsWith: '\\\\' } });
    expect(where("contains(tolower(name), 'x_y')")).toEqual({ name: { contains: 'x\\_y', mode: 'insensitive' } });
  });

  test('a negated text function keeps nulls out (not(contains(null, ...)) is null)', () => {
    expect(where("not contains(description, 'x')")).toEqual({ NOT: { description: { contains: 'x' } } });
    expect(where("not startswith(tolower(code), 'x')")).toEqual({ NOT: { code: { startsWith: 'x', mode: 'insensitive' } } });
  });

  test('ignoring case: eq / ne / in become in / notIn + insensitive (LOWER() IN, no ILIKE wildcards)', () => {
    expect(where("tolower(code) eq 'a_b'")).toEqual({ code: { in: ['a_b'], mode: 'insensitive' } });
    expect(where("tolower(code) ne 'a_b'")).toEqual({ code: { notIn: ['a_b'], mode: 'insensitive' } });
    expect(where("tolower(description) ne 'x'")).toEqual({
      OR: [{ description: { notIn: ['x'], mode: 'insensitive' } }, { description: null }],
    });
    expect(where("tolower(code) in ('a', 'B', 'c%')")).toEqual({ code: { in: ['a', 'c%'], mode: 'insensitive' } });
    expect(where("not (tolower(code) in ('a'))")).toEqual({ code: { notIn: ['a'], mode: 'insensitive' } });
  });

  test('in', () => {
    expect(where("code in ('a', 'b')")).toEqual({ code: { in: ['a', 'b'] } });
    expect(where("not (code in ('a'))")).toEqual({ code: { notIn: ['a'] } });
    expect(where("not (description in ('a'))")).toEqual({ OR: [{ description: { notIn: ['a'] } }, { description: null }] });
    expect(where('not (code in ())')).toEqual({});
    expect(where("description in ('a', null)")).toEqual({ OR: [{ description: { in: ['a'] } }, { description: null }] });
  });

  test('booleans compile to equality (Prisma has no gt / in for booleans)', () => {
    expect(where('isActive')).toEqual({ isActive: true });
    expect(where('isActive eq false')).toEqual({ isActive: false });
    expect(where('isActive ne true')).toEqual({ isActive: false });
    expect(where('not isActive')).toEqual({ isActive: false });
    expect(where('isActive in (true, false)')).toEqual({});
    expect(where('isActive in (true)')).toEqual({ isActive: true });
    expect(where('not (isActive in (true))')).toEqual({ isActive: false });
    const gt: FilterNode = { kind: 'compare', field: 'isActive', op: 'gt', value: { type: 'boolean', value: false } };
    expect(toPrismaWhere(gt, fields)).toEqual({ isActive: true });
    const gtTrue: FilterNode = { kind: 'compare', field: 'isActive', op: 'gt', value: { type: 'boolean', value: true } };
    expect(toPrismaWhere(gtTrue, fields)).toEqual(NOTHING);
  });

  test('enums: eq/ne/in as they are; ordering by string value as a set (Prisma enum filters cannot order)', () => {
    expect(where("sourceType eq 'Cash'")).toEqual({ sourceType: { equals: 'Cash' } });
    expect(where("sourceType ne 'Cash'")).toEqual({ sourceType: { not: 'Cash' } });
    expect(where("sourceType in ('Cash', 'Check')")).toEqual({ sourceType: { in: ['Cash', 'Check'] } });
    expect(where("sourceType lt 'Check'")).toEqual({ sourceType: { in: ['BankTransfer', 'Cash'] } });
    expect(where("sourceType ge 'OnlineWallet'")).toEqual({ sourceType: { in: ['OnlineWallet', 'Other'] } });
    expect(where("sourceType gt 'Other'")).toEqual(NOTHING);
    expect(where("sourceType ge 'BankTransfer'")).toEqual({});
    expect(where("not (sourceType lt 'Check')")).toEqual({
      sourceType: { in: ['Check', 'CreditCard', 'DebitCard', 'DirectDebit', 'OnlineWallet', 'Other'] },
    });
  });

  test('constants fold away inside and / or', () => {
    expect(where("code eq 'a' and true")).toEqual({ code: { equals: 'a' } });
    expect(where("code eq 'a' and false")).toEqual(NOTHING);
    expect(where("code eq 'a' or true")).toEqual({});
    expect(where("code eq 'a' or false")).toEqual({ code: { equals: 'a' } });
    expect(where("code eq 'a' or tolower(code) eq 'B'")).toEqual({ code: { equals: 'a' } });
  });

  test('nested logic', () => {
    expect(where("(code eq 'a' or code eq 'b') and isActive")).toEqual({
      AND: [{ OR: [{ code: { equals: 'a' } }, { code: { equals: 'b' } }] }, { isActive: true }],
    });
  });

  test('a field missing from the catalogue is a programming error', () => {
    const node: FilterNode = { kind: 'compare', field: 'ghost', op: 'eq', value: { type: 'string', value: 'x' } };
    expect(() => toPrismaWhere(node, fields)).toThrow(/ghost/);
  });
});

describe('toPrismaOrderBy', () => {
  test('no keys: id ascending', () => {
    expect(toPrismaOrderBy([], fields)).toEqual([{ id: 'asc' }]);
  });

  test('id is appended as the tie-breaker, ascending whatever the direction', () => {
    expect(toPrismaOrderBy([{ field: 'name', direction: 'desc' }], fields)).toEqual([{ name: 'desc' }, { id: 'asc' }]);
    expect(
      toPrismaOrderBy(
        [
          { field: 'name', direction: 'asc' },
          { field: 'code', direction: 'desc' },
        ],
        fields,
      ),
    ).toEqual([{ name: 'asc' }, { code: 'desc' }, { id: 'asc' }]);
  });

  test('not appended when id is a key already', () => {
    expect(toPrismaOrderBy([{ field: 'id', direction: 'desc' }], fields)).toEqual([{ id: 'desc' }]);
    expect(
      toPrismaOrderBy(
        [
          { field: 'id', direction: 'asc' },
          { field: 'name', direction: 'asc' },
        ],
        fields,
      ),
    ).toEqual([{ id: 'asc' }, { name: 'asc' }]);
  });

  test('nullable fields say where nulls go: first ascending, last descending (OData)', () => {
    expect(
      toPrismaOrderBy(
        [
          { field: 'description', direction: 'asc' },
          { field: 'updatedAt', direction: 'desc' },
          { field: 'code', direction: 'desc' },
        ],
        fields,
      ),
    ).toEqual([
      { description: { sort: 'asc', nulls: 'first' } },
      { updatedAt: { sort: 'desc', nulls: 'last' } },
      { code: 'desc' },
      { id: 'asc' },
    ]);
  });
});
