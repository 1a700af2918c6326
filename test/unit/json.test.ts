import Decimal from 'decimal.js';
import { Prisma } from '../../src/db/__generated__/prisma/client';
import { stringifyJson } from '../../src/http/json';

describe('stringifyJson', () => {
  it('writes decimals as exact JSON numbers, never through a float', () => {
    const big = '98765432109876.5432';
    expect(Number(big).toString()).not.toBe(big); // a float would lose digits
    const out = stringifyJson({ a: new Decimal(big), b: new Prisma.Decimal('19.00'), c: [new Decimal('-0.0001')], d: 'text', e: null });
    expect(out).toBe(`{"a":${big},"b":19,"c":[-0.0001],"d":"text","e":null}`);
  });
  it('leaves strings that look like the marker alone', () => {
    expect(stringifyJson({ s: 'dec:12' })).toBe('{"s":"dec:12"}');
  });
  it('writes dates as ISO 8601 UTC', () => {
    expect(stringifyJson({ t: new Date('2026-01-01T00:00:00Z') })).toBe('{"t":"2026-01-01T00:00:00.000Z"}');
  });
});

describe('stringifyJson and look-alikes', () => {
  it('writes an object whose toFixed gives no plain decimal as the object it is', () => {
    expect(stringifyJson({ v: { toFixed: () => '1e5', n: 1 } })).toBe('{"v":{"n":1}}');
  });
});
