import Decimal from 'decimal.js';
import request from 'supertest';
import type { RowReader } from '../../src/db/row-reader';
import { PricingService } from '../../src/domain/pricing/service';
import { stringifyJson } from '../../src/http/json';
import { createTestApp, newId, type TestApp, bearer } from '../support/app';
import { fixture } from '../support/fixture';

// POST /api/v1/quotes on a real database (PGlite, or PostgreSQL with DATABASE_URL) with the
// demo dataset. Expectations are computed here from the dataset file, independently of
// src/domain/pricing, and compared as exact decimal text (the answer is parsed without floats).

let t: TestApp;
const post = (body: unknown) =>
  request(t.http)
    .post('/api/v1/quotes')
    .set(bearer(t.tokens.reader))
    .send(body as object);

// ---------------------------------------------------------------------------------------
// Reading the answer exactly: every JSON number becomes its text.

type Exact = string | boolean | null | Exact[] | { [k: string]: Exact };

function parseExact(text: string): Exact {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i))!;
      out += `"${m[0]}"`;
      i += m[0].length - 1;
    } else out += c;
  }
  return JSON.parse(out) as Exact;
}

type ExactLine = Record<string, string | null>;
interface ExactQuote {
  lines: ExactLine[];
  totals: { netAmount: string; taxAmount: string; grossAmount: string };
}
const isLine = (v: Exact): v is ExactLine =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => x === null || typeof x === 'string');
/** The answer's quote, checked to have the quote's shape (lines of texts, three totals). */
function quoteOf(text: string): ExactQuote {
  const q = parseExact(text);
  if (
    typeof q !== 'object' ||
    q === null ||
    Array.isArray(q) ||
    !Array.isArray(q.lines) ||
    !q.lines.every(isLine) ||
    !isLine(q.totals ?? null)
  )
    throw new Error(`not a quote: ${text.slice(0, 200)}`);
  const { netAmount, taxAmount, grossAmount } = q.totals as ExactLine;
  if (typeof netAmount !== 'string' || typeof taxAmount !== 'string' || typeof grossAmount !== 'string')
    throw new Error(`not a quote's totals: ${text.slice(0, 200)}`);
  return { lines: q.lines, totals: { netAmount, taxAmount, grossAmount } };
}

// ---------------------------------------------------------------------------------------
// Expectations from the dataset file.

const DAY = 86_400_000;
const at = (s: string): number => Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s);
const dayStart = (ms: number) => Math.floor(ms / DAY) * DAY;
const article = (code: string) => {
  const a = fixture.articles.find((x) => x.code === code);
  if (!a) throw new Error(`no article ${code} in the dataset`);
  return a as typeof a & {
    defaultTaxCodeId: string | null;
    defaultCostCenterId: string | null;
    useArticleCostCenter: boolean;
    isActive: boolean;
  };
};
type FixtureTaxCode = (typeof fixture.taxCodes)[number] & { rate: number; taxAccountId: string; revenueAccountId: string };
const taxCode = (code: string) => fixture.taxCodes.find((x) => x.code === code)! as FixtureTaxCode;
const halfUp = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

interface LineSpec {
  code: string;
  quantity: string;
  billingDate: string;
  priceGuaranteeDate?: string;
  costCenterId?: string;
  taxCodeId?: string;
}

