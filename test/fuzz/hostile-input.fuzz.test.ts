// Seeded fuzzing of what a client can send, through both doors on a real database (PGlite,
// or PostgreSQL with DATABASE_URL): `$filter` values, JSON bodies of payment sources,
// payments and quotes, and GraphQL variables. Whatever the input, the answer is never a 5xx
// and never INTERNAL. The seed is fixed (a failure replays with the same inputs) and the
// number of inputs bounded; FUZZ_RUNS scales every property (for a longer run by hand).

import fc from 'fast-check';
import request from 'supertest';
import { paymentFields } from '../../src/domain/payment/fields';
import { paymentSourceFields } from '../../src/domain/payment-source/fields';
import { taxCodeFields } from '../../src/domain/tax-code/fields';
import type { FieldCatalog, FieldSpec } from '../../src/query/fields';
import { createTestApp, type TestApp, bearer } from '../support/app';
import { activeAssetAccount, fixture } from '../support/fixture';
import { gqlRequest } from '../support/graphql';

const SEED = 20261123;
const SCALE = Number(process.env.FUZZ_RUNS ?? '1');
const runs = (n: number) => ({ seed: SEED, numRuns: Math.max(1, Math.round(n * SCALE)), endOnFailure: true });

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  process.stdout.write(`fuzz: ${JSON.stringify(tally)}\n`);
  await t.close();
});

/** Inputs sent and answers by status class, per property (printed at the end). */
const tally: Record<string, { inputs: number; '2xx': number; '4xx': number; '5xx': number }> = {};
function count(name: string, status: number): void {
  const row = (tally[name] ??= { inputs: 0, '2xx': 0, '4xx': 0, '5xx': 0 });
  row.inputs += 1;
  if (status >= 500) row['5xx'] += 1;
  else if (status >= 400) row['4xx'] += 1;
  else row['2xx'] += 1;
}

/** A REST answer: below 500 and not INTERNAL. */
function expectNoFault(name: string, res: request.Response, input: unknown): void {
  count(name, res.status);
  if (res.status >= 500 || res.body?.code === 'INTERNAL') {
    throw new Error(`${name}: ${res.status} ${res.text.slice(0, 300)} for ${JSON.stringify(input).slice(0, 300)}`);
  }
}

/** A GraphQL answer: below 500 and no INTERNAL error. */
function expectNoGraphqlFault(name: string, res: request.Response, input: unknown): void {
  count(name, res.status);
  const errors = (res.body?.errors ?? []) as Array<{ extensions?: { code?: string } }>;
  if (res.status >= 500 || errors.some((e) => e.extensions?.code === 'INTERNAL')) {
    throw new Error(`${name}: ${res.status} ${res.text.slice(0, 300)} for ${JSON.stringify(input).slice(0, 300)}`);
  }
}

