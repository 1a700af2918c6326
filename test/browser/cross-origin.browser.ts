// A single-page app served from another local origin calls both doors with a token, in a
// real Chromium: plain fetch (REST list, record, create, error; GraphQL POST and GET as urql
// sends it), urql itself and Apollo Client. Runs on PGlite (npm run test:browser; a
// DATABASE_URL runs it on PostgreSQL as every other test).
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { build } from 'esbuild';
import request from 'supertest';
import type { App } from '../../src/app';
import { createTestApp, createVariantApp, type TestApp } from '../support/app';
import { launchChromium, screenshotPath, serve, type Browser, type Served } from './support';

const CLIENT = path.join(__dirname, 'cross-origin');

let t: TestApp;
let browser: Browser;
const servers: Served[] = [];
let strangers: App;
let bundle: string;

beforeAll(async () => {
  t = await createTestApp();
  strangers = await createVariantApp(t, { CORS_ORIGINS: 'https://billing.example.edu' });
  const out = await build({
    entryPoints: [path.join(CLIENT, 'app.mjs')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  bundle = out.outputFiles[0]!.text;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  for (const s of servers) await s.close();
  await strangers?.stop();
  await t?.close();
});

/** The app's own origin: its page, its bundle, and where it finds the service and token. */
function appServer(api: string, token: string): http.RequestListener {
  const html = fs.readFileSync(path.join(CLIENT, 'index.html'));
  return (req, res) => {
    if (req.url === '/') res.writeHead(200, { 'Content-Type': 'text/html' }).end(html);
    else if (req.url === '/app.js') res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(bundle);
    else if (req.url === '/config.json') res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ api, token }));
    else res.writeHead(404).end();
  };
}

type Checks = Record<string, { ok: boolean; value?: Record<string, unknown>; error?: string }>;

async function runApp(api: Served, n: number, shot: string): Promise<Checks> {
  const site = await serve(appServer(api.origin, t.tokens.writer), n, '127.0.0.1');
  servers.push(site);
  expect(new URL(site.origin).origin).not.toBe(new URL(api.origin).origin);
  const page = await browser.context.newPage();
  // Not support.ts's watch(): while any route is set Playwright answers CORS preflights itself
  // (allowing everything), and these are the service's to answer. The app calls only the two
  // origins; this machine has no other.
  await page.goto(`${site.origin}/`);
  await page.waitForSelector('body:not([data-state="running"])', { timeout: 30_000 });
  await page.screenshot({ path: screenshotPath(shot), fullPage: true });
  const checks = JSON.parse((await page.textContent('#results')) ?? '{}') as Checks;
  await page.close();
  return checks;
}

describe('a browser app on another origin', () => {
  it('calls REST and GraphQL with a token: fetch, urql (GET) and Apollo Client (POST)', async () => {
    const preflights: string[] = [];
    const api = await serve(
      (req, res) => {
        if (req.method === 'OPTIONS') preflights.push(`${req.headers['access-control-request-method'] ?? '-'} ${req.url ?? ''}`);
        t.http(req, res);
      },
      0,
      'localhost',
    );
    servers.push(api);
    const checks = await runApp(api, 1, 'cross-origin-app.png');
    // The browser's own preflights reached the service (no route in between).
    expect(preflights.some((p) => p.startsWith('POST /graphql'))).toBe(true);

    const failed = Object.entries(checks).filter(([, c]) => !c.ok);
    expect(failed).toEqual([]);
    expect(Object.keys(checks)).toHaveLength(8);
    // Exposed headers are readable: whatever the service sends reaches the app.
    const sent = await request(t.http).get('/api/v1/payment-sources?$top=2').set('Authorization', `Bearer ${t.tokens.writer}`);
    expect(checks['rest list']!.value).toMatchObject({ rows: 2, odataVersion: sent.headers['odata-version'] ?? null });
    expect(checks['rest list']!.value!.requestId).toMatch(/.+/);
    expect(checks['rest record with its ETag']!.value!.etag).toMatch(/^(W\/)?".+"$/);
    const created = checks['rest create with its Location']!.value!;
    expect(created.status).toBe(201);
    expect(String(created.location)).toContain(String(created.id));
    expect(checks['rest error readable']!.value).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
    const total = checks['graphql post']!.value!.totalCount;
    expect(total).toBeGreaterThan(0);
    expect(checks['graphql get as urql sends it']!.value!.totalCount).toBe(total);
    expect(checks.urql!.value).toEqual({ methods: ['GET'], totalCount: total });
    expect(checks['apollo client']!.value!.totalCount).toBe(total);
  });

  it('an origin that CORS_ORIGINS does not name gets nothing (the browser refuses to hand over the answers)', async () => {
    const api = await serve(strangers.express, 2, 'localhost');
    servers.push(api);
    const checks = await runApp(api, 3, 'cross-origin-refused.png');
    expect(Object.values(checks).length).toBe(8);
    for (const c of Object.values(checks)) {
      expect(c.ok).toBe(false);
      expect(c.error).toMatch(/Failed to fetch|NetworkError|fetch/i);
    }
  });
});