function expected(spec: LineSpec) {
  const a = article(spec.code);
  const ref = at(spec.priceGuaranteeDate ?? spec.billingDate);
  const price = fixture.articlePrices
    .filter((p) => p.articleId === a.id && Date.parse(p.validFrom) <= ref)
    .sort((x, y) => Date.parse(y.validFrom) - Date.parse(x.validFrom))[0];
  if (!price) throw new Error(`no price for ${spec.code}`);
  const tc = fixture.taxCodes.find((x) => x.id === (spec.taxCodeId ?? a.defaultTaxCodeId)) as FixtureTaxCode | undefined;
  if (!tc) throw new Error(`no tax code for ${spec.code}`);
  // JSON numbers of the file, read through their shortest text (as the import reads them).
  const unitPrice = new Decimal(String(price.amount));
  const rate = new Decimal(String(tc.rate));
  const net = halfUp(unitPrice.times(spec.quantity));
  const tax = halfUp(net.times(rate).dividedBy(100));
  const billing = at(spec.billingDate);
  const term = fixture.academicTerms.find(
    (x) => dayStart(Date.parse(x.startDate as string)) <= billing && billing < dayStart(Date.parse(x.endDate as string)) + DAY,
  );
  return {
    articleId: a.id,
    quantity: spec.quantity,
    billingDate: new Date(billing).toISOString(),
    referenceDate: new Date(ref).toISOString(),
    priceId: price.id,
    unitPrice: unitPrice.toFixed(),
    netAmount: net.toFixed(2),
    taxCodeId: tc.id,
    taxRate: rate.toFixed(),
    taxAmount: tax.toFixed(2),
    grossAmount: net.plus(tax).toFixed(2),
    costCenterId: a.useArticleCostCenter ? a.defaultCostCenterId : (spec.costCenterId ?? a.defaultCostCenterId),
    academicTermId: term?.id ?? null,
  };
}

const bodyOf = (specs: LineSpec[]) => ({
  lines: specs.map(({ code, ...rest }) => ({ articleId: article(code).id, ...rest, quantity: Number(rest.quantity) })),
});

