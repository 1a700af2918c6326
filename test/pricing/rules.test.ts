import Decimal from 'decimal.js';
import fc from 'fast-check';
import {
  costCenter,
  lineAmounts,
  referenceDate,
  roundMoney,
  selectPrice,
  taxCodeIdFor,
  taxCodeProblem,
  totals,
  type TaxCodeProblem,
} from '../../src/domain/pricing/rules';
import { termContaining } from '../../src/domain/academic-term/rules';
import { stringifyJson } from '../../src/http/json';

// Table-driven tests of every pricing rule (pure functions, no database), and a property
// test against a reference computation in BigInt integer arithmetic.

const d = (iso: string): Date => new Date(iso.length === 10 ? `${iso}T00:00:00.000Z` : iso);
const dec = (s: string): Decimal => new Decimal(s);

// The WB-MBA prices of the demo dataset: 4500 from 2022-10-01, 4900 from 2024-10-01, 5200 from 2026-04-01, 5450 from 2027-10-01.
const PRICES = [
  { id: 'p-2026', validFrom: d('2026-04-01'), amount: '5200' },
  { id: 'p-2022', validFrom: d('2022-10-01'), amount: '4500' },
  { id: 'p-2027', validFrom: d('2027-10-01'), amount: '5450' },
  { id: 'p-2024', validFrom: d('2024-10-01'), amount: '4900' },
];

describe('selectPrice: the latest validFrom on or before the reference date', () => {
  it.each([
    ['a price starting exactly on the billing date applies', '2026-04-01', 'p-2026'],
    ['... whatever the time of day on that date', '2026-04-01T17:45:00Z', 'p-2026'],
    ['one millisecond before the start, the previous price applies', '2026-03-31T23:59:59.999Z', 'p-2024'],
    ['a time zone offset is an instant: 2026-04-01T01:00+02:00 is still 31 March UTC', '2026-04-01T01:00:00+02:00', 'p-2024'],
    ['the latest of several past prices', '2025-06-15', 'p-2024'],
    ['after the last price change', '2030-01-01', 'p-2027'],
    ['the first price on its own first day', '2022-10-01', 'p-2022'],
    ['prices in the future only: none', '2022-09-30T23:59:59.999Z', null],
    ['long before every price: none', '1999-01-01', null],
  ])('%s (%s)', (_name, at, expected) => {
    const iso = at.length === 10 ? `${at}T00:00:00.000Z` : at;
    expect(selectPrice(PRICES, new Date(iso))?.id ?? null).toBe(expected);
  });

  it('no prices at all: none', () => {
    expect(selectPrice([], d('2026-01-01'))).toBeNull();
  });

  it('does not depend on the order of the prices', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(PRICES, { minLength: 0 }),
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2029, 0, 1) }),
        (subset, t) => {
          const at = new Date(t);
          const sorted = [...subset].sort((a, b) => b.validFrom.getTime() - a.validFrom.getTime());
          const expected = sorted.find((p) => p.validFrom.getTime() <= t) ?? null;
          expect(selectPrice(subset, at)).toBe(expected);
          expect(selectPrice([...subset].reverse(), at)).toBe(expected);
        },
      ),
    );
  });
});

describe('referenceDate and the price guarantee', () => {
  it.each([
    ['without a guarantee: the billing date', '2027-11-01', undefined, '2027-11-01'],
    ['null guarantee: the billing date', '2027-11-01', null, '2027-11-01'],
    ['with a guarantee: the contract (matriculation) date', '2027-11-01', '2024-10-15', '2024-10-15'],
  ])('%s', (_name, billing, guarantee, expected) => {
    expect(referenceDate(d(billing), guarantee === undefined ? undefined : guarantee === null ? null : d(guarantee)).toISOString()).toBe(
      d(expected).toISOString(),
    );
  });

  it.each([
    // billing date, guarantee date, price without guarantee, price with guarantee
    ['guarantee before all later price rises keeps the old price', '2027-11-01', '2024-10-15', 'p-2027', 'p-2024'],
    ['guarantee on the day of a rise gets the new price', '2027-11-01', '2026-04-01', 'p-2027', 'p-2026'],
    ['guarantee before the first price: no price', '2027-11-01', '2021-01-01', 'p-2027', null],
  ])('%s', (_name, billing, guarantee, without, withGuarantee) => {
    expect(selectPrice(PRICES, referenceDate(d(billing)))?.id ?? null).toBe(without);
    expect(selectPrice(PRICES, referenceDate(d(billing), d(guarantee)))?.id ?? null).toBe(withGuarantee);
  });
});

