// Who may ask what, and how much: bearer tokens and scopes, depth / cost / breadth limits,
// introspection and GraphiQL outside production, and the production error form.

import express from 'express';
import { getIntrospectionQuery } from 'graphql';
import request from 'supertest';
import { createTokenVerifier } from '../../src/auth/tokens';
import { createFormatError } from '../../src/graphql/errors';
import { createGraphqlHandler } from '../../src/graphql/server';
import { createLogger } from '../../src/http/logger';
import { createTestApp, TEST_SECRET, token, WRITER_ID, type TestApp, bearer } from '../support/app';
import { activeAssetAccount } from '../support/fixture';
import { gql, gqlOk } from '../support/graphql';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const CREATE = 'mutation($input: CreatePaymentSourceInput!) { createPaymentSource(input: $input) { id } }';
const input = { code: 'AUTH-1', name: 'Auth', accountId: activeAssetAccount().id, sourceType: 'Cash' };
const countSources = () => t.db.prisma.paymentSource.count();

describe('authentication and scopes', () => {
  it('refuses a request without a token, with a bad token or with an expired one: 401 UNAUTHENTICATED', async () => {
    const expired = await token('billing.read billing.write', WRITER_ID, { expiresIn: -60 });
    const forged = `${t.tokens.writer.slice(0, -4)}AAAA`;
    for (const tok of [null, 'not-a-jwt', forged, expired]) {
      const res = await gql(t, '{ accounts { totalCount } }', undefined, tok);
      expect(res.status).toBe(401);
      expect(res.errors?.[0]?.extensions.code).toBe('UNAUTHENTICATED');
      expect(res.data).toBeUndefined();
    }
    const other = await token('billing.read', WRITER_ID);
    const bad = await request(t.http)
      .post('/graphql')
      .set('Authorization', `Basic ${other}`)
      .send({ query: '{ accounts { totalCount } }' });
    expect(bad.status).toBe(401);
  });

  it('refuses a mutation with a read-only token: 403 FORBIDDEN, nothing written', async () => {
    const before = await countSources();
    const res = await gql(t, CREATE, { input }, t.tokens.reader);
    expect(res.status).toBe(403);
    expect(res.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    expect(await countSources()).toBe(before);
  });

  it('refuses a query with a write-only token: 403 FORBIDDEN', async () => {
    const res = await gql(t, '{ accounts { totalCount } }', undefined, t.tokens.writeOnly);
    expect(res.status).toBe(403);
    expect(res.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
  });

  it('lets a writer (read and write scopes) query and mutate, and a write-only token mutate', async () => {
    await gqlOk(t, '{ accounts { totalCount } }');
    await gqlOk(t, CREATE, { input });
    const res = await gql(t, 'mutation { deletePaymentSource(id: "7e57a7e5-0000-4000-8000-00000000abcd") }', undefined, t.tokens.writeOnly);
    expect(res.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
  });

  it('serves queries over GET, never mutations', async () => {
    const get = (query: string) =>
      request(t.http).get('/graphql').query({ query }).set(bearer(t.tokens.writer)).set('apollo-require-preflight', 'true');
    const ok = await get('{ accounts { totalCount } }');
    expect(ok.status).toBe(200);
    expect(ok.body.data.accounts.totalCount).toBeGreaterThan(0);
    const mutation = await get('mutation { deletePaymentSource(id: "7e57a7e5-0000-4000-8000-00000000abcd") }');
    expect(mutation.status).toBe(405);
  });
});

describe('introspection and the Sandbox page (outside production)', () => {
  it('answers introspection, the full query included', async () => {
    const data = await gqlOk(t, getIntrospectionQuery());
    expect(data.__schema.queryType.name).toBe('Query');
    expect(data.__schema.types.some((ty: { name: string }) => ty.name === 'PaymentSourceWhere')).toBe(true);
  });

  it('serves the Apollo Sandbox page to a browser without a token', async () => {
    const res = await request(t.http).get('/graphql').set('Accept', 'text/html');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toMatch(/new window\.EmbeddedSandbox/);
  });
});

describe('limits', () => {
  const DEEP =
    '{ paymentSources(first: 1) { nodes { account { paymentSources { payments { customer { payments { paymentSource { account { paymentSources { id } } } } } } } } } } }';

  it('refuses a query nested deeper than 10 levels: QUERY_TOO_COMPLEX', async () => {
    const res = await gql(t, DEEP);
    expect(res.status).toBe(400);
    expect(res.errors?.[0]?.extensions.code).toBe('QUERY_TOO_COMPLEX');
    expect(res.errors?.[0]?.message).toMatch(/11 levels/);
  });

  it('counts depth through fragments, and accepts 10 levels', async () => {
    const viaFragment = `query { paymentSources(first: 1) { nodes { ...S } } }
      fragment S on PaymentSource { account { paymentSources { payments { customer { payments { paymentSource { account { paymentSources { id } } } } } } } } }`;
    expect((await gql(t, viaFragment)).errors?.[0]?.extensions.code).toBe('QUERY_TOO_COMPLEX');
    const ten =
      '{ paymentSources(first: 1) { nodes { account { paymentSources { payments { customer { payments { paymentSource { account { id } } } } } } } } } }';
    await gqlOk(t, ten);
  });

  it('refuses a query that could return too many objects, with first from a literal, a variable or a fragment', async () => {
    const costly = '{ customers(first: 1000) { nodes { payments { paymentSource { payments { id } } } } } }';
    expect((await gql(t, costly)).errors?.[0]?.extensions.code).toBe('QUERY_TOO_COMPLEX');
    const q = 'query($n: Int) { customers(first: $n) { nodes { payments { paymentSource { payments { id } } } } } }';
    const tooMany = await gql(t, q, { n: 1000 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.errors?.[0]?.extensions.code).toBe('QUERY_TOO_COMPLEX');
    // The same document with a small page runs (cost is per request, not per document).
    await gqlOk(t, q, { n: 5 });
    const fragment =
      'query { a: customers(first: 1000) { ...C } } fragment C on CustomerConnection { edges { node { payments { customer { payments { id } } } } } }';
    expect((await gql(t, fragment)).errors?.[0]?.extensions.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('accepts the benchmark shape at the largest page: 1000 customers with addresses', async () => {
    await gqlOk(t, '{ customers(first: 1000) { nodes { id addresses { id city } defaultAddress { id } } } }');
  });

  it('refuses more than 20 root fields or more than 50 aliases', async () => {
    const roots = Array.from({ length: 21 }, (_, i) => `r${i}: accounts(first: 1) { totalCount }`).join(' ');
    const res = await gql(t, `{ ${roots} }`);
    expect(res.errors?.[0]?.extensions.code).toBe('QUERY_TOO_COMPLEX');
    const aliases = Array.from({ length: 51 }, (_, i) => `a${i}: id`).join(' ');
    const res2 = await gql(t, `{ accounts(first: 1) { nodes { ${aliases} } } }`);
    expect(res2.errors?.[0]?.extensions.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('answers quickly a document whose fragments spread into each other many times over', async () => {
    const n = 40;
    const fragments = Array.from({ length: n }, (_, i) =>
      i === n - 1
        ? `fragment F${i} on Query { accounts(first: 1) { totalCount } }`
        : `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`,
    ).join(' ');
    const started = Date.now();
    const res = await gql(t, `query { ...F0 } ${fragments}`);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(res.status === 200 || res.status === 400).toBe(true);
  });

  it('answers a batch operation by operation (test/graphql/batching.test.ts has its limits) and reports syntax errors as GRAPHQL_PARSE_FAILED', async () => {
    const batch = await request(t.http)
      .post('/graphql')
      .set(bearer(t.tokens.writer))
      .send([{ query: '{ accounts { totalCount } }' }, { query: '{ accounts { totalCount } }' }]);
    expect(batch.status).toBe(200);
    expect(batch.body).toHaveLength(2);
    const parse = await gql(t, '{ accounts { ');
    expect(parse.status).toBe(400);
    expect(parse.errors?.[0]?.extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    const unknown = await gql(t, '{ accounts { nodes { nope } } }');
    expect(unknown.errors?.[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('production', () => {
  let prod: express.Express;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    const gqlDoor = await createGraphqlHandler({
      services: t.services,
      verify: createTokenVerifier({ secret: TEST_SECRET }),
      production: true,
      logger: createLogger('silent'),
    });
    stop = gqlDoor.stop;
    prod = express();
    prod.use('/graphql', express.json(), gqlDoor.handler);
  });
  afterAll(async () => {
    await stop();
  });

  it('refuses introspection and serves no landing page', async () => {
    const res = await request(prod).post('/graphql').set(bearer(t.tokens.writer)).send({ query: '{ __schema { queryType { name } } }' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const page = await request(prod).get('/graphql').set('Accept', 'text/html');
    expect(page.headers['content-type'] ?? '').not.toMatch(/text\/html/);
  });

  it('still answers queries', async () => {
    const res = await request(prod)
      .post('/graphql')
      .set(bearer(t.tokens.reader))
      .send({ query: '{ accounts(first: 2) { nodes { id } } }' });
    expect(res.status).toBe(200);
    expect(res.body.data.accounts.nodes).toHaveLength(2);
  });

  it('hides the message of an unexpected error and never sends a stack trace', () => {
    const format = createFormatError({ production: true });
    const leaked = new Error('connect ECONNREFUSED 10.0.0.5:5432; SELECT * FROM "Customer"');
    const out = format({ message: leaked.message, extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace: ['at x'] } }, leaked);
    expect(out.extensions).toEqual({ code: 'INTERNAL' });
    expect(out.message).not.toMatch(/ECONNREFUSED|SELECT/);
  });
});
