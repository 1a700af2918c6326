// Apollo Sandbox against this service, over HTTP: the hosted Sandbox (a page on
// https://studio.apollographql.com calling the service on the developer's machine) passes CORS,
// private-network preflights included, outside production and only there; the embedded Sandbox
// is /graphql's page for a browser, with a Content-Security-Policy made for it. test/browser/
// drives the same through a real Chromium; these run on every database.
import { createHash } from 'node:crypto';
import request from 'supertest';
import { IDE_INTROSPECTION } from '../support/graphql';
import { type TestApp, bearer } from '../support/app';
import { appWithVariants, browserGet, cspOf, preflight, PRODUCTION_ENV } from '../support/browser-http';

const { app, variant } = appWithVariants();
let t: TestApp;
beforeAll(() => {
  t = app();
});

const STUDIO = 'https://studio.apollographql.com';

describe('the hosted Sandbox (https://studio.apollographql.com) reaches a local service', () => {
  it('its preflight is allowed outside production by default', async () => {
    const res = await preflight(t.http, STUDIO).expect(204);
    expect(res.headers['access-control-allow-origin']).toBe(STUDIO);
    expect(String(res.headers['access-control-allow-methods'])).toMatch(/POST/);
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toMatch(/authorization/);
  });

  it('its preflight is refused under NODE_ENV=production, unless CORS_ORIGINS names it', async () => {
    const prod = await variant(PRODUCTION_ENV);
    const refused = await preflight(prod, STUDIO, true);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(refused.headers['access-control-allow-private-network']).toBeUndefined();

    const named = await variant({ ...PRODUCTION_ENV, CORS_ORIGINS: `https://billing.example.edu,${STUDIO}` });
    const allowed = await preflight(named, STUDIO).expect(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(STUDIO);
  });

  it('CORS_ORIGINS replaces the default, Sandbox included', async () => {
    const listed = await variant({ CORS_ORIGINS: 'https://billing.example.edu' });
    const res = await preflight(listed, STUDIO);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a preflight asking for private-network access gets Access-Control-Allow-Private-Network: true', async () => {
    for (const origin of [STUDIO, 'http://localhost:5173']) {
      const res = await preflight(t.http, origin, true).expect(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-allow-private-network']).toBe('true');
    }
    // Only when asked, and only for an allowed origin.
    const unasked = await preflight(t.http, STUDIO).expect(204);
    expect(unasked.headers['access-control-allow-private-network']).toBeUndefined();
    const stranger = await preflight(t.http, 'https://evil.example', true);
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    expect(stranger.headers['access-control-allow-private-network']).toBeUndefined();
    // CORS_ORIGINS=* allows every origin, private networks included.
    const any = await preflight(await variant({ CORS_ORIGINS: '*' }), 'https://anywhere.example', true).expect(204);
    expect(any.headers['access-control-allow-origin']).toBe('*');
    expect(any.headers['access-control-allow-private-network']).toBe('true');
    // The REST door answers the same way.
    const rest = await request(t.http)
      .options('/api/v1/payment-sources')
      .set('Origin', STUDIO)
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization')
      .set('Access-Control-Request-Private-Network', 'true')
      .expect(204);
    expect(rest.headers['access-control-allow-private-network']).toBe('true');
  });

  it("introspection (Sandbox's own query, polled) and a query with the token from its headers answer, readable by the page", async () => {
    const post = (body: object, token: string | null) => {
      const req = request(t.http).post('/graphql').set('Origin', STUDIO).set('Content-Type', 'application/json');
      return token ? req.set(bearer(token)).send(body) : req.send(body);
    };
    // Sandbox polls the schema: the same introspection, again and again.
    for (let poll = 0; poll < 2; poll++) {
      const schema = await post(IDE_INTROSPECTION, t.tokens.reader).expect(200);
      expect(schema.headers['access-control-allow-origin']).toBe(STUDIO);
      expect(schema.body.data.__schema.queryType.name).toBe('Query');
    }
    const data = await post({ query: '{ paymentSources(first: 2) { totalCount nodes { code } } }' }, t.tokens.reader).expect(200);
    expect(data.headers['access-control-allow-origin']).toBe(STUDIO);
    expect(data.body.data.paymentSources.totalCount).toBeGreaterThan(0);
    // Without the token: 401, and Sandbox can read why.
    const refused = await post({ query: '{ __typename }' }, null).expect(401);
    expect(refused.headers['access-control-allow-origin']).toBe(STUDIO);
    expect(refused.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('production answers no introspection, even to an origin CORS_ORIGINS names', async () => {
    const prod = await variant({ ...PRODUCTION_ENV, CORS_ORIGINS: STUDIO });
    const res = await request(prod).post('/graphql').set('Origin', STUDIO).set(bearer(t.tokens.reader)).send(IDE_INTROSPECTION).expect(400);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('the embedded Sandbox: /graphql in a browser, outside production', () => {
  it("is Apollo's Sandbox embed pointed at this service, with an example operation and where the token goes", async () => {
    const page = await browserGet(t.http, '/graphql').expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.text).toMatch(
      /<script[^>]* src="https:\/\/embeddable-sandbox\.cdn\.apollographql\.com\/[^"]*embeddable-sandbox\.umd\.production\.min\.js/,
    );
    expect(page.text).toMatch(/new window\.EmbeddedSandbox/);
    // The endpoint is the page's own address: this service's /graphql.
    expect(page.text).toMatch(/initialEndpoint = window\.location\.href/);
    expect(page.text).toMatch(/"document":"# [^"]*\\nquery PaymentSources \{/);
    // How to get a token and where it goes; never a token itself (the page needs none and gives none).
    expect(page.text).toMatch(/npm run --silent token/);
    expect(page.text).toMatch(/Authorization: Bearer/);
    expect(page.text).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    // The offline way out: the bundled GraphiQL.
    expect(page.text).toMatch(/href="\/graphiql"/);
  });

  it('its Content-Security-Policy admits what the embed needs: its script, its frame, the inline code by hash', async () => {
    const page = await browserGet(t.http, '/graphql').expect(200);
    const csp = cspOf(page);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('frame-src')).toEqual(['https://sandbox.embed.apollographql.com']);
    expect(csp.get('connect-src')).toEqual(["'self'"]); // the embed sends operations from this page
    const scripts = csp.get('script-src') ?? [];
    expect(scripts).toContain('https://embeddable-sandbox.cdn.apollographql.com');
    expect(scripts).toContain("'self'");
    for (const directive of ['script-src', 'style-src']) {
      expect(csp.get(directive)).not.toContain("'unsafe-inline'");
      expect(csp.get(directive)).not.toContain("'unsafe-eval'");
    }
    // Every inline script and style element is admitted by its hash, and nothing else is inline.
    const inlineScripts = [...page.text.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    const inlineStyles = [...page.text.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    expect(inlineScripts.length).toBeGreaterThan(0);
    for (const s of inlineScripts) expect(scripts).toContain(sha256(s));
    for (const s of inlineStyles) expect(csp.get('style-src')).toContain(sha256(s));
    expect(scripts.filter((s) => s.startsWith("'sha256-"))).toHaveLength(new Set(inlineScripts).size);
    // One policy, the header: Apollo's own <meta> policy is not left to contradict it.
    expect(page.text).not.toMatch(/http-equiv="Content-Security-Policy"/i);
    // Every script and stylesheet of our own is served.
    for (const [, src] of page.text.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="(\/[^"]+)"/g)) {
      await request(t.http).get(src!).expect(200);
    }
  });

  it('the rest of the service keeps its strict policy', async () => {
    const res = await request(t.http).get('/api/v1/payment-sources').set(bearer(t.tokens.reader)).expect(200);
    expect(cspOf(res).get('script-src')).toEqual(["'self'"]);
    expect(cspOf(res).get('frame-src')).toBeUndefined();
    const json = await request(t.http).get('/graphql').query({ query: '{ __typename }' }).set(bearer(t.tokens.reader)).expect(200);
    expect(cspOf(json).get('script-src')).toEqual(["'self'"]);
  });

  it('GraphiQL keeps an address of its own, /graphiql', async () => {
    const page = await browserGet(t.http, '/graphiql').expect(200);
    expect(page.text).toMatch(/GraphiQL/);
    expect(cspOf(page).get('script-src')).toEqual(["'self'"]);
  });

  it('production serves neither the Sandbox page nor GraphiQL', async () => {
    const prod = await variant({ ...PRODUCTION_ENV, CORS_ORIGINS: STUDIO });
    const page = await browserGet(prod, '/graphql');
    expect(page.status).toBe(401);
    expect(page.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(page.text).not.toMatch(/EmbeddedSandbox/);
    await browserGet(prod, '/graphiql').expect(404);
  });
});