describe('costCenter', () => {
  const ARTICLE_CC = 'aaaaaaaa-0000-4000-8000-000000000001';
  const LINE_CC = 'bbbbbbbb-0000-4000-8000-000000000002';
  it.each([
    ['no override: the article default', false, ARTICLE_CC, undefined, ARTICLE_CC],
    ['the line overrides the default', false, ARTICLE_CC, LINE_CC, LINE_CC],
    ['null line value: the article default', false, ARTICLE_CC, null, ARTICLE_CC],
    ['useArticleCostCenter overrides a given line cost center', true, ARTICLE_CC, LINE_CC, ARTICLE_CC],
    ['useArticleCostCenter without a line cost center', true, ARTICLE_CC, undefined, ARTICLE_CC],
    ['no default, no override: none', false, null, undefined, null],
    ['no default, line override', false, null, LINE_CC, LINE_CC],
    ['useArticleCostCenter with no article cost center: none, even when the line gives one', true, null, LINE_CC, null],
  ])('%s', (_name, useArticleCostCenter, defaultCostCenterId, line, expected) => {
    expect(costCenter({ useArticleCostCenter, defaultCostCenterId }, line)).toBe(expected);
  });
});

describe('tax code: active and valid on the billing date (whole UTC days, validTo included)', () => {
  // V19 (open-ended), V16 as in the demo dataset (inactive, 2020-07-01 .. 2020-12-31), and an active copy of V16.
  const V19 = { id: 'v19', isActive: true, validFrom: d('2007-01-01'), validTo: null };
  const V16 = { id: 'v16', isActive: false, validFrom: d('2020-07-01'), validTo: d('2020-12-31') };
  const V16_ACTIVE = { ...V16, id: 'v16a', isActive: true };
  const NOON_START = { id: 'noon', isActive: true, validFrom: d('2024-05-01T12:00:00Z'), validTo: d('2024-05-31T06:00:00Z') };
  it.each<[string, typeof V19 | typeof V16, string, TaxCodeProblem | null]>([
    ['open-ended and active', V19, '2026-04-01', null],
    ['on its first day', V19, '2007-01-01', null],
    ['before its first day', V19, '2006-12-31T23:59:59.999Z', 'not-yet-valid'],
    ['inactive (even inside its validity)', V16, '2020-08-01', 'inactive'],
    ['inactive and expired: inactive', V16, '2026-04-01', 'inactive'],
    ['active, on its first day', V16_ACTIVE, '2020-07-01', null],
    ['active, the day before', V16_ACTIVE, '2020-06-30T23:59:59.999Z', 'not-yet-valid'],
    ['active, on validTo (midnight)', V16_ACTIVE, '2020-12-31', null],
    ['active, late on the validTo day: still valid', V16_ACTIVE, '2020-12-31T23:59:59.999Z', null],
    ['active, the day after validTo: expired', V16_ACTIVE, '2021-01-01', 'expired'],
    ['validFrom with a time: valid all that day', NOON_START, '2024-05-01', null],
    ['validTo with a time: valid all that day', NOON_START, '2024-05-31T22:00:00Z', null],
    ['validTo with a time: not the next day', NOON_START, '2024-06-01', 'expired'],
  ])('%s', (_name, taxCode, at, expected) => {
    expect(taxCodeProblem(taxCode, d(at))).toBe(expected);
  });

  it.each([
    ['the line tax code wins', 'default', 'line', 'line'],
    ['else the article default', 'default', undefined, 'default'],
    ['no default, none given: none', null, undefined, null],
  ])('taxCodeIdFor: %s', (_name, defaultTaxCodeId, line, expected) => {
    expect(taxCodeIdFor({ defaultTaxCodeId }, line)).toBe(expected);
  });
});

describe('termContaining: the academic term whose days contain the billing date', () => {
  // As in the demo dataset: endDate is midnight at the start of the term's last day.
  const TERMS = [
    { id: 'ws2025', startDate: d('2025-10-01'), endDate: d('2026-03-31') },
    { id: 'ss2026', startDate: d('2026-04-01'), endDate: d('2026-09-30') },
    { id: 'x-short', startDate: d('2027-01-10'), endDate: d('2027-01-20') },
    { id: 'ws2026', startDate: d('2026-10-01'), endDate: d('2027-03-31') },
  ];
  it.each([
    ['first day', '2025-10-01', 'ws2025'],
    ['last day at midnight', '2026-03-31', 'ws2025'],
    ['last day in the evening', '2026-03-31T21:00:00Z', 'ws2025'],
    ['the next term from its first midnight', '2026-04-01', 'ss2026'],
    ['overlapping terms: the latest starting', '2027-01-15', 'x-short'],
    ['outside every term', '2030-01-01', null],
  ])('%s', (_name, at, expected) => {
    expect(termContaining(TERMS, d(at))?.id ?? null).toBe(expected);
  });
});

