import { SignJWT } from 'jose';
import request from 'supertest';
import { createTestApp, TEST_SECRET, token, type TestApp, bearer } from '../support/app';
import { activeAssetAccount } from '../support/fixture';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demoData: false });
});
afterAll(async () => {
  await t.close();
});

const sign = (secret: string, claims: Record<string, unknown>, exp: string | number = '1h') =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(exp).setIssuedAt().sign(new TextEncoder().encode(secret));

describe('authentication on every door', () => {
  const paths = [
    '/api/v1/payment-sources',
    '/api/v1/customers',
    '/api/v1/articles',
    '/api/v1/tax-codes',
    '/api/v1/academic-terms',
    '/api/v1/accounts',
    '/api/v1/payments',
  ];

  it.each(paths)('%s needs a token (401 UNAUTHENTICATED as problem+json)', async (p) => {
    const res = await request(t.http).get(p).expect(401);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });

  it('refuses a bad signature, an expired token, a token not yet valid, a non-UUID subject and garbage', async () => {
    const sub = '44444444-4444-4444-8444-444444444444';
    const bad = [
      await sign('another-secret-another-secret-another-secret!!', { sub, scope: 'billing.read' }),
      await sign(TEST_SECRET, { sub, scope: 'billing.read' }, Math.floor(Date.now() / 1000) - 3600),
      await new SignJWT({ sub, scope: 'billing.read' })
        .setProtectedHeader({ alg: 'HS256' })
        .setNotBefore('1h')
        .setExpirationTime('2h')
        .sign(new TextEncoder().encode(TEST_SECRET)),
      await sign(TEST_SECRET, { sub: 'alice', scope: 'billing.read' }),
      'not.a.jwt',
    ];
    for (const tok of bad) {
      const res = await request(t.http).get('/api/v1/payment-sources').set(bearer(tok)).expect(401);
      expect(res.body.code).toBe('UNAUTHENTICATED');
    }
    const expired = await request(t.http).get('/api/v1/payment-sources').set(bearer(bad[1]!));
    expect(expired.body.detail).toMatch(/expired/);
    await request(t.http).get('/api/v1/payment-sources').set('Authorization', `Basic abc`).expect(401);
  });

  it('403 FORBIDDEN without the scope; scopes are independent', async () => {
    const readOnly = bearer(t.tokens.reader);
    const writeOnly = bearer(t.tokens.writeOnly);
    const body = {
      code: 'AUTH-1',
      name: 'n',
      accountId: activeAssetAccount()?.id ?? '00000000-0000-4000-8000-000000000000',
      sourceType: 'Cash',
    };
    const w = await request(t.http).post('/api/v1/payment-sources').set(readOnly).send(body).expect(403);
    expect(w.body.code).toBe('FORBIDDEN');
    const r = await request(t.http).get('/api/v1/payment-sources').set(writeOnly).expect(403);
    expect(r.body.code).toBe('FORBIDDEN');
    await request(t.http).get('/api/v1/payment-sources').set(readOnly).expect(200);
    const none = await token('', '55555555-5555-4555-8555-555555555555');
    await request(t.http).get('/api/v1/payment-sources').set(bearer(none)).expect(403);
  });

  it('health, readiness and the OpenAPI document need no token', async () => {
    await request(t.http).get('/healthz').expect(200);
    await request(t.http).get('/readyz').expect(200);
    const doc = await request(t.http).get('/api/v1/openapi.json').expect(200);
    expect(doc.body.openapi).toBe('3.1.0');
  });

  it('verifies issuer and audience when configured', async () => {
    const { createTokenVerifier, signToken } = await import('../../src/auth/tokens');
    const verify = createTokenVerifier({ secret: TEST_SECRET, issuer: 'https://idp.example', audience: 'billing' });
    const sub = '66666666-6666-4666-8666-666666666666';
    const good = await signToken(TEST_SECRET, { sub, scope: 'billing.read', issuer: 'https://idp.example', audience: 'billing' });
    await expect(verify(`Bearer ${good}`)).resolves.toMatchObject({ userId: sub });
    const wrongAud = await signToken(TEST_SECRET, { sub, scope: 'billing.read', issuer: 'https://idp.example', audience: 'other' });
    await expect(verify(`Bearer ${wrongAud}`)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    const noIss = await signToken(TEST_SECRET, { sub, scope: 'billing.read', audience: 'billing' });
    await expect(verify(`Bearer ${noIss}`)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('a token verified once is not trusted past its expiry, nor a minute after it was checked', async () => {
    const { createTokenVerifier, signToken } = await import('../../src/auth/tokens');
    const verify = createTokenVerifier({ secret: TEST_SECRET });
    const sub = '68686868-6868-4868-8868-686868686868';
    const start = Date.now();
    jest.useFakeTimers({ now: start, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const short = await signToken(TEST_SECRET, { sub, scope: 'billing.read', expiresIn: '30s' });
      const long = await signToken(TEST_SECRET, { sub, scope: 'billing.read', expiresIn: '2h' });
      await expect(verify(`Bearer ${short}`)).resolves.toMatchObject({ userId: sub });
      await expect(verify(`Bearer ${long}`)).resolves.toMatchObject({ userId: sub });
      // Past exp (and jose's 5 s of clock tolerance): refused although it passed before.
      jest.setSystemTime(start + 36_000);
      await expect(verify(`Bearer ${short}`)).rejects.toMatchObject({ code: 'UNAUTHENTICATED', message: expect.stringMatching(/expired/) });
      await expect(verify(`Bearer ${long}`)).resolves.toMatchObject({ userId: sub });
      // A tampered copy of a remembered token is checked, not recognised.
      await expect(verify(`Bearer ${long.slice(0, -2)}xx`)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    } finally {
      jest.useRealTimers();
    }
  });

  describe('token lifetime and subject', () => {
    const sub = '77777777-7777-4777-8777-777777777777';
    const key = new TextEncoder().encode(TEST_SECRET);
    const now = () => Math.floor(Date.now() / 1000);
    const jwt = (claims: Record<string, unknown>) =>
      new SignJWT({ scope: 'billing.read', ...claims }).setProtectedHeader({ alg: 'HS256' }).sign(key);
    /** GET through REST and a query through GraphQL with this token: both statuses and codes. */
    const tryBoth = async (tok: string) => {
      const rest = await request(t.http).get('/api/v1/accounts').set(bearer(tok));
      const graph = await request(t.http).post('/graphql').set(bearer(tok)).send({ query: '{ accounts { totalCount } }' });
      return [rest.status, rest.body.code, graph.status, graph.body.errors?.[0]?.extensions?.code ?? null, graph.body.data ?? null];
    };
    const refused = [401, 'UNAUTHENTICATED', 401, 'UNAUTHENTICATED', null];

    it('refuses a token without exp (it would be valid forever)', async () => {
      expect(await tryBoth(await jwt({ sub, iat: now() }))).toEqual(refused);
      expect(await tryBoth(await jwt({ sub }))).toEqual(refused);
    });

    it('refuses a token living longer than JWT_MAX_TTL (24 h by default): exp - iat, or exp - now without iat', async () => {
      expect(await tryBoth(await jwt({ sub, iat: now(), exp: now() + 100 * 365 * 86_400 }))).toEqual(refused);
      expect(await tryBoth(await jwt({ sub, iat: now() - 3600, exp: now() + 86_400 }))).toEqual(refused);
      expect(await tryBoth(await jwt({ sub, exp: now() + 86_400 + 60 }))).toEqual(refused);
      // Within the limit: accepted, with and without iat.
      expect((await tryBoth(await jwt({ sub, iat: now(), exp: now() + 86_400 })))[0]).toBe(200);
      expect((await tryBoth(await jwt({ sub, exp: now() + 3600 })))[0]).toBe(200);
    });

    it('refuses the nil UUID as subject: it stands for the system (the import)', async () => {
      expect(await tryBoth(await jwt({ sub: '00000000-0000-0000-0000-000000000000', iat: now(), exp: now() + 600 }))).toEqual(refused);
    });

    it('takes the limit from the configuration (JWT_MAX_TTL seconds)', async () => {
      const { createTokenVerifier } = await import('../../src/auth/tokens');
      const { loadConfig } = await import('../../src/config/config');
      const config = loadConfig({ JWT_SECRET: TEST_SECRET, JWT_MAX_TTL: '600' });
      expect(config.auth.maxTtlSeconds).toBe(600);
      expect(loadConfig({ JWT_SECRET: TEST_SECRET }).auth.maxTtlSeconds).toBe(86_400);
      expect(() => loadConfig({ JWT_MAX_TTL: '0' })).toThrow(/JWT_MAX_TTL/);
      const verify = createTokenVerifier({ ...config.auth });
      await expect(verify(`Bearer ${await jwt({ sub, iat: now(), exp: now() + 600 })}`)).resolves.toMatchObject({ userId: sub });
      await expect(verify(`Bearer ${await jwt({ sub, iat: now(), exp: now() + 601 })}`)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    });
  });
});
