// Apollo Sandbox against the service, in a real Chromium (npm run test:browser):
//  - offline (every request to Apollo's CDN refused), /graphql says Sandbox cannot load and
//    GraphiQL, one click away, runs a query with a token;
//  - the page of the hosted Sandbox, at https://studio.apollographql.com (served by the test
//    through the browser's request interception, not the real site), introspects the service on
//    127.0.0.1 and runs a query with a token, through the browser's real CORS preflight;
//  - with a stand-in for Apollo's embed script, /graphql starts the embed on the service's
//    endpoint and the example operation, and its policy lets the script and the frame load;
//    when the frame cannot load, the page says so after a while.
// Screenshots go to the artifacts folder (test-artifacts/).
import http from 'node:http';
import type { App } from '../../src/app';
import { HOSTED_SANDBOX_ORIGIN } from '../../src/config/config';
import { EXAMPLE_OPERATION } from '../../src/pages/example';
import { SANDBOX_FRAME_ORIGIN, SANDBOX_SCRIPT_ORIGIN } from '../../src/pages/sandbox';
import { IDE_INTROSPECTION, type Json } from '../support/graphql';
import { createTestApp, createVariantApp, type TestApp } from '../support/app';
import { launchChromium, runGraphiqlExample, screenshotPath, serve, watch, type Browser, type Served } from './support';

let t: TestApp;
let browser: Browser;
let strangers: App;
const servers: Served[] = [];
/** What the service on 127.0.0.1 was sent: method, origin, and the method a preflight asks for. */
const received: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  strangers = await createVariantApp(t, { CORS_ORIGINS: 'https://billing.example.edu' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  for (const s of servers) await s.close();
  await strangers?.stop();
  await t?.close();
});

async function service(handler: http.RequestListener, n: number, host: 'localhost' | '127.0.0.1'): Promise<Served> {
  const s = await serve(handler, n, host);
  servers.push(s);
  return s;
}

/** Console errors but the one a refused request to Apollo's CDN causes. */
const unexpected = (problems: string[]) => problems.filter((p) => !/Failed to load resource: net::ERR_INTERNET_DISCONNECTED/.test(p));

it('offline, /graphql says Apollo Sandbox cannot load, and GraphiQL, one click away, runs a query with a token', async () => {
  const api = await service(t.http, 10, 'localhost');
  const page = await browser.context.newPage();
  const seen = await watch(page, [api.origin]);
  await page.goto(`${api.origin}/graphql`);
  const notice = page.locator('#sandbox-offline');
  await notice.waitFor({ state: 'visible', timeout: 30_000 });
  expect(await notice.innerText()).toMatch(/Apollo Sandbox could not be loaded/);
  // It tried Apollo's CDN and nothing else outside the service.
  expect(seen.foreign.length).toBeGreaterThan(0);
  expect(seen.foreign.filter((u) => !u.startsWith(`${SANDBOX_SCRIPT_ORIGIN}/`))).toEqual([]);
  // The way in: the button has the focus (Enter opens GraphiQL); the token note stays above.
  expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('open-graphiql');
  expect(await page.locator('#sandbox-bar').innerText()).toMatch(/npm run --silent token[\s\S]*Authorization: Bearer/);
  await page.screenshot({ path: screenshotPath('sandbox-offline.png') });

  await page.click('#open-graphiql');
  await page.waitForURL(`${api.origin}/graphiql`);
  const text = await runGraphiqlExample(page, t.tokens.reader);
  expect(text).toMatch(/"paymentSources": \{ "totalCount": \d+/);
  expect(text).not.toMatch(/errors/);
  await page.screenshot({ path: screenshotPath('sandbox-offline-graphiql.png') });

  expect(seen.foreign.filter((u) => !u.startsWith(`${SANDBOX_SCRIPT_ORIGIN}/`))).toEqual([]);
  // No page error either: Apollo's start script met the stand-in, not a missing constructor.
  expect(unexpected(seen.problems)).toEqual([]);
  await page.close();
});

/** The hosted Sandbox's part, as a page of our own: introspection (twice, as Sandbox polls) and a query, with the token from its headers. */
function hostedSandboxPage(endpoint: string, token: string): string {
  const setup = JSON.stringify({
    endpoint,
    token,
    introspection: IDE_INTROSPECTION,
    query: { query: EXAMPLE_OPERATION, operationName: 'PaymentSources' },
  });
  // Runs in the page (this project type-checks without the DOM library).
  const script = `
    const setup = ${setup.replace(/</g, '\\u003c')};
    async function send(body) {
      try {
        const res = await fetch(setup.endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer ' + setup.token },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: await res.json() };
      } catch (e) {
        return { error: String(e) };
      }
    }
    document.getElementById('run').addEventListener('click', async () => {
      const results = { schema: await send(setup.introspection), poll: await send(setup.introspection), query: await send(setup.query) };
      document.getElementById('results').textContent = JSON.stringify(results);
      document.body.dataset.state = 'done';
    });`;
  return `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Sandbox (stand-in)</title></head>
<body><button id="run">run</button><pre id="results"></pre><script>${script}</script></body></html>`;
}

interface Answer {
  status?: number;
  error?: string;
  body?: { data?: Record<string, Json>; errors?: unknown[] };
}

/** Opens the stand-in at the hosted Sandbox's address and runs it against endpoint. */
async function runHostedSandbox(
  endpoint: string,
  shot: string,
): Promise<{ schema: Answer; poll: Answer; query: Answer; console: string[] }> {
  const page = await browser.context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  await page.route(`${HOSTED_SANDBOX_ORIGIN}/sandbox/explorer`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: hostedSandboxPage(endpoint, t.tokens.reader) }),
  );
  await page.goto(`${HOSTED_SANDBOX_ORIGIN}/sandbox/explorer`);
  // While any route is set, Playwright answers CORS preflights itself (allowing everything):
  // with none left, the browser's own preflight goes to the service.
  await page.unrouteAll({ behavior: 'wait' });
  await page.click('#run');
  await page.waitForSelector('body[data-state="done"]', { timeout: 30_000 });
  await page.screenshot({ path: screenshotPath(shot) });
  const results = JSON.parse((await page.textContent('#results')) ?? '{}');
  await page.close();
  return { ...results, console: consoleErrors };
}