describe('lineAmounts: net = round(unitPrice × quantity), tax = round(net × rate / 100), half-up to 2 decimals', () => {
  it.each([
    // unitPrice, quantity, rate, net, tax, gross
    ['0.0504', '1', '19', '0.05', '0.01', '0.06'], // BIB-DRUCK: 0.0504 → 0.05; 0.0095 → 0.01
    ['0.0504', '250', '19', '12.60', '2.39', '14.99'], // 12.60 × 19% = 2.394
    ['0.005', '1', '19', '0.01', '0.00', '0.01'], // net exactly on the half cent: up
    ['0.0049', '1', '19', '0.00', '0.00', '0.00'], // just below the half cent: down
    ['0.0125', '1', '0', '0.01', '0.00', '0.01'],
    ['1.005', '1', '0', '1.01', '0.00', '1.01'], // a float would say 1.00 (1.005 is 1.00499999… as a double)
    ['1.0049', '1', '0', '1.00', '0.00', '1.00'],
    ['0.50', '1', '19', '0.50', '0.10', '0.60'], // 0.095 → 0.10
    ['10.50', '1', '19', '10.50', '2.00', '12.50'], // 1.995 → 2.00
    ['2.50', '1', '19', '2.50', '0.48', '2.98'], // 0.475 → 0.48
    ['0.50', '1', '7', '0.50', '0.04', '0.54'], // 0.035 → 0.04
    ['1.50', '1', '7', '1.50', '0.11', '1.61'], // 0.105 → 0.11 (1.5 × 0.07 is 0.10500000000000001 in floats, 0.105 exactly here)
    ['0.05', '1', '7', '0.05', '0.00', '0.05'], // 0.0035 → 0.00
    ['56.25', '1', '8.88', '56.25', '5.00', '61.25'], // 4.995 → 5.00 on the 8.88 rate
    ['24.80', '1', '8.88', '24.80', '2.20', '27.00'], // 2.20224 → 2.20
    ['100.5', '1', '8.88', '100.50', '8.92', '109.42'], // 8.9244 → 8.92
    ['3.3333', '0.3', '7', '1.00', '0.07', '1.07'], // 0.99999 → 1.00
    ['4900', '1', '0', '4900.00', '0.00', '4900.00'],
    ['0.0504', '1000000000', '19', '50400000.00', '9576000.00', '59976000.00'], // large quantity
    ['1234.5678', '98765.4321', '19', '121932622.22', '23167198.22', '145099820.44'],
    ['12345.6789', '99999.9999', '7', '1234567888.77', '86419752.21', '1320987640.98'],
    // 34 significant digits: beyond decimal.js's default precision of 20 and far beyond a double's 15-17.
    [
      '99999999999999.9999',
      '99999999999.9999',
      '8.88',
      '9999999999999989990000000.00',
      '887999999999999111112000.00',
      '10887999999999989101112000.00',
    ],
  ])('%s × %s at %s%%', (unitPrice, quantity, rate, net, tax, gross) => {
    const a = lineAmounts(dec(unitPrice), dec(quantity), dec(rate));
    expect(a.netAmount.toFixed(2)).toBe(net);
    expect(a.taxAmount.toFixed(2)).toBe(tax);
    expect(a.grossAmount.toFixed(2)).toBe(gross);
    expect(a.netAmount.decimalPlaces()).toBeLessThanOrEqual(2);
    expect(a.taxAmount.decimalPlaces()).toBeLessThanOrEqual(2);
  });

  it('roundMoney is half-up (away from zero) at the third decimal only', () => {
    expect(roundMoney(dec('0.004999999999999999999999')).toFixed()).toBe('0');
    expect(roundMoney(dec('0.005')).toFixed()).toBe('0.01');
    expect(roundMoney(dec('2.675')).toFixed()).toBe('2.68'); // 2.67 with Number.prototype.toFixed
  });

  it('amounts serialise as exact JSON numbers', () => {
    const a = lineAmounts(dec('99999999999999.9999'), dec('99999999999.9999'), dec('8.88'));
    expect(stringifyJson({ gross: a.grossAmount })).toBe('{"gross":10887999999999989101112000}');
    expect(stringifyJson({ net: lineAmounts(dec('0.0504'), dec('1'), dec('19')).netAmount })).toBe('{"net":0.05}');
  });

  it('totals are the sums of the rounded line amounts', () => {
    // Each line is rounded first: three nets of 0.005 → 0.01 each.
    const lines = [
      lineAmounts(dec('0.005'), dec('1'), dec('19')),
      lineAmounts(dec('0.005'), dec('1'), dec('19')),
      lineAmounts(dec('0.005'), dec('1'), dec('19')),
    ];
    const t = totals(lines);
    expect(t.netAmount.toFixed(2)).toBe('0.03'); // 3 × 0.01, while round(3 × 0.005) would be 0.02
    expect(t.taxAmount.toFixed(2)).toBe('0.00');
    expect(t.grossAmount.toFixed(2)).toBe('0.03');
    expect(totals([]).grossAmount.toFixed()).toBe('0');
  });
});

