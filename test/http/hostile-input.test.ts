// Input a hostile or careless client can send, through both doors: values the database
// cannot hold or compare (instants outside years 1-9999, NUL characters, lone UTF-16
// surrogates), decimals in notations other than plain decimal, bodies that do not
// decompress, and unauthenticated requests that must not cost a body parse. Every one is a
// 400 (or 401) from the catalogue naming the field or position, and changes nothing.

import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { createTestApp, type TestApp, bearer } from '../support/app';
import { activeAssetAccount, fixture } from '../support/fixture';
import { gql } from '../support/graphql';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const customerId = () => fixture.customers[0]!.id;
const article = () => fixture.articles[0]!;
const sourceBody = (over: Record<string, unknown> = {}) => ({
  code: `H-${Math.random().toString(36).slice(2, 10)}`,
  name: 'Hostile',
  accountId: activeAssetAccount().id,
  sourceType: 'Cash',
  ...over,
});
/** POST raw JSON text (to send escapes such as a lone surrogate exactly as written). */
const postRaw = (path: string, text: string) =>
  request(t.http).post(path).set(bearer(t.tokens.writer)).set('Content-Type', 'application/json').send(text);
/**
 * POSTs bytes exactly as given (supertest would write a Buffer sent under a JSON type as
 * JSON), with a JSON content type and these headers.
 */
async function postBytes(path: string, bytes: Buffer, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const server = t.http.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      body: bytes,
      headers: { 'Content-Type': 'application/json', ...headers },
    });
    return { status: res.status, text: await res.text() };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}
const counts = async () => ({
  sources: await t.db.prisma.paymentSource.count(),
  payments: await t.db.prisma.payment.count(),
});

describe('instants the database cannot hold (years 1-9999 only, after the offset)', () => {
  it.each([
    ['validFrom lt 9999-12-31T23:00-14:00', 13],
    ['createdAt ge 0001-01-01T00:30+01:00', 13],
  ])('$filter=%s is 400 INVALID_QUERY at its position', async (filter, position) => {
    const res = await request(t.http).get('/api/v1/tax-codes').query({ $filter: filter }).set(bearer(t.tokens.writer));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_QUERY');
    expect(res.body.detail).toContain(`at position ${position}`);
    expect(res.body.detail).toMatch(/year/);
  });

  // A year written outside 0001-9999 (`0000-01-01`, `-10000-04-01`) is a valid OData literal
  // (the OASIS ABNF cases say so); the comparison is decided without the database.
  it('decides comparisons with years outside 0001-9999 written in the literal', async () => {
    const all = await request(t.http).get('/api/v1/tax-codes/$count').set(bearer(t.tokens.writer)).expect(200);
    const after = await request(t.http)
      .get('/api/v1/tax-codes/$count')
      .query({ $filter: 'validFrom gt 0000-01-01' })
      .set(bearer(t.tokens.writer))
      .expect(200);
    expect(after.text).toBe(all.text);
    const listed = await request(t.http)
      .get('/api/v1/tax-codes')
      .query({ $filter: 'validFrom in (0000-12-31)' })
      .set(bearer(t.tokens.writer))
      .expect(200);
    expect(listed.body.value).toEqual([]);
  });

  it('accepts the first and the last instant the database holds', async () => {
    for (const filter of [
      'validFrom gt 0001-01-01',
      'validFrom lt 9999-12-31T23:59:59.999Z',
      'validFrom lt 9999-12-31T23:59+00:00',
      'createdAt gt 0001-01-01T01:00+01:00',
    ]) {
      const res = await request(t.http).get('/api/v1/tax-codes').query({ $filter: filter }).set(bearer(t.tokens.writer));
      expect(res.status).toBe(200);
    }
  });

  it.each(['0000-01-01T00:00:00Z', '9999-12-31T23:00:00-14:00', '0001-01-01T00:00:00+00:01', '0000-06-30'])(
    'payment receivedAt %s is 400 naming receivedAt, nothing written',
    async (receivedAt) => {
      const before = await counts();
      const res = await request(t.http)
        .post('/api/v1/payments')
        .set(bearer(t.tokens.writer))
        .send({ customerId: customerId(), amount: 1, receivedAt });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors).toEqual([{ field: 'receivedAt', message: expect.stringMatching(/year/) }]);
      expect(await counts()).toEqual(before);
    },
  );

  it('quote billingDate and priceGuaranteeDate out of range are 400 naming the line field', async () => {
    const line = { articleId: article().id, quantity: 1, billingDate: '2026-03-01' };
    const a = await request(t.http)
      .post('/api/v1/quotes')
      .set(bearer(t.tokens.writer))
      .send({ lines: [{ ...line, billingDate: '0000-03-01' }] });
    expect(a.status).toBe(400);
    expect(a.body.errors).toEqual([{ field: 'lines[0].billingDate', message: expect.stringMatching(/year/) }]);
    const b = await request(t.http)
      .post('/api/v1/quotes')
      .set(bearer(t.tokens.writer))
      .send({ lines: [line, { ...line, priceGuaranteeDate: '0000-12-31T23:59:59Z' }] });
    expect(b.status).toBe(400);
    expect(b.body.errors).toEqual([{ field: 'lines[1].priceGuaranteeDate', message: expect.stringMatching(/year/) }]);
    const c = await request(t.http)
      .post('/api/v1/quotes')
      .set(bearer(t.tokens.writer))
      .send({ lines: [{ ...line, billingDate: '9999-12-31T23:30:00-01:00' }] });
    expect(c.status).toBe(400);
  });

  it('GraphQL where and quote: in literals and in variables, VALIDATION_FAILED, never INTERNAL', async () => {
    const literal = await gql(t, '{ taxCodes(where: { validFrom: { gt: "0000-01-01" } }) { totalCount } }');
    expect(literal.status).toBe(400);
    expect(literal.errors?.[0]?.extensions.code).toBe('VALIDATION_FAILED');
    const variable = await gql(t, 'query($w: TaxCodeWhere) { taxCodes(where: $w) { totalCount } }', {
      w: { OR: [{ validFrom: { lt: '9999-12-31T23:00-14:00' } }] },
    });
    expect(variable.status).toBe(400);
    expect(variable.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'OR[0].validFrom.lt' });
    const quote = await gql(t, 'query($i: QuoteInput!) { quote(input: $i) { totals { netAmount } } }', {
      i: { lines: [{ articleId: article().id, quantity: 1, billingDate: '0000-01-01' }] },
    });
    expect(quote.status).toBe(400);
    expect(quote.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'lines[0].billingDate' });
    const priceAt = await gql(t, `{ article(id: "${article().id}") { priceAt(date: "0000-02-01") { id } } }`);
    expect(priceAt.errors?.[0]?.extensions.code).toBe('VALIDATION_FAILED');
  });
});