/** The answer's line with decimals normalised (4900 and 4900.00 are the same number). */
function normalised(line: ExactLine) {
  const out: Record<string, string | null> = { ...line };
  for (const k of ['quantity', 'unitPrice', 'taxRate']) out[k] = new Decimal(line[k]!).toFixed();
  for (const k of ['netAmount', 'taxAmount', 'grossAmount']) {
    expect(new Decimal(line[k]!).decimalPlaces()).toBeLessThanOrEqual(2);
    out[k] = new Decimal(line[k]!).toFixed(2);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Own records for edge cases.

const OTHER_CC = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
const edge = {
  noTax: newId(), // no default tax code
  future: newId(), // prices in the future only
  noon: newId(), // a price starting at noon
  guarantee: newId(), // prices 100 (2020) and 120 (2025), taxed ST-NYC (valid from 2024-05-01)
  expiredTax: newId(), // an active tax code valid 2020-07-01 .. 2020-12-31
  futureTax: newId(), // an active tax code valid from 2030-01-01
  big: newId(), // a price of 1,000,000
  noonPrices: { early: newId(), noon: newId() },
  guaranteePrices: { early: newId(), late: newId() },
};

beforeAll(async () => {
  t = await createTestApp();
  const p = t.db.prisma;
  const v19 = taxCode('V19');
  const system = '00000000-0000-0000-0000-000000000000';
  const taxBase = {
    taxType: 'VAT',
    taxAccountId: v19.taxAccountId,
    revenueAccountId: v19.revenueAccountId,
    isActive: true,
    createdById: system,
  };
  await p.taxCode.create({
    data: {
      ...taxBase,
      id: edge.expiredTax,
      code: 'T-EXP',
      name: 'expired',
      rate: '16',
      validFrom: new Date('2020-07-01T00:00:00Z'),
      validTo: new Date('2020-12-31T00:00:00Z'),
    },
  });
  await p.taxCode.create({
    data: {
      ...taxBase,
      id: edge.futureTax,
      code: 'T-FUT',
      name: 'future',
      rate: '20',
      validFrom: new Date('2030-01-01T00:00:00Z'),
      validTo: null,
    },
  });
  const base = { isActive: true, useArticleCostCenter: false, createdById: system, defaultCostCenterId: null };
  await p.article.create({ data: { ...base, id: edge.noTax, code: 'T-NOTAX', name: 'no default tax code', defaultTaxCodeId: null } });
  await p.article.create({
    data: { ...base, id: edge.future, code: 'T-FUTURE', name: 'future prices only', defaultTaxCodeId: taxCode('V19').id },
  });
  await p.article.create({
    data: { ...base, id: edge.noon, code: 'T-NOON', name: 'price from noon', defaultTaxCodeId: taxCode('V19').id },
  });
  await p.article.create({ data: { ...base, id: edge.big, code: 'T-BIG', name: 'big price', defaultTaxCodeId: taxCode('V19').id } });
  await p.article.create({
    data: { ...base, id: edge.guarantee, code: 'T-GUAR', name: 'guarantee', defaultTaxCodeId: taxCode('ST-NYC').id },
  });
  await p.articlePrice.createMany({
    data: [
      { id: newId(), articleId: edge.noTax, amount: '10', validFrom: new Date('2020-01-01T00:00:00Z') },
      { id: newId(), articleId: edge.big, amount: '1000000', validFrom: new Date('2020-01-01T00:00:00Z') },
      { id: newId(), articleId: edge.future, amount: '10', validFrom: new Date('2099-01-01T00:00:00Z') },
      { id: edge.noonPrices.early, articleId: edge.noon, amount: '10', validFrom: new Date('2020-01-01T00:00:00Z') },
      { id: edge.noonPrices.noon, articleId: edge.noon, amount: '20', validFrom: new Date('2026-04-01T12:00:00Z') },
      { id: edge.guaranteePrices.early, articleId: edge.guarantee, amount: '56.25', validFrom: new Date('2020-01-01T00:00:00Z') },
      { id: edge.guaranteePrices.late, articleId: edge.guarantee, amount: '120', validFrom: new Date('2025-01-01T00:00:00Z') },
    ],
  });
});
afterAll(async () => {
  await t?.close();
});

// ---------------------------------------------------------------------------------------

describe('POST /api/v1/quotes', () => {
  const MULTI: LineSpec[] = [
    // A new price starting exactly on the billing date; useArticleCostCenter overrides the line's cost center.
    { code: 'WB-MBA', quantity: '1', billingDate: '2026-04-01', costCenterId: OTHER_CC },
    // 4-decimal unit price, V19.
    { code: 'BIB-DRUCK', quantity: '250', billingDate: '2026-04-01T09:15:00Z' },
    // V7, fractional quantity.
    { code: 'SHOP-BAND12', quantity: '2.5', billingDate: '2026-03-31T18:00:00Z' },
    // ST-NYC 8.88 %.
    { code: 'NY-TSHIRT', quantity: '7', billingDate: '2026-06-15T14:30:00Z' },
    // NSB (0 %), price raised on 2026-04-01.
    { code: 'SB-DTICKET', quantity: '1', billingDate: '2026-04-01' },
    // The line overrides the default cost center.
    { code: 'SHOP-HOOD', quantity: '2', billingDate: '2025-05-05', costCenterId: OTHER_CC },
    // STF, outside every academic term.
    { code: 'VW-GAST', quantity: '1', billingDate: '2030-01-01' },
    // The line names its own tax code.
    { code: 'SHOP-HOOD', quantity: '1', billingDate: '2025-05-05', taxCodeId: taxCode('V7').id },
  ];

  it('prices a multi-line quote: price, tax, cost center, term per line, and totals', async () => {
    const res = await post(bodyOf(MULTI)).expect(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const q = quoteOf(res.text);
    expect(q.lines).toHaveLength(MULTI.length);
    const want = MULTI.map(expected);
    q.lines.forEach((line, i) => expect(normalised(line)).toEqual(want[i]));

    const sum = (k: 'netAmount' | 'taxAmount' | 'grossAmount') => want.reduce((s, l) => s.plus(l[k]), new Decimal(0)).toFixed(2);
    expect(new Decimal(q.totals.netAmount).toFixed(2)).toBe(sum('netAmount'));
    expect(new Decimal(q.totals.taxAmount).toFixed(2)).toBe(sum('taxAmount'));
    expect(new Decimal(q.totals.grossAmount).toFixed(2)).toBe(sum('grossAmount'));
    expect(new Decimal(q.totals.netAmount).plus(q.totals.taxAmount).equals(q.totals.grossAmount)).toBe(true);

    // Spot checks that the expectations mean what the rules say.
    expect(q.lines[0]!.priceId).toBe(
      fixture.articlePrices.find((p) => p.articleId === article('WB-MBA').id && p.validFrom.startsWith('2026-04-01'))!.id,
    );
    expect(q.lines[0]!.costCenterId).toBe(article('WB-MBA').defaultCostCenterId);
    expect(q.lines[5]!.costCenterId).toBe(OTHER_CC);
    expect(q.lines[2]!.academicTermId).toBe(fixture.academicTerms.find((x) => x.code === 'WS2025')!.id); // last day of WS2025, evening
    expect(q.lines[0]!.academicTermId).toBe(fixture.academicTerms.find((x) => x.code === 'SS2026')!.id);
    expect(q.lines[6]!.academicTermId).toBeNull();
    expect(q.lines[3]!.taxRate).toBe('8.88');
    expect(q.lines[7]!.taxCodeId).toBe(taxCode('V7').id);
  });

  it('the service-level quote equals the REST answer', async () => {
    const body = bodyOf(MULTI);
    const res = await post(body).expect(200);
    const direct = await t.services.pricing.quote(body);
    expect(parseExact(res.text)).toEqual(parseExact(stringifyJson(direct)));
  });

  it('rounds exactly: 8.88 % of 56.25 is 4.995 → 5.00, 0.0504 × 1 → 0.05 with 0.0095 tax → 0.01', async () => {
    const res = await post({
      lines: [
        { articleId: edge.guarantee, quantity: 1, billingDate: '2024-06-01' },
        { articleId: article('BIB-DRUCK').id, quantity: 1, billingDate: '2026-01-01' },
      ],
    }).expect(200);
    const q = quoteOf(res.text);
    expect(normalised(q.lines[0]!)).toMatchObject({
      unitPrice: '56.25',
      netAmount: '56.25',
      taxRate: '8.88',
      taxAmount: '5.00',
      grossAmount: '61.25',
    });
    expect(normalised(q.lines[1]!)).toMatchObject({
      unitPrice: '0.0504',
      netAmount: '0.05',
      taxRate: '19',
      taxAmount: '0.01',
      grossAmount: '0.06',
    });
    expect(res.text).toContain('"unitPrice":0.0504');
  });

  it('compares validFrom by instant: a price from noon applies from noon; a date-only billing date is midnight UTC', async () => {
    const res = await post({
      lines: [
        { articleId: edge.noon, quantity: 1, billingDate: '2026-04-01' },
        { articleId: edge.noon, quantity: 1, billingDate: '2026-04-01T11:59:59.999Z' },
        { articleId: edge.noon, quantity: 1, billingDate: '2026-04-01T12:00:00Z' },
        { articleId: edge.noon, quantity: 1, billingDate: '2026-04-01T14:00:00+02:00' },
      ],
    }).expect(200);
    expect(quoteOf(res.text).lines.map((l) => l.priceId)).toEqual([
      edge.noonPrices.early,
      edge.noonPrices.early,
      edge.noonPrices.noon,
      edge.noonPrices.noon,
    ]);
  });

  describe('price guarantee', () => {
    it('the guarantee (matriculation) date fixes the price before later rises; referenceDate says so', async () => {
      const spec: LineSpec = { code: 'WB-MBA', quantity: '1', billingDate: '2027-11-01', priceGuaranteeDate: '2024-10-15' };
      const res = await post(bodyOf([spec, { ...spec, priceGuaranteeDate: undefined }])).expect(200);
      const [guaranteed, plain] = quoteOf(res.text).lines;
      expect(normalised(guaranteed!)).toEqual(expected(spec));
      expect(guaranteed!.referenceDate).toBe('2024-10-15T00:00:00.000Z');
      expect(guaranteed!.billingDate).toBe('2027-11-01T00:00:00.000Z');
      expect(plain!.referenceDate).toBe('2027-11-01T00:00:00.000Z');
      const newest = fixture.articlePrices
        .filter((p) => p.articleId === article('WB-MBA').id)
        .sort((a, b) => Date.parse(b.validFrom) - Date.parse(a.validFrom))[0]!;
      expect(plain!.priceId).toBe(newest.id);
      expect(guaranteed!.priceId).not.toBe(newest.id);
      expect(new Decimal(guaranteed!.unitPrice!).lessThan(plain!.unitPrice!)).toBe(true);
    });

    it('the tax code follows the billing date, not the guarantee date', async () => {
      // ST-NYC is valid from 2024-05-01: on the guarantee date (2023) it was not, on the billing date it is.
      const res = await post({
        lines: [{ articleId: edge.guarantee, quantity: 2, billingDate: '2026-01-01', priceGuaranteeDate: '2023-06-01' }],
      }).expect(200);
      const line = normalised(quoteOf(res.text).lines[0]!);
      expect(line).toMatchObject({
        priceId: edge.guaranteePrices.early,
        unitPrice: '56.25',
        netAmount: '112.50',
        taxCodeId: taxCode('ST-NYC').id,
        taxAmount: '9.99',
      });
      expect(line.academicTermId).toBe(fixture.academicTerms.find((x) => x.code === 'WS2025')!.id); // the term follows the billing date too
    });

    it('a guarantee date after the billing date is refused', async () => {
      const res = await post({
        lines: [{ articleId: edge.guarantee, quantity: 1, billingDate: '2026-01-01', priceGuaranteeDate: '2026-01-02' }],
      }).expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors).toEqual([{ field: 'lines[0].priceGuaranteeDate', message: expect.stringMatching(/billingDate/) }]);
    });
  });

  it('an inactive article can still be quoted (historical claims)', async () => {
    const spec: LineSpec = { code: 'STG-LZS', quantity: '1', billingDate: '2026-04-01' };
    expect(article('STG-LZS').isActive).toBe(false);
    const res = await post(bodyOf([spec])).expect(200);
    expect(normalised(quoteOf(res.text).lines[0]!)).toEqual(expected(spec));
  });

  describe('NO_PRICE (422)', () => {
    it('prices in the future only: names the line and its billing date', async () => {
      const res = await post({
        lines: [
          { articleId: article('SB-VWK').id, quantity: 1, billingDate: '2026-04-01' },
          { articleId: edge.future, quantity: 1, billingDate: '2026-04-01' },
        ],
      }).expect(422);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 422, code: 'NO_PRICE' });
      expect(res.body.detail).toContain('lines[1]');
      expect(res.body.detail).toContain('T-FUTURE');
      expect(res.body.errors).toEqual([{ field: 'lines[1].billingDate', message: expect.stringContaining('no price') }]);
    });

    it('a guarantee date before the first price: names the guarantee date', async () => {
      const first = fixture.articlePrices
        .filter((p) => p.articleId === article('WB-MBA').id)
        .map((p) => Date.parse(p.validFrom))
        .sort((a, b) => a - b)[0]!;
      const before = new Date(first - DAY).toISOString();
      const res = await post({
        lines: [{ articleId: article('WB-MBA').id, quantity: 1, billingDate: '2026-04-01', priceGuaranteeDate: before }],
      }).expect(422);
      expect(res.body.code).toBe('NO_PRICE');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['lines[0].priceGuaranteeDate']);
    });
  });

  describe('NO_TAX_CODE (422)', () => {
    const cases: Array<[string, () => Record<string, unknown>, RegExp]> = [
      [
        'an inactive tax code named by the line (V16)',
        () => ({ articleId: edge.noon, taxCodeId: taxCode('V16').id, billingDate: '2020-08-01' }),
        /inactive/,
      ],
      [
        'an inactive default tax code (SHOP-2020 → V16)',
        () => ({ articleId: article('SHOP-2020').id, billingDate: '2020-08-01' }),
        /default tax code V16.*inactive/,
      ],
      [
        'an expired tax code (the day after validTo)',
        () => ({ articleId: article('SHOP-HOOD').id, taxCodeId: edge.expiredTax, billingDate: '2024-01-01' }),
        /expired/,
      ],
      [
        'a tax code not yet valid',
        () => ({ articleId: article('SHOP-HOOD').id, taxCodeId: edge.futureTax, billingDate: '2026-04-01' }),
        /not valid before/,
      ],
      ['no tax code at all (no default, none named)', () => ({ articleId: edge.noTax, billingDate: '2026-04-01' }), /no default tax code/],
    ];
    it.each(cases)('%s', async (_name, line, message) => {
      const res = await post({
        lines: [
          { articleId: article('SB-VWK').id, quantity: 1, billingDate: '2026-04-01' },
          { quantity: 1, ...line() },
        ],
      }).expect(422);
      expect(res.body).toMatchObject({ status: 422, code: 'NO_TAX_CODE' });
      expect(res.body.detail).toContain('lines[1]');
      expect(res.body.errors).toEqual([{ field: 'lines[1].taxCodeId', message: expect.stringMatching(message) }]);
    });

    it('validTo is inclusive through the end of its day', async () => {
      const ok = await post({
        lines: [{ articleId: edge.noon, quantity: 1, taxCodeId: edge.expiredTax, billingDate: '2020-12-31T23:59:59Z' }],
      }).expect(200);
      expect(normalised(quoteOf(ok.text).lines[0]!)).toMatchObject({ taxCodeId: edge.expiredTax, taxRate: '16', taxAmount: '1.60' });
      const next = await post({
        lines: [{ articleId: edge.noon, quantity: 1, taxCodeId: edge.expiredTax, billingDate: '2021-01-01' }],
      }).expect(422);
      expect(next.body.code).toBe('NO_TAX_CODE');
    });
  });

  describe('VALIDATION_FAILED (400) names the field', () => {
    const ok = () => ({ articleId: article('SB-VWK').id, quantity: 1, billingDate: '2026-04-01' });
    const cases: Array<[string, () => unknown, string[]]> = [
      ['quantity 0', () => ({ lines: [{ ...ok(), quantity: 0 }] }), ['lines[0].quantity']],
      ['negative quantity', () => ({ lines: [ok(), { ...ok(), quantity: -2 }] }), ['lines[1].quantity']],
      ['quantity with 5 decimals', () => ({ lines: [{ ...ok(), quantity: 1.00001 }] }), ['lines[0].quantity']],
      ['quantity not a number', () => ({ lines: [{ ...ok(), quantity: 'three' }] }), ['lines[0].quantity']],
      ['missing billingDate', () => ({ lines: [{ articleId: ok().articleId, quantity: 1 }] }), ['lines[0].billingDate']],
      ['bad billingDate', () => ({ lines: [{ ...ok(), billingDate: '01.04.2026' }] }), ['lines[0].billingDate']],
      ['malformed articleId', () => ({ lines: [ok(), { ...ok(), articleId: 'nope' }] }), ['lines[1].articleId']],
      ['malformed costCenterId', () => ({ lines: [{ ...ok(), costCenterId: 42 }] }), ['lines[0].costCenterId']],
      ['unknown property', () => ({ lines: [{ ...ok(), discount: 5 }] }), ['lines[0].discount']],
      ['unknown top-level property', () => ({ lines: [ok()], currency: 'EUR' }), ['currency']],
      ['no lines', () => ({ lines: [] }), ['lines']],
      ['lines missing', () => ({}), ['lines']],
      ['201 lines', () => ({ lines: Array.from({ length: 201 }, ok) }), ['lines']],
      ['a body that is not an object', () => [ok()], ['']],
      [
        'unknown article',
        () => ({ lines: [ok(), { ...ok(), articleId: '0e0e0e0e-0000-4000-8000-000000000000' }] }),
        ['lines[1].articleId'],
      ],
      ['unknown tax code', () => ({ lines: [{ ...ok(), taxCodeId: '0e0e0e0e-0000-4000-8000-000000000000' }] }), ['lines[0].taxCodeId']],
      [
        'several faults at once',
        () => ({
          lines: [
            { ...ok(), quantity: 0 },
            { ...ok(), billingDate: 'x' },
          ],
        }),
        ['lines[0].quantity', 'lines[1].billingDate'],
      ],
    ];
    it.each(cases)('%s', async (_name, body, fields) => {
      const res = await post(body()).expect(400);
      expect(res.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(fields);
    });

    it('a line amount too large for the money columns', async () => {
      const res = await post({ lines: [{ articleId: edge.big, quantity: 1_000_000_000, billingDate: '2026-04-01' }] }).expect(400);
      expect(res.body.errors).toEqual([{ field: 'lines[0].quantity', message: expect.stringContaining('too large') }]);
    });
  });

  describe('auth', () => {
    const body = () => ({ lines: [{ articleId: article('SB-VWK').id, quantity: 1, billingDate: '2026-04-01' }] });
    it('401 without a token', async () => {
      const res = await request(t.http).post('/api/v1/quotes').send(body()).expect(401);
      expect(res.body.code).toBe('UNAUTHENTICATED');
    });
    it('403 with a write-only token (a quote needs billing.read)', async () => {
      const res = await request(t.http).post('/api/v1/quotes').set(bearer(t.tokens.writeOnly)).send(body()).expect(403);
      expect(res.body.code).toBe('FORBIDDEN');
    });
    it('200 with a read-only token, and with a writer token', async () => {
      await request(t.http).post('/api/v1/quotes').set(bearer(t.tokens.reader)).send(body()).expect(200);
      await request(t.http).post('/api/v1/quotes').set(bearer(t.tokens.writer)).send(body()).expect(200);
    });
  });

  it('is in the OpenAPI document', async () => {
    const doc = await request(t.http).get('/api/v1/openapi.json').expect(200);
    const op = doc.body.paths['/quotes'].post;
    expect(op.requestBody.content['application/json'].schema.properties.lines.maxItems).toBe(200);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '422']));
  });
});