// ---------------------------------------------------------------------------------------
// Hostile values

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** Dates and date-times around every edge: years 0, 1 and 9999, offsets up to ±14 h and beyond, impossible days. */
const dateText = fc
  .tuple(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(0, 1, 9999) },
      { weight: 1, arbitrary: fc.constantFrom(1970, 2026) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 9999 }) },
    ),
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom(1, 12) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 13 }) }),
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom(1, 31) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 32 }) }),
    fc.option(
      fc.tuple(
        fc.oneof({ weight: 4, arbitrary: fc.constantFrom(0, 23) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 25 }) }),
        fc.oneof({ weight: 4, arbitrary: fc.constantFrom(0, 59) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 60 }) }),
        fc.option(fc.integer({ min: 0, max: 60 })),
        fc.option(fc.constantFrom('.5', '.999', '.0000001', '.123456789012')),
        fc.oneof(
          fc.constantFrom('Z', '', '+14:00', '-14:00', '+00:01', '-00:01', '+23:59'),
          fc
            .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 60 }))
            .map(([s, h, m]) => `${s}${pad(h, 2)}:${pad(m, 2)}`),
        ),
      ),
      { freq: 2 },
    ),
  )
  .map(([y, mo, d, time]) => {
    const date = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}`;
    if (!time) return date;
    const [h, mi, s, f, zone] = time;
    return `${date}T${pad(h, 2)}:${pad(mi, 2)}${s === null ? '' : `:${pad(s, 2)}${f ?? ''}`}${zone}`;
  });

/** Decimal text in every notation a number parser might accept. */
const decimalText = fc.oneof(
  fc.constantFrom(
    '0x10',
    '0b101',
    '0o17',
    '1e2',
    '1E400',
    '-1e-400',
    'Infinity',
    '-Infinity',
    'NaN',
    '١٢',
    ' 1',
    '1 ',
    '.5',
    '5.',
    '+5',
    '--1',
    '1_000',
    '0.00001',
    '99999999999999999999999.9999',
    '',
  ),
  fc.double().map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => `${a}.${b}`),
);

/** Strings with NULs, lone surrogates, quotes, LIKE wildcards and any code unit at all. */
const hostileString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('\u0000', '\ud800', '\udc00', "'", '"', '%', '_', '\\', 'a', 'é', '😀', '\n'), maxLength: 12 }),
  fc.constantFrom('\u0000', '\ud800', 'x\udfffy', "''", '%', '_'),
);

const uuidish = fc.oneof(
  fc.uuid(),
  fc.constantFrom('00000000-0000-0000-0000-000000000000', 'not-a-uuid', fixture.customers[0]!.id.toUpperCase()),
);

/** Any value of a JSON body field: plausible, hostile, or of the wrong type. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: dateText },
  { weight: 2, arbitrary: decimalText },
  { weight: 1, arbitrary: uuidish },
  { weight: 1, arbitrary: fc.oneof(fc.double(), fc.integer(), fc.boolean(), fc.constant(null)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/**
 * A field that is valid most of the time, so that a body often carries one or two hostile
 * values among valid ones and gets past validation to the database when they are accepted.
 */
const usually = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: anyValue });

/** A value aimed at a field of this type (hostile within the type), sometimes anything at all. */
const valueFor = (spec: FieldSpec): fc.Arbitrary<unknown> => {
  const typed: Record<FieldSpec['type'], fc.Arbitrary<unknown>> = {
    string: hostileString,
    datetime: dateText,
    decimal: fc.oneof(decimalText, fc.double()),
    uuid: uuidish,
    enum: fc.constantFrom(...(spec.type === 'enum' ? spec.values : []), 'bogus', ''),
    boolean: fc.boolean(),
  };
  return fc.oneof({ weight: 4, arbitrary: typed[spec.type] }, { weight: 1, arbitrary: anyValue });
};

/** Posts a body as JSON text: JSON.stringify writes lone surrogates as \ud800 escapes, the server reads them back. */
const postJson = (path: string, body: unknown) =>
  request(t.http)
    .post(path)
    .set(bearer(t.tokens.writer))
    .set('Content-Type', 'application/json')
    .send(JSON.stringify(body) ?? 'null');

// ---------------------------------------------------------------------------------------
// $filter

/** A literal of any OData kind, hostile ones included. */
const odataLiteral = fc.oneof(
  hostileString.map((v) => `'${v.replace(/'/g, "''")}'`),
  dateText,
  decimalText,
  uuidish,
  fc.constantFrom('null', 'true', 'false', "''", "'unterminated", '(', ')', ',', 'eq', '-', '1-1'),
);

/** A literal aimed at a field of this type (hostile within the type), sometimes any literal. */
const literalFor = (spec: FieldSpec): fc.Arbitrary<string> => {
  const quoted = (a: fc.Arbitrary<string>) => a.map((v) => `'${v.replace(/'/g, "''")}'`);
  const typed: Record<FieldSpec['type'], fc.Arbitrary<string>> = {
    string: quoted(hostileString),
    datetime: dateText,
    decimal: decimalText,
    uuid: uuidish,
    enum: quoted(fc.constantFrom(...(spec.type === 'enum' ? spec.values : []), 'bogus', '\u0000')),
    boolean: fc.constantFrom('true', 'false'),
  };
  return fc.oneof({ weight: 4, arbitrary: typed[spec.type] }, { weight: 1, arbitrary: odataLiteral });
};

const fieldNames = (fields: FieldCatalog) => fc.constantFrom(...Object.keys(fields), 'nope', '__proto__', 'constructor');
/** A field of the resource with a literal for it (or, rarely, a name it does not have). */
const fieldWithLiteral = (fields: FieldCatalog) =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constantFrom(...Object.entries(fields)).chain(([name, spec]) => literalFor(spec).map((lit) => [name, lit] as const)),
    },
    { weight: 1, arbitrary: fc.tuple(fieldNames(fields), odataLiteral) },
  );
