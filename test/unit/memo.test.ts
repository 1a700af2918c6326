import { memoized } from '../../src/lib/memo';
import { decimalOf, REVIVE } from '../../src/db/read/row';
import { exactDecimal, stringifyExact } from '../../src/http/json';

describe('memoized', () => {
  it('computes a key once while it is remembered, and again after the memo was full', () => {
    const computed: string[] = [];
    const upper = memoized((s: string) => {
      computed.push(s);
      return { text: s.toUpperCase() };
    }, 2);
    const first = upper('a');
    expect(upper('a')).toBe(first);
    upper('b');
    expect(computed).toEqual(['a', 'b']);
    // Full: the third key forgets both.
    expect(upper('c').text).toBe('C');
    expect(upper('a')).not.toBe(first);
    expect(upper('a').text).toBe('A');
    expect(computed).toEqual(['a', 'b', 'c', 'a']);
  });
});

describe('decimals on the read path', () => {
  const decimal = decimalOf;

  it('is how decimals read as text are revived', () => {
    expect(REVIVE.decimal!('12.50')).toBe(decimalOf('12.50'));
  });

  it('hands out one Decimal per text, exact and unchanged by arithmetic on it', () => {
    const a = decimal('19.99');
    expect(decimal('19.99')).toBe(a);
    expect(a.plus('0.01').toFixed()).toBe('20');
    // Decimals are immutable: the shared one still holds its value.
    expect(a.toFixed()).toBe('19.99');
    expect(decimal('19.990')).not.toBe(a);
  });

  it('writes a shared decimal exactly wherever it appears', () => {
    const a = decimal('98765432109876.5432');
    const body = { x: exactDecimal(a), list: [exactDecimal(a), exactDecimal(decimal('-0.0001'))] };
    expect(stringifyExact(body)).toBe('{"x":98765432109876.5432,"list":[98765432109876.5432,-0.0001]}');
    expect(exactDecimal(a)).toBe(exactDecimal(a));
  });

  it('takes nothing else for a decimal', () => {
    expect(exactDecimal('12.5')).toBeUndefined();
    expect(exactDecimal(12.5)).toBeUndefined();
    expect(exactDecimal({ toFixed: () => '1e5' })).toBeUndefined();
    expect(exactDecimal(null)).toBeUndefined();
  });
});