describe('NUL characters and lone surrogates in strings', () => {
  it('a NUL in an OData string literal is 400 INVALID_QUERY at its position', async () => {
    for (const filter of ["code eq 'a\u0000b'", "contains(name,'\u0000')", "code in ('x','\u0000')"]) {
      const res = await request(t.http).get('/api/v1/payment-sources').query({ $filter: filter }).set(bearer(t.tokens.writer));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_QUERY');
      expect(res.body.detail).toMatch(/NUL.*at position \d+/);
    }
  });

  it.each([
    ['a NUL', '"a\\u0000b"'],
    ['a lone high surrogate', '"\\ud800"'],
    ['a lone low surrogate', '"x\\udc00y"'],
    ['a reversed pair', '"\\udc00\\ud800"'],
  ])('%s in a payment-source name or a payment reference is 400 naming the field', async (_what, json) => {
    const before = await counts();
    const body = JSON.stringify(sourceBody()).replace('"Hostile"', json);
    const a = await postRaw('/api/v1/payment-sources', body);
    expect(a.status).toBe(400);
    expect(a.body.errors).toEqual([{ field: 'name', message: expect.any(String) }]);
    const b = await postRaw('/api/v1/payments', `{"customerId":"${customerId()}","amount":1,"reference":${json}}`);
    expect(b.status).toBe(400);
    expect(b.body.errors).toEqual([{ field: 'reference', message: expect.any(String) }]);
    expect(await counts()).toEqual(before);
  });

  it('GraphQL variables: a NUL or a lone surrogate in a where value or an input is VALIDATION_FAILED or INVALID_QUERY', async () => {
    for (const json of ['"a\\u0000"', '"\\ud800"']) {
      const where = await request(t.http)
        .post('/graphql')
        .set(bearer(t.tokens.writer))
        .set('Content-Type', 'application/json')
        .send(
          `{"query":"query($w: PaymentSourceWhere) { paymentSources(where: $w) { totalCount } }","variables":{"w":{"code":{"eq":${json}}}}}`,
        );
      expect(where.body.data?.paymentSources ?? null).toBeNull();
      expect(where.body.errors[0].extensions).toMatchObject({ code: 'INVALID_QUERY' });
      expect(where.body.errors[0].message).toContain('where.code.eq');
      const create = await request(t.http)
        .post('/graphql')
        .set(bearer(t.tokens.writer))
        .set('Content-Type', 'application/json')
        .send(
          `{"query":"mutation($i: CreatePaymentSourceInput!) { createPaymentSource(input: $i) { id } }","variables":{"i":${JSON.stringify(sourceBody()).replace('"Hostile"', json)}}}`,
        );
      expect(create.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'name' });
    }
  });
});