const filterFor = (fields: FieldCatalog) =>
  fc.oneof(
    fc.tuple(fieldWithLiteral(fields), fc.constantFrom('eq', 'ne', 'gt', 'ge', 'lt', 'le', 'EQ')).map(([[f, v], op]) => `${f} ${op} ${v}`),
    fc.tuple(fieldWithLiteral(fields), fc.array(odataLiteral, { maxLength: 3 })).map(([[f, v], vs]) => `${f} in (${[v, ...vs].join(',')})`),
    fc
      .tuple(fc.constantFrom('contains', 'startswith', 'endswith'), fc.constantFrom('', 'tolower(', 'toupper('), fieldWithLiteral(fields))
      .map(([fn, wrap, [f, v]]) => `${fn}(${wrap}${f}${wrap ? ')' : ''},${v})`),
    fc.tuple(fieldWithLiteral(fields), fieldWithLiteral(fields)).map(([[a, v], [b, w]]) => `not (${a} eq ${v}) or ${b} lt ${w}`),
  );

/** The query string of a filter, or undefined when it cannot be percent-encoded (a lone surrogate has no UTF-8 form). */
function filterQuery(filter: string): string | undefined {
  try {
    return `$filter=${encodeURIComponent(filter)}`;
  } catch {
    return undefined;
  }
}

describe('$filter values', () => {
  it.each<[string, FieldCatalog]>([
    ['/api/v1/payment-sources', paymentSourceFields],
    ['/api/v1/payments', paymentFields],
    ['/api/v1/tax-codes', taxCodeFields],
  ])('%s: never a 5xx, never INTERNAL', async (path, fields) => {
    await fc.assert(
      fc.asyncProperty(filterFor(fields), async (filter) => {
        const query = filterQuery(filter);
        if (query === undefined) return;
        const res = await request(t.http).get(`${path}?${query}`).set(bearer(t.tokens.writer));
        expectNoFault('$filter', res, filter);
      }),
      runs(120),
    );
  });
});

// ---------------------------------------------------------------------------------------
// JSON bodies

describe('JSON bodies', () => {
  it('POST /payment-sources: never a 5xx, never INTERNAL', async () => {
    const body = fc.record(
      {
        code: usually(fc.string({ minLength: 1, maxLength: 50 })),
        name: usually(fc.string({ minLength: 1, maxLength: 200 })),
        description: usually(fc.option(fc.string({ maxLength: 50 }))),
        accountId: usually(fc.constant(activeAssetAccount().id)),
        sourceType: usually(fc.constantFrom('Cash', 'Check', 'Other')),
        isActive: usually(fc.boolean()),
        isDefault: usually(fc.constant(false)),
      },
      { requiredKeys: ['code', 'name', 'accountId', 'sourceType'] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => expectNoFault('payment-sources', await postJson('/api/v1/payment-sources', b), b)),
      runs(120),
    );
  });

  it('POST /payments: never a 5xx, never INTERNAL', async () => {
    const body = fc.record(
      {
        customerId: usually(fc.constantFrom(...fixture.customers.map((c) => c.id))),
        paymentSourceId: usually(fc.constantFrom(...fixture.paymentSources.map((s) => s.id))),
        amount: usually(fc.oneof(fc.integer({ min: 1, max: 10_000 }), decimalText)),
        receivedAt: usually(dateText),
        reference: usually(fc.string({ maxLength: 200 })),
      },
      { requiredKeys: ['customerId', 'amount'] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => expectNoFault('payments', await postJson('/api/v1/payments', b), b)),
      runs(120),
    );
  });

  it('POST /quotes: never a 5xx, never INTERNAL', async () => {
    const line = fc.record(
      {
        articleId: usually(fc.constantFrom(...fixture.articles.map((a) => a.id))),
        quantity: usually(fc.oneof(fc.integer({ min: 1, max: 100 }), decimalText)),
        billingDate: usually(fc.constantFrom('2026-03-01', '2026-09-15T10:00:00+02:00', '2027-01-10')),
        priceGuaranteeDate: fc.oneof(fc.constant('2026-02-01'), dateText, anyValue),
        costCenterId: fc.oneof(fc.uuid(), anyValue),
        taxCodeId: usually(fc.constantFrom(...fixture.taxCodes.map((c) => c.id))),
      },
      { requiredKeys: ['articleId', 'quantity', 'billingDate'] },
    );
    const body = fc.oneof(
      { weight: 5, arbitrary: fc.record({ lines: fc.array(line, { minLength: 1, maxLength: 3 }) }) },
      { weight: 1, arbitrary: anyValue },
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => expectNoFault('quotes', await postJson('/api/v1/quotes', b), b)),
      runs(120),
    );
  });
});