describe('the hosted Sandbox (https://studio.apollographql.com) and a service on 127.0.0.1', () => {
  beforeAll(async () => {
    // What the developer allows when Chromium asks whether the site may reach the local network.
    await browser.context.grantPermissions(['local-network-access'], { origin: HOSTED_SANDBOX_ORIGIN });
  });

  it('introspects the service, polls it, and runs a query with the token from its headers', async () => {
    const api = await service(
      (req, res) => {
        received.push(`${req.method} ${req.headers.origin ?? '-'} ${req.headers['access-control-request-method'] ?? '-'}`);
        t.http(req, res);
      },
      11,
      '127.0.0.1',
    );
    const { schema, poll, query, console: errors } = await runHostedSandbox(`${api.origin}/graphql`, 'hosted-sandbox.png');
    expect(schema.error).toBeUndefined();
    expect(schema.status).toBe(200);
    expect(schema.body?.data?.__schema.queryType.name).toBe('Query');
    expect(schema.body?.data?.__schema.types.some((ty: { name: string }) => ty.name === 'PaymentSource')).toBe(true);
    expect(poll.status).toBe(200);
    expect(query.status).toBe(200);
    expect(query.body?.errors).toBeUndefined();
    expect(query.body?.data?.paymentSources.totalCount).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    // The browser's own preflight reached the service, then the requests themselves.
    expect(received).toContain(`OPTIONS ${HOSTED_SANDBOX_ORIGIN} POST`);
    expect(received.filter((r) => r === `POST ${HOSTED_SANDBOX_ORIGIN} -`)).toHaveLength(3);
  });

  it('is refused by a service whose CORS_ORIGINS does not name it', async () => {
    const api = await service(strangers.express, 12, '127.0.0.1');
    const { schema, console: errors } = await runHostedSandbox(`${api.origin}/graphql`, 'hosted-sandbox-refused.png');
    expect(schema.error).toMatch(/Failed to fetch/);
    expect(errors.join('\n')).toMatch(/blocked by CORS policy/);
  });
});

/** A stand-in for Apollo's embed script: what the real one does with the page, recorded; its request carries the token a developer set. */
const standInEmbed = (token: string) => `
  window.EmbeddedSandbox = function (options) {
    var iframe = document.createElement('iframe');
    iframe.src = '${SANDBOX_FRAME_ORIGIN}/sandbox/explorer?endpoint=' + encodeURIComponent(options.initialEndpoint);
    iframe.setAttribute('style', 'height: 100%; width: 100%; border: none;');
    document.querySelector(options.target).appendChild(iframe);
    // The embed sends operations from this page to the endpoint.
    fetch(options.initialEndpoint, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ${token}' }, body: '{"query":"{ __typename }"}' })
      .then(function (res) { document.body.dataset.endpointStatus = String(res.status); });
    document.body.dataset.embed = JSON.stringify(options);
  };`;