// ---------------------------------------------------------------------------------------
// Property: the same results as a computation purely in BigInt integers (cents × 10^k).

/** Half-up division of a non-negative integer. */
const divHalfUp = (n: bigint, d: bigint): bigint => (2n * n + d) / (2n * d);

/** A scaled integer as decimal text: (12345n, 4) → "1.2345". */
function scaledText(v: bigint, scale: number): string {
  const digits = v.toString().padStart(scale + 1, '0');
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/**
 * Reference computation: unit price and quantity in 1/10^4, rate in 1/100 percent.
 * net (cents) = round(p × q / 10^6); tax (cents) = round(net × r / 10^4); gross = net + tax.
 */
function reference(p: bigint, q: bigint, r: bigint): { net: string; tax: string; gross: string } {
  const net = divHalfUp(p * q, 10n ** 6n);
  const tax = divHalfUp(net * r, 10n ** 4n);
  return { net: scaledText(net, 2), tax: scaledText(tax, 2), gross: scaledText(net + tax, 2) };
}

describe('property: lineAmounts equals the BigInt reference, and net + tax = gross', () => {
  // Unit price: numeric(19,4) money; quantity: up to 4 decimals below 10^11; rate: numeric(7,2) percent up to 100.
  const unitPrice = fc.bigInt({ min: 0n, max: 10n ** 19n - 1n });
  const smallUnitPrice = fc.bigInt({ min: 0n, max: 10n ** 7n }); // up to 1000.0000: exercises the half-cent boundaries often
  const quantity = fc.bigInt({ min: 1n, max: 10n ** 15n - 1n });
  const smallQuantity = fc.bigInt({ min: 1n, max: 10n ** 6n });
  const rate = fc.oneof(fc.constantFrom(1900n, 700n, 888n, 1600n, 0n), fc.bigInt({ min: 0n, max: 10000n }));

  it.each([
    ['any size', unitPrice, quantity],
    ['everyday sizes', smallUnitPrice, smallQuantity],
  ])('%s', (_name, prices, quantities) => {
    fc.assert(
      fc.property(prices, quantities, rate, (p, q, r) => {
        const a = lineAmounts(dec(scaledText(p, 4)), dec(scaledText(q, 4)), dec(scaledText(r, 2)));
        const ref = reference(p, q, r);
        expect(a.netAmount.toFixed(2)).toBe(ref.net);
        expect(a.taxAmount.toFixed(2)).toBe(ref.tax);
        expect(a.grossAmount.toFixed(2)).toBe(ref.gross);
        expect(a.netAmount.plus(a.taxAmount).equals(a.grossAmount)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('totals equal the BigInt sums of the reference lines', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(smallUnitPrice, smallQuantity, rate), { minLength: 1, maxLength: 50 }), (lines) => {
        const t = totals(lines.map(([p, q, r]) => lineAmounts(dec(scaledText(p, 4)), dec(scaledText(q, 4)), dec(scaledText(r, 2)))));
        let net = 0n;
        let tax = 0n;
        for (const [p, q, r] of lines) {
          const n = divHalfUp(p * q, 10n ** 6n);
          net += n;
          tax += divHalfUp(n * r, 10n ** 4n);
        }
        expect(t.netAmount.toFixed(2)).toBe(scaledText(net, 2));
        expect(t.taxAmount.toFixed(2)).toBe(scaledText(tax, 2));
        expect(t.grossAmount.toFixed(2)).toBe(scaledText(net + tax, 2));
      }),
      { numRuns: 300 },
    );
  });
});