// ---------------------------------------------------------------------------------------
// GraphQL variables

/** A where object of hostile conditions, nested a little. */
const whereFor = (fields: FieldCatalog): fc.Arbitrary<unknown> =>
  fc.letrec<{ where: unknown }>((tie) => ({
    where: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc
        .constantFrom(...Object.entries(fields))
        .chain(([name, spec]) =>
          fc
            .dictionary(
              fc.constantFrom(
                'eq',
                'ne',
                'gt',
                'ge',
                'lt',
                'le',
                'in',
                'contains',
                'startsWith',
                'endsWith',
                'isNull',
                'ignoreCase',
                'bogus',
              ),
              fc.oneof({ weight: 4, arbitrary: valueFor(spec) }, { weight: 1, arbitrary: fc.array(valueFor(spec), { maxLength: 3 }) }),
              { minKeys: 1, maxKeys: 2 },
            )
            .map((ops) => ({ [name]: ops })),
        ),
      fc.dictionary(fieldNames(fields), anyValue, { maxKeys: 2 }),
      fc.record({ OR: fc.array(tie('where'), { maxLength: 2 }) }),
      fc.record({ AND: fc.array(tie('where'), { maxLength: 2 }) }),
      fc.record({ NOT: tie('where') }),
      anyValue,
    ),
  })).where;

const gqlPost = (query: string, variables: unknown) => gqlRequest(t.http, { query, variables }, t.tokens.writer);

describe('GraphQL variables', () => {
  it.each<[string, string, FieldCatalog]>([
    [
      'paymentSources',
      'query($w: PaymentSourceWhere) { paymentSources(where: $w, first: 5) { totalCount nodes { id } } }',
      paymentSourceFields,
    ],
    ['payments', 'query($w: PaymentWhere) { payments(where: $w, first: 5) { totalCount } }', paymentFields],
    ['taxCodes', 'query($w: TaxCodeWhere) { taxCodes(where: $w, first: 5) { totalCount } }', taxCodeFields],
  ])('%s(where: $w): never a 5xx, never INTERNAL', async (_name, query, fields) => {
    await fc.assert(
      fc.asyncProperty(whereFor(fields), async (w) => expectNoGraphqlFault('graphql where', await gqlPost(query, { w }), w)),
      runs(80),
    );
  });

  it('mutations, quote, priceAt and single fields with hostile variables: never a 5xx, never INTERNAL', async () => {
    const operations = [
      'mutation($i: CreatePaymentSourceInput!) { createPaymentSource(input: $i) { id } }',
      'mutation($id: ID!, $i: UpdatePaymentSourceInput!) { updatePaymentSource(id: $id, input: $i) { id } }',
      'mutation($i: CreatePaymentInput!) { createPayment(input: $i) { id amount } }',
      'query($i: QuoteInput!) { quote(input: $i) { totals { netAmount } } }',
      'query($id: ID!, $d: DateTime!) { article(id: $id) { priceAt(date: $d) { amount } } }',
      'query($id: ID!, $n: Int, $a: String) { customer(id: $id) { id } customers(first: $n, after: $a) { totalCount } }',
    ];
    const input = fc.record(
      {
        code: anyValue,
        name: anyValue,
        accountId: usually(fc.constant(activeAssetAccount().id)),
        sourceType: usually(fc.constantFrom('Cash', 'Cas')),
        customerId: usually(fc.constant(fixture.customers[0]!.id)),
        amount: usually(decimalText),
        receivedAt: usually(dateText),
        reference: anyValue,
        lines: fc.array(
          fc.record(
            {
              articleId: usually(fc.constant(fixture.articles[0]!.id)),
              quantity: usually(decimalText),
              billingDate: usually(dateText),
              priceGuaranteeDate: anyValue,
            },
            { requiredKeys: [] },
          ),
          { maxLength: 2 },
        ),
      },
      { requiredKeys: [] },
    );
    const variables = fc.record(
      {
        i: fc.oneof(input, anyValue),
        id: usually(fc.constantFrom(fixture.paymentSources[0]!.id, fixture.articles[0]!.id)),
        d: usually(dateText),
        n: anyValue,
        a: anyValue,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...operations), variables, async (query, v) =>
        expectNoGraphqlFault('graphql variables', await gqlPost(query, v), v),
      ),
      runs(160),
    );
  });
});