describe('bodies that do not decompress', () => {
  it.each(['gzip', 'deflate', 'br'])('Content-Encoding: %s with a broken body is 400 VALIDATION_FAILED in both doors', async (encoding) => {
    const garbage = Buffer.from('this is not compressed at all');
    for (const path of ['/api/v1/payment-sources', '/graphql']) {
      const res = await postBytes(path, garbage, { ...bearer(t.tokens.writer), 'Content-Encoding': encoding });
      expect(res.status).toBe(400);
      expect(res.text).toContain('VALIDATION_FAILED');
    }
  });

  it('a truncated gzip body is 400, a whole one works', async () => {
    const zipped = gzipSync(JSON.stringify(sourceBody()));
    const cut = await postBytes('/api/v1/payment-sources', zipped.subarray(0, zipped.length - 6), {
      ...bearer(t.tokens.writer),
      'Content-Encoding': 'gzip',
    });
    expect(cut.status).toBe(400);
    const whole = await postBytes('/api/v1/payment-sources', zipped, { ...bearer(t.tokens.writer), 'Content-Encoding': 'gzip' });
    expect(whole.status).toBe(201);
  });
});

describe('decimals sent as strings: plain decimal notation only', () => {
  it.each(['0x10', '0b101', '0o17', '1e2', '1E-2', 'Infinity', '-Infinity', 'NaN', '', ' ', '1_000', '1.2.3', '+-1', '١٢'])(
    'payment amount "%s" is 400 naming amount, nothing stored',
    async (amount) => {
      const before = await counts();
      const res = await request(t.http).post('/api/v1/payments').set(bearer(t.tokens.writer)).send({ customerId: customerId(), amount });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: 'amount', message: expect.any(String) }]);
      expect(await counts()).toEqual(before);
    },
  );

  it('accepts plain decimal text exactly', async () => {
    const res = await request(t.http)
      .post('/api/v1/payments')
      .set(bearer(t.tokens.writer))
      .send({ customerId: customerId(), amount: '16.5000' })
      .expect(201);
    expect(res.body.amount).toBe(16.5);
  });

  it('GraphQL Decimal variables and literals refuse hex, binary and exponent strings; quote quantities too', async () => {
    for (const amount of ['0x10', '0b101', '1e1']) {
      const res = await gql(t, 'mutation($i: CreatePaymentInput!) { createPayment(input: $i) { id } }', {
        i: { customerId: customerId(), amount },
      });
      expect(res.status).toBe(400);
      expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'amount' });
      const q = await request(t.http)
        .post('/api/v1/quotes')
        .set(bearer(t.tokens.writer))
        .send({ lines: [{ articleId: article().id, quantity: amount, billingDate: '2026-03-01' }] });
      expect(q.status).toBe(400);
      expect(q.body.errors).toEqual([{ field: 'lines[0].quantity', message: expect.any(String) }]);
    }
    const literal = await gql(t, `mutation { createPayment(input: { customerId: "${customerId()}", amount: "0x10" }) { id } }`);
    expect(literal.errors?.[0]?.extensions.code).toBe('VALIDATION_FAILED');
  });
});

describe('the token is checked before the body is read', () => {
  it('an unauthenticated request with a body that is not JSON is 401, not 400 (both doors)', async () => {
    for (const path of ['/api/v1/payment-sources', '/graphql']) {
      const res = await request(t.http).post(path).set('Content-Type', 'application/json').send('{ not json');
      expect(res.status).toBe(401);
      expect(JSON.stringify(res.body)).toContain('UNAUTHENTICATED');
    }
  });

  it('an unauthenticated request with a broken gzip body is 401', async () => {
    for (const path of ['/api/v1/payment-sources', '/graphql']) {
      const res = await postBytes(path, Buffer.from('xx'), { Authorization: 'Bearer nope', 'Content-Encoding': 'gzip' });
      expect(res.status).toBe(401);
    }
  });
});