const FRAME_SPEAKS = "<script>parent.postMessage({ name: 'stand-in ready' }, '*');</script>";

it("/graphql starts Apollo's Sandbox embed on the service's endpoint and the example operation; its policy admits the embed's script and frame", async () => {
  const api = await service(t.http, 13, 'localhost');
  const page = await browser.context.newPage();
  const seen = await watch(page, [api.origin]);
  // After watch(): the later route wins for these two addresses.
  const embedded: string[] = [];
  await page.route(`${SANDBOX_SCRIPT_ORIGIN}/**`, (route) => {
    embedded.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: standInEmbed(t.tokens.reader) });
  });
  await page.route(`${SANDBOX_FRAME_ORIGIN}/**`, (route) => {
    embedded.push(route.request().url());
    // Like Sandbox, it tells the page it is there.
    return route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: `<!doctype html><title>Sandbox</title><p id="frame">the embedded Sandbox</p>${FRAME_SPEAKS}`,
    });
  });

  const response = await page.goto(`${api.origin}/graphql`);
  const csp = (await response?.headerValue('content-security-policy')) ?? '';
  expect(csp).toMatch(new RegExp(`script-src [^;]*${SANDBOX_SCRIPT_ORIGIN.replace(/\./g, '\\.')}`));
  expect(csp).toMatch(new RegExp(`frame-src ${SANDBOX_FRAME_ORIGIN.replace(/\./g, '\\.')}(;|$)`));

  await page.waitForSelector('body[data-embed][data-endpoint-status]', { state: 'attached', timeout: 30_000 });
  const options = JSON.parse((await page.getAttribute('body', 'data-embed')) ?? '{}');
  expect(options.initialEndpoint).toBe(`${api.origin}/graphql`);
  expect(options.target).toBe('#embeddableSandbox');
  expect(options.initialState.document).toContain(EXAMPLE_OPERATION);
  expect(options.initialState.document).toMatch(/npm run --silent token/);
  expect(options.initialState.headers.Authorization).toMatch(/^Bearer /);
  expect(options.endpointIsEditable).toBe(false);
  // connect-src lets the embed's requests from the page reach the service.
  expect(await page.getAttribute('body', 'data-endpoint-status')).toBe('200');
  // The frame loaded, from the sandbox's origin.
  const frame = page.frames().find((f) => f.url().startsWith(`${SANDBOX_FRAME_ORIGIN}/`));
  expect(frame).toBeDefined();
  await frame!.waitForSelector('#frame');
  expect(embedded.some((u) => u.startsWith(`${SANDBOX_SCRIPT_ORIGIN}/`))).toBe(true);
  // The page itself, with the stand-in's frame below the token bar.
  expect(await page.isVisible('#sandbox-offline')).toBe(false);
  await page.screenshot({ path: screenshotPath('sandbox-embedded-stand-in.png') });

  expect(seen.foreign).toEqual([]);
  expect(seen.problems).toEqual([]);
  await page.close();
});

it("when the embed's script comes but its frame cannot load, /graphql says so after a while and offers GraphiQL", async () => {
  const api = await service(t.http, 14, 'localhost');
  const page = await browser.context.newPage();
  const seen = await watch(page, [api.origin]);
  // The script as if from the browser's cache; the frame, like everything else, is refused.
  await page.route(`${SANDBOX_SCRIPT_ORIGIN}/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: standInEmbed(t.tokens.reader) }),
  );
  await page.goto(`${api.origin}/graphql`);
  await page.waitForSelector('body[data-embed]', { state: 'attached', timeout: 30_000 });
  expect(await page.isVisible('#sandbox-offline')).toBe(false);
  // A loaded Sandbox speaks at once; this one never does.
  await page.locator('#sandbox-offline').waitFor({ state: 'visible', timeout: 30_000 });
  expect(await page.locator('#sandbox-offline').innerText()).toMatch(/could not be loaded[\s\S]*sandbox\.embed\.apollographql\.com/);
  expect(await page.isVisible('#open-graphiql')).toBe(true);
  await page.screenshot({ path: screenshotPath('sandbox-frame-unreachable.png') });
  expect(seen.foreign.filter((u) => !u.startsWith(`${SANDBOX_FRAME_ORIGIN}/`))).toEqual([]);
  expect(unexpected(seen.problems)).toEqual([]);
  await page.close();
});
