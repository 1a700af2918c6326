import Decimal from 'decimal.js';
import { paymentFields } from '../../src/domain/payment/fields';
import { paymentSourceFields } from '../../src/domain/payment-source/fields';
import { AppError } from '../../src/errors/catalogue';
import type { FieldCatalog } from '../../src/query/fields';
import type { SortKey } from '../../src/query/filter-tree';
import { encodeCursor } from '../../src/query/cursor';
import { cursorToWhere } from '../support/prisma-where';

const fields: FieldCatalog = { ...paymentSourceFields, amount: paymentFields.amount };
const ID = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const decode = (cursor: string): unknown => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
const encodeRaw = (payload: unknown): string => Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');

function faultOf(cursor: string, keys: readonly SortKey[]): AppError {
  try {
    cursorToWhere(cursor, keys, fields);
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected the cursor to be refused');
}

describe('encodeCursor', () => {
  test('base64url of the sort keys, their values and the id', () => {
    const cursor = encodeCursor([{ field: 'code', direction: 'asc' }], { id: ID, code: 'BANK', name: 'x' });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decode(cursor)).toEqual({ k: ['code:asc'], p: ['BANK'], id: ID });
  });

  test('decimals and date-times stay exact', () => {
    const cursor = encodeCursor(
      [
        { field: 'amount', direction: 'desc' },
        { field: 'createdAt', direction: 'asc' },
        { field: 'updatedAt', direction: 'asc' },
      ],
      { id: ID, amount: new Decimal('12345678901234567.0001'), createdAt: new Date('2026-01-02T03:04:05.678Z'), updatedAt: null },
    );
    expect(decode(cursor)).toEqual({
      k: ['amount:desc', 'createdAt:asc', 'updatedAt:asc'],
      p: ['12345678901234567.0001', '2026-01-02T03:04:05.678Z', null],
      id: ID,
    });
  });

  test('tiny and huge decimals never use exponent notation', () => {
    const cursor = encodeCursor([{ field: 'amount', direction: 'asc' }], { id: ID, amount: new Decimal('0.00000001') });
    expect(decode(cursor)).toMatchObject({ p: ['0.00000001'] });
  });

  test('a record without the sort field or the id is a programming error', () => {
    expect(() => encodeCursor([{ field: 'code', direction: 'asc' }], { id: ID })).toThrow(/code/);
    expect(() => encodeCursor([], { code: 'x' })).toThrow(/id/);
  });
});