describe('a 200-line quote reads the database in a constant number of queries', () => {
  // Statements of the read path: the articles with their default tax codes, their prices and
  // the terms (the tax codes the lines name are a fourth; these lines name none).
  it('three statements for 1 line and for 200 lines of many articles and dates', async () => {
    let count = 0;
    const rows: RowReader = {
      sortIndexes: t.db.rows.sortIndexes,
      read(statement) {
        count++;
        return t.db.rows.read(statement);
      },
    };
    const pricing = new PricingService({ prisma: t.db.prisma, rows });
    const priced = fixture.articles.filter((a) => a.isActive && ['SB-', 'BIB-', 'SHOP-H', 'WB-', 'NY-'].some((p) => a.code.startsWith(p)));
    const lines = Array.from({ length: 200 }, (_, i) => ({
      articleId: priced[i % priced.length]!.id,
      quantity: (i % 7) + 1,
      billingDate: new Date(Date.UTC(2025, 5, 1) + i * 3 * DAY).toISOString(),
    }));
    count = 0;
    await pricing.quote({ lines: lines.slice(0, 1) });
    expect(count).toBe(3);
    count = 0;
    const q = await pricing.quote({ lines });
    expect(count).toBe(3);
    expect(q.lines).toHaveLength(200);
    // And through HTTP, the same 200 lines.
    const res = await post({ lines }).expect(200);
    expect(parseExact(res.text)).toEqual(parseExact(stringifyJson(q)));
  });
});

