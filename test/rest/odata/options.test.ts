import { paymentSourceFields } from '../../../src/domain/payment-source/fields';
import { AppError } from '../../../src/errors/catalogue';
import { MAX_OFFSET as MAX_SKIP } from '../../../src/domain/common/list';
import { parseODataOptions, parseOrderBy, parseSelect } from '../../../src/rest/odata/options';

const parse = (query: Record<string, unknown>, opts?: { maxTop?: number; defaultTop?: number }) =>
  parseODataOptions(query, paymentSourceFields, opts);

function faultOf(query: Record<string, unknown>, opts?: { maxTop?: number }): AppError {
  try {
    parse(query, opts);
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(query)} to be refused`);
}

describe('parseODataOptions', () => {
  test('no options', () => {
    expect(parse({})).toEqual({ orderBy: [], skip: 0, count: false });
  });

  test('all options together', () => {
    const o = parse({
      $filter: "isActive and startswith(code, 'B')",
      $orderby: 'name desc, code',
      $top: '25',
      $skip: '50',
      $count: 'true',
      $select: 'code,name',
    });
    expect(o).toEqual({
      filter: {
        kind: 'and',
        nodes: [
          { kind: 'compare', field: 'isActive', op: 'eq', value: { type: 'boolean', value: true } },
          { kind: 'text', field: 'code', op: 'startswith', value: 'B' },
        ],
      },
      orderBy: [
        { field: 'name', direction: 'desc' },
        { field: 'code', direction: 'asc' },
      ],
      top: 25,
      skip: 50,
      count: true,
      select: ['code', 'name'],
    });
  });

  test('custom parameters (no OData option name) are ignored', () => {
    expect(parse({ articleId: 'x', 'sap-client': '100', page: ['1', '2'] })).toEqual({ orderBy: [], skip: 0, count: false });
  });

  test('system options may be written without $ (OData 4.01)', () => {
    expect(parse({ filter: 'isActive', TOP: '5' })).toMatchObject({ top: 5, filter: { kind: 'compare', field: 'isActive' } });
  });

  test('top is only what the client asked: undefined without $top, whatever defaultTop is', () => {
    expect(parse({}, { defaultTop: 100 }).top).toBeUndefined();
    expect(parse({ $top: '0' }, { defaultTop: 100 }).top).toBe(0);
  });

  test('option names are case-insensitive (OData 4.01)', () => {
    expect(parse({ $TOP: '3', $Filter: 'isActive', $OrderBy: 'code DESC' })).toMatchObject({
      top: 3,
      filter: { kind: 'compare', field: 'isActive' },
      orderBy: [{ field: 'code', direction: 'desc' }],
    });
  });

  describe('$top', () => {
    test.each([
      ['0', 0],
      ['1', 1],
      ['1000', 1000],
      [' 7 ', 7],
      ['007', 7],
    ])('%j → %i', (text, n) => {
      expect(parse({ $top: text }).top).toBe(n);
    });

    test.each(['', '-1', '1001', '1.5', 'ten', '1e2', '0x10', '+5', '99999999999999999999'])('%j is refused', (text) => {
      const e = faultOf({ $top: text });
      expect(e.code).toBe('INVALID_QUERY');
      expect(e.detail).toMatch(/^\$top: must be a whole number from 0 to 1000 at position \d+$/);
    });

    test('maxTop lowers the limit', () => {
      expect(parse({ $top: '10' }, { maxTop: 10 }).top).toBe(10);
      expect(faultOf({ $top: '11' }, { maxTop: 10 }).detail).toBe('$top: must be a whole number from 0 to 10 at position 0');
    });
  });

  describe('$skip', () => {
    test.each([
      ['0', 0],
      ['100', 100],
      [String(MAX_SKIP), MAX_SKIP],
    ])('%j → %i', (text, n) => {
      expect(parse({ $skip: text }).skip).toBe(n);
    });

    test.each(['-1', 'abc', '1.0', '', String(MAX_SKIP + 1)])('%j is refused', (text) => {
      expect(faultOf({ $skip: text }).detail).toMatch(/^\$skip: must be a whole number from 0 to 2147483647 at position \d+$/);
    });
  });

  describe('$count', () => {
    test.each([
      ['true', true],
      ['false', false],
      ['TRUE', true],
      ['False', false],
    ])('%j → %s', (text, b) => {
      expect(parse({ $count: text }).count).toBe(b);
    });

    test.each(['1', 'yes', '', 'truthy'])('%j is refused', (text) => {
      expect(faultOf({ $count: text }).detail).toBe('$count: must be true or false at position 0');
    });
  });

  describe('$orderby', () => {
    test.each([
      ['code', [{ field: 'code', direction: 'asc' }]],
      ['code asc', [{ field: 'code', direction: 'asc' }]],
      ['code DESC', [{ field: 'code', direction: 'desc' }]],
      [
        'code Asc,name desc',
        [
          { field: 'code', direction: 'asc' },
          { field: 'name', direction: 'desc' },
        ],
      ],
      [
        ' sourceType , createdAt desc , id ',
        [
          { field: 'sourceType', direction: 'asc' },
          { field: 'createdAt', direction: 'desc' },
          { field: 'id', direction: 'asc' },
        ],
      ],
    ])('%j', (text, keys) => {
      expect(parse({ $orderby: text }).orderBy).toEqual(keys);
    });

    test.each([
      ['', 0, 'empty value'],
      ['   ', 3, 'empty value'],
      ['nope', 0, "unknown field 'nope'"],
      ['code, Name', 6, "unknown field 'Name'"],
      ['code desc, code', 11, "field 'code' is listed more than once"],
      ['code up', 5, "expected asc or desc, found 'up'"],
      ['code desc asc', 10, "expected ',' or the end, found 'asc'"],
      ['code,', 5, 'expected a field name, found the end of the expression'],
      [',code', 0, "expected a field name, found ','"],
      ['code,,name', 5, "expected a field name, found ','"],
      ["'code'", 0, "expected a field name, found ''code''"],
      ['code 1', 5, "expected asc or desc, found '1'"],
      ['account/code', 7, "unexpected character '/'"],
      ['eq', 0, "expected a field name, found 'eq'"],
    ])('%j is refused at %i', (text, pos, fragment) => {
      const e = faultOf({ $orderby: text });
      expect(e.detail.startsWith('$orderby: ')).toBe(true);
      expect(e.detail).toContain(fragment);
      expect(e.detail.endsWith(` at position ${pos}`)).toBe(true);
    });
  });

  describe('$select', () => {
    test.each([
      ['code', ['code']],
      ['code,name', ['code', 'name']],
      [' name , code ', ['name', 'code']],
      ['code,code', ['code']],
      ['id,code', ['id', 'code']],
    ])('%j', (text, fields) => {
      expect(parse({ $select: text }).select).toEqual(fields);
    });

    test('* is every field', () => {
      expect(parse({ $select: '*' }).select).toEqual(Object.keys(paymentSourceFields));
    });

    test.each([
      ['', 0, 'empty value'],
      ['nope', 0, "unknown field 'nope'"],
      ['code,nope', 5, "unknown field 'nope'"],
      ['code desc', 5, "expected ',' or the end, found 'desc'"],
      ['code,', 5, 'expected a field name'],
      ['code(name)', 4, "expected ',' or the end, found '('"],
      ['code,*', 5, "unexpected character '*'"],
    ])('%j is refused at %i', (text, pos, fragment) => {
      const e = faultOf({ $select: text });
      expect(e.detail.startsWith('$select: ')).toBe(true);
      expect(e.detail).toContain(fragment);
      expect(e.detail.endsWith(` at position ${pos}`)).toBe(true);
    });
  });

  describe('$filter faults carry the position in the filter text', () => {
    test.each([
      ["nope eq 'x'", "$filter: unknown field 'nope'", 0],
      ["code eq 'x' and", '$filter: unexpected end of expression', 15],
      ['', '$filter: empty expression', 0],
    ])('%j', (text, start, pos) => {
      const e = faultOf({ $filter: text });
      expect(e.detail.startsWith(start)).toBe(true);
      expect(e.detail.endsWith(` at position ${pos}`)).toBe(true);
    });
  });

  describe('unknown and repeated options', () => {
    test.each(['$search', 'search', '$foo', '$apply', 'Apply', '$skiptoken', '$'])('%s is refused', (name) => {
      const e = faultOf({ [name]: 'x' });
      expect(e.code).toBe('INVALID_QUERY');
      expect(e.detail).toBe(
        `${name}: unsupported query option here (supported: $filter, $orderby, $top, $skip, $count, $select, $expand, $format; the $ is optional)`,
      );
    });

    test('$expand of a resource without relations names the fault', () => {
      expect(faultOf({ $expand: 'Foo' }).detail).toBe("$expand: unknown relation 'Foo' (this resource has none) at position 0");
    });

    test('$format other than json', () => {
      expect(parse({ $format: 'json' })).toEqual({ orderBy: [], skip: 0, count: false });
      expect(faultOf({ $format: 'xml' }).detail).toBe("$format: only 'json' is available at position 0");
    });

    test('a parameter given twice (Express gives an array)', () => {
      expect(faultOf({ $top: ['1', '2'] }).detail).toBe('$top: given more than once');
      expect(faultOf({ $filter: ['isActive', 'isDefault'] }).detail).toBe('$filter: given more than once');
    });

    test('the same option in two spellings', () => {
      expect(faultOf({ $top: '1', $TOP: '2' }).detail).toMatch(/given more than once/);
    });

    test('a nested value (qs-style $top[a]=1)', () => {
      expect(faultOf({ $top: { a: '1' } }).detail).toBe('$top: must be a single text value');
    });

    test('an over-long option', () => {
      expect(faultOf({ $orderby: 'code,'.repeat(1700) }).detail).toBe('$orderby: longer than 8000 characters at position 8000');
    });
  });
});

describe('parseOrderBy / parseSelect on their own', () => {
  test('parseOrderBy', () => {
    expect(parseOrderBy('name desc', paymentSourceFields)).toEqual([{ field: 'name', direction: 'desc' }]);
  });
  test('parseSelect', () => {
    expect(parseSelect('name', paymentSourceFields)).toEqual(['name']);
  });
});