describe('cursorToWhere', () => {
  test('only the id: everything after it', () => {
    const cursor = encodeCursor([], { id: ID });
    expect(cursorToWhere(cursor, [], fields)).toEqual({ id: { gt: ID } });
  });

  test('one ascending key: greater, or equal and a greater id', () => {
    const keys: SortKey[] = [{ field: 'code', direction: 'asc' }];
    const cursor = encodeCursor(keys, { id: ID, code: 'M' });
    expect(cursorToWhere(cursor, keys, fields)).toEqual({
      OR: [{ code: { gt: 'M' } }, { AND: [{ code: { equals: 'M' } }, { id: { gt: ID } }] }],
    });
  });

  test('a descending key: smaller; ties still by id ascending', () => {
    const keys: SortKey[] = [{ field: 'amount', direction: 'desc' }];
    const cursor = encodeCursor(keys, { id: ID, amount: new Decimal('10.5') });
    expect(cursorToWhere(cursor, keys, fields)).toEqual({
      OR: [{ amount: { lt: '10.5' } }, { AND: [{ amount: { equals: '10.5' } }, { id: { gt: ID } }] }],
    });
  });

  test('nullable ascending key with a value: greater values only (nulls came first)', () => {
    const keys: SortKey[] = [{ field: 'description', direction: 'asc' }];
    const cursor = encodeCursor(keys, { id: ID, description: 'd' });
    expect(cursorToWhere(cursor, keys, fields)).toEqual({
      OR: [{ description: { gt: 'd' } }, { AND: [{ description: { equals: 'd' } }, { id: { gt: ID } }] }],
    });
  });

  test('nullable ascending key at a null: every value, or nulls with greater ids', () => {
    const keys: SortKey[] = [{ field: 'description', direction: 'asc' }];
    const cursor = encodeCursor(keys, { id: ID, description: null });
    expect(cursorToWhere(cursor, keys, fields)).toEqual({
      OR: [{ description: { not: null } }, { AND: [{ description: null }, { id: { gt: ID } }] }],
    });
  });

  test('nullable descending key at a null: only the other nulls with greater ids', () => {
    const keys: SortKey[] = [{ field: 'updatedAt', direction: 'desc' }];
    const cursor = encodeCursor(keys, { id: ID, updatedAt: null });
    expect(cursorToWhere(cursor, keys, fields)).toEqual({ AND: [{ updatedAt: null }, { id: { gt: ID } }] });
  });

  test('nullable descending key with a value: smaller values, then the nulls', () => {
    const keys: SortKey[] = [{ field: 'updatedAt', direction: 'desc' }];
    const at = new Date('2026-01-01T00:00:00.001Z');
    const cursor = encodeCursor(keys, { id: ID, updatedAt: at });
    expect(cursorToWhere(cursor, keys, fields)).toEqual({
      OR: [{ updatedAt: { lt: at } }, { updatedAt: null }, { AND: [{ updatedAt: { equals: at } }, { id: { gt: ID } }] }],
    });
  });

  test('booleans and enums, which Prisma cannot order, become value sets', () => {
    const keys: SortKey[] = [
      { field: 'isActive', direction: 'desc' },
      { field: 'sourceType', direction: 'asc' },
    ];
    const cursor = encodeCursor(keys, { id: ID, isActive: true, sourceType: 'Check' });
    expect(cursorToWhere(cursor, keys, fields)).toEqual({
      OR: [
        { isActive: false },
        { AND: [{ isActive: true }, { sourceType: { in: ['CreditCard', 'DebitCard', 'DirectDebit', 'OnlineWallet', 'Other'] } }] },
        { AND: [{ isActive: true }, { sourceType: { equals: 'Check' } }, { id: { gt: ID } }] },
      ],
    });
  });

  test('id as a sort key ends the order', () => {
    const keys: SortKey[] = [{ field: 'id', direction: 'desc' }];
    const cursor = encodeCursor(keys, { id: ID });
    expect(cursorToWhere(cursor, keys, fields)).toEqual({ id: { lt: ID } });
  });

  describe('bad cursors are INVALID_QUERY', () => {
    const keys: SortKey[] = [{ field: 'code', direction: 'asc' }];
    const good = encodeCursor(keys, { id: ID, code: 'M' });

    test.each<[string, string]>([
      ['', 'not base64url'],
      ['not a cursor!', 'not base64url'],
      ['x'.repeat(5000), 'not base64url'],
      ['abc', 'does not decode'],
      [encodeRaw('just a string'), 'does not decode'],
      [encodeRaw(null), 'does not decode'],
      [encodeRaw({ k: ['code:asc'], p: ['M'] }), 'no id'],
      [encodeRaw({ k: ['code:asc'], p: [], id: ID }), 'no values'],
      [encodeRaw({ k: 'code:asc', p: ['M'], id: ID }), 'no sort keys'],
      [encodeRaw({ k: ['code:asc'], p: [{ $gt: '' }], id: ID }), 'no values'],
      [encodeRaw({ k: ['code:asc'], p: ['M'], id: 'not-a-uuid' }), 'bad id'],
      [encodeRaw({ k: ['code:desc'], p: ['M'], id: ID }), 'made for another order'],
      [encodeRaw({ k: ['name:asc'], p: ['M'], id: ID }), 'made for another order'],
      [encodeRaw({ k: [], p: [], id: ID }), 'made for another order'],
      [encodeRaw({ k: ['code:asc'], p: [null], id: ID }), "'code' cannot be null"],
      [encodeRaw({ k: ['code:asc'], p: [true], id: ID }), 'a boolean does not fit'],
      [good.slice(0, -3), 'does not decode'],
    ])('%j: %s', (cursor, why) => {
      const e = faultOf(cursor, keys);
      expect(e.code).toBe('INVALID_QUERY');
      expect(e.detail).toContain('after: the cursor is not valid');
      expect(e.detail).toContain(why);
    });

    test('a cursor made for other keys', () => {
      expect(faultOf(good, [{ field: 'name', direction: 'asc' }]).detail).toContain('made for another order');
      expect(faultOf(good, []).detail).toContain('made for another order');
    });

    test('values of the wrong type for their field', () => {
      const amountKeys: SortKey[] = [{ field: 'amount', direction: 'asc' }];
      expect(faultOf(encodeRaw({ k: ['amount:asc'], p: ['1e5'], id: ID }), amountKeys).detail).toContain('not a plain decimal');
      const dateKeys: SortKey[] = [{ field: 'createdAt', direction: 'asc' }];
      expect(faultOf(encodeRaw({ k: ['createdAt:asc'], p: ['yesterday'], id: ID }), dateKeys).detail).toContain('not a date-time');
      const enumKeys: SortKey[] = [{ field: 'sourceType', direction: 'asc' }];
      expect(faultOf(encodeRaw({ k: ['sourceType:asc'], p: ['Coins'], id: ID }), enumKeys).detail).toContain("'Coins' is not a value");
    });

    test('a flipped character is caught or still a well-formed position', () => {
      // Base64url has no checksum: a change either breaks the JSON / the shape (refused) or
      // names another position, which only moves where the page starts (the filter still applies).
      for (let i = 0; i < good.length; i++) {
        const c = good[i] === 'A' ? 'B' : 'A';
        const tampered = good.slice(0, i) + c + good.slice(i + 1);
        try {
          const where = cursorToWhere(tampered, keys, fields);
          expect(where).toHaveProperty('OR');
        } catch (e) {
          expect((e as AppError).code).toBe('INVALID_QUERY');
        }
      }
    });
  });
});