describe('priceAt (Article.priceAt)', () => {
  it('the effective price on a date, null before the first price or for an unknown article', async () => {
    const mba = article('WB-MBA').id;
    const p = await t.services.pricing.priceAt(mba, new Date('2026-04-01T00:00:00Z'));
    const want = fixture.articlePrices.find((x) => x.articleId === mba && x.validFrom.startsWith('2026-04-01'))!;
    expect(p).toMatchObject({ id: want.id, articleId: mba, validFrom: new Date(want.validFrom) });
    expect(p!.amount.toFixed()).toBe(String(want.amount));
    expect(await t.services.pricing.priceAt(mba, new Date('2000-01-01T00:00:00Z'))).toBeNull();
    expect(await t.services.pricing.priceAt(newId(), new Date('2026-01-01T00:00:00Z'))).toBeNull();
    expect(await t.services.pricing.priceAt('not-a-uuid', new Date('2026-01-01T00:00:00Z'))).toBeNull();
  });

  it('pricesAt (batched) agrees with priceAt', async () => {
    const reqs = fixture.articles
      .slice(0, 10)
      .flatMap((a) => ['2018-01-01', '2024-10-01', '2026-04-01T10:00:00Z'].map((s) => ({ articleId: a.id, date: new Date(at(s)) })));
    const batched = await t.services.pricing.pricesAt(reqs);
    const single = await Promise.all(reqs.map((r) => t.services.pricing.priceAt(r.articleId, r.date)));
    expect(batched.map((p) => p && { ...p, amount: p.amount.toFixed() })).toEqual(
      single.map((p) => p && { ...p, amount: p.amount.toFixed() }),
    );
  });
});
