// What a browser needs from the service: CORS on both doors, GraphQL queries as GET with a
// token (urql's default), and the offline GraphQL IDE and REST reference outside production.
// test/browser/ drives the same through a real Chromium; these run everywhere.
import request from 'supertest';
import { type TestApp, bearer } from '../support/app';
import { appWithVariants, browserGet, cspOf, preflight, PRODUCTION_ENV } from '../support/browser-http';

const { app, variant } = appWithVariants();
let t: TestApp;
beforeAll(() => {
  t = app();
});

const VITE = 'http://localhost:5173';
const exposed = (res: request.Response) =>
  String(res.headers['access-control-expose-headers'] ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase());

describe('CORS: browser apps on other origins can call both doors', () => {
  it('answers a REST preflight with 204 and the headers a browser needs', async () => {
    const res = await request(t.http)
      .options('/api/v1/payment-sources')
      .set('Origin', VITE)
      .set('Access-Control-Request-Method', 'PUT')
      .set('Access-Control-Request-Headers', 'authorization,content-type,if-match')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).toBe(VITE);
    expect(String(res.headers['access-control-allow-methods'])).toMatch(/PUT/);
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toMatch(/authorization/);
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toMatch(/if-match/);
  });

  it('answers a GraphQL preflight with 204, not a 400 from CSRF prevention', async () => {
    const res = await preflight(t.http, 'http://127.0.0.1:3000').expect(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3000');
  });

  it('lets the app read the answer and the headers it needs, and does not block it with CORP', async () => {
    const list = await request(t.http).get('/api/v1/payment-sources').set('Origin', VITE).set(bearer(t.tokens.writer)).expect(200);
    expect(list.headers['access-control-allow-origin']).toBe(VITE);
    expect(exposed(list)).toEqual(expect.arrayContaining(['etag', 'location', 'retry-after', 'odata-version']));
    expect(list.headers['cross-origin-resource-policy']).toBe('cross-origin');

    const gql = await request(t.http)
      .post('/graphql')
      .set('Origin', VITE)
      .set(bearer(t.tokens.writer))
      .set('Content-Type', 'application/json')
      .send({ query: '{ paymentSources(first: 1) { totalCount } }' })
      .expect(200);
    expect(gql.headers['access-control-allow-origin']).toBe(VITE);
  });

  it('errors carry the CORS headers too, so the app can read them', async () => {
    const res = await request(t.http).get('/api/v1/payment-sources').set('Origin', VITE).expect(401);
    expect(res.headers['access-control-allow-origin']).toBe(VITE);
  });

  it('by default allows only local development origins', async () => {
    for (const origin of ['http://localhost', 'http://localhost:8080', 'http://127.0.0.1:4173']) {
      const res = await request(t.http).get('/healthz').set('Origin', origin);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
    }
    for (const origin of [
      'https://evil.example',
      'http://localhost.evil.example:5173',
      'http://127.0.0.1.evil.example',
      'https://localhost:5173',
      'null',
    ]) {
      const res = await request(t.http)
        .options('/api/v1/payment-sources')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'authorization');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('CORS_ORIGINS names the allowed origins; * allows any', async () => {
    const listed = await variant({ CORS_ORIGINS: 'https://billing.example.edu, https://admin.example.edu' });
    const ok = await request(listed).get('/healthz').set('Origin', 'https://admin.example.edu');
    expect(ok.headers['access-control-allow-origin']).toBe('https://admin.example.edu');
    const local = await request(listed).get('/healthz').set('Origin', VITE);
    expect(local.headers['access-control-allow-origin']).toBeUndefined();

    const any = await variant({ CORS_ORIGINS: '*' });
    const res = await request(any).get('/healthz').set('Origin', 'https://anywhere.example');
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('production allows no origin unless CORS_ORIGINS says so', async () => {
    const prod = await variant(PRODUCTION_ENV);
    const res = await request(prod).get('/healthz').set('Origin', VITE);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');

    const prodListed = await variant({ ...PRODUCTION_ENV, CORS_ORIGINS: 'https://billing.example.edu' });
    const listed = await request(prodListed).get('/healthz').set('Origin', 'https://billing.example.edu');
    expect(listed.headers['access-control-allow-origin']).toBe('https://billing.example.edu');
  });
});

describe('GraphQL over GET, as urql sends it', () => {
  const query = '{ paymentSources(first: 2) { totalCount nodes { code } } }';

  it('a GET with an Authorization header and no content type is answered', async () => {
    const res = await request(t.http)
      .get('/graphql')
      .query({ query })
      .set(bearer(t.tokens.writer))
      .set('Accept', 'application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed')
      .expect(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.paymentSources.totalCount).toBeGreaterThan(0);
  });

  it('requests a cross-site form or image could send carry no token: refused 401 UNAUTHENTICATED before anything runs', async () => {
    // Apollo's CSRF prevention stays on behind the token check (`Authorization` counts as a preflighted header).
    const get = await request(t.http).get('/graphql').query({ query }).set('Accept', 'application/json').expect(401);
    expect(get.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const form = await request(t.http).post('/graphql').set('Content-Type', 'text/plain').send(JSON.stringify({ query })).expect(401);
    expect(form.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('mutations are still refused over GET', async () => {
    const res = await request(t.http)
      .get('/graphql')
      .query({ query: 'mutation { deletePaymentSource(id: "00000000-0000-4000-8000-000000000001") }' })
      .set(bearer(t.tokens.writer));
    expect(res.status).toBe(405);
  });
});

/** The local scripts and stylesheets a page loads; fails on any that is not on the service. */
function assetsOf(html: string): string[] {
  const refs = [...html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  for (const r of refs) expect(r).toMatch(/^\/(?!\/)/);
  return refs;
}

describe('offline tools outside production: GraphiQL and the REST reference', () => {
  it('a browser opening /graphiql gets GraphiQL, served from the service itself (/graphql is Apollo Sandbox: apollo-sandbox.test.ts)', async () => {
    const page = await browserGet(t.http, '/graphiql').expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toMatch(/GraphiQL/);
    const assets = assetsOf(page.text);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const a of assets) {
      const res = await request(t.http).get(a).expect(200);
      expect(res.headers['content-type']).toMatch(/javascript|css/);
    }
    const csp = cspOf(page);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]); // GraphiQL's panes insert style elements
  });

  it('the REST reference lists the OpenAPI paths, served from the service itself', async () => {
    const page = await request(t.http).get('/api/v1/docs').set('Accept', 'text/html').expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const assets = assetsOf(page.text);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const a of assets) await request(t.http).get(a).expect(200);
    expect(cspOf(page).get('script-src')).toEqual(["'self'"]);
    expect(cspOf(page).get('connect-src')).toEqual(["'self'"]);
    expect(cspOf(page).get('style-src')).toEqual(["'self'"]);
  });

  it('the API itself keeps the strict policy', async () => {
    const res = await request(t.http).get('/api/v1/payment-sources').set(bearer(t.tokens.writer)).expect(200);
    expect(cspOf(res).get('default-src')).toEqual(["'self'"]);
    expect(cspOf(res).get('script-src')).toEqual(["'self'"]);
  });

  it('production serves neither', async () => {
    const prod = await variant(PRODUCTION_ENV);
    const ide = await request(prod).get('/graphiql').set('Accept', 'text/html');
    expect(ide.text).not.toMatch(/GraphiQL/);
    expect(ide.status).toBe(404);
    const asset = await request(prod).get('/graphql/ide/graphiql.js');
    expect(asset.status).toBeGreaterThanOrEqual(400);
    expect(asset.headers['content-type']).not.toMatch(/javascript/);
    await request(prod).get('/api/v1/docs').set(bearer(t.tokens.writer)).expect(404);
    await request(prod).get('/api/v1/docs/swagger-ui.css').set(bearer(t.tokens.writer)).expect(404);
  });
});
