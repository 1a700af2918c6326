// SAPUI5's own OData V4 model (sap.ui.model.odata.v4.ODataModel from npm @openui5/sap.ui.core,
// unmodified, with its default $batch and security-token handling) reading and writing the REST
// door in a real Chromium (npm run test:browser, on PGlite): a list binding, a create and a change
// in one change set, a change with the ETag UI5 holds, a stale one (412), a change set whose last
// request breaks a rule (nothing kept), and a delete. The page (127.0.0.1) and the service
// (localhost) are two origins, so every request also passes the browser's CORS checks, as for a
// UI5 app hosted apart from the service; the service's development CORS origins admit it.
//
// The $batch that creates and changes is written to test-artifacts/ui5-batch-request.http; a copy
// of it is test/fixtures/ui5/batch-request.http, which test/rest/batch-clients.test.ts replays on
// both databases. The last test here checks that UI5 still sends what that recording holds.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Page, Request as BrowserRequest } from 'playwright-core';
import request from 'supertest';
import { useSealingKey } from '../../src/domain/common/sealing';
import { bearer, createTestApp, TEST_SECRET, token, WRITER_ID, type TestApp } from '../support/app';
import { readMultipart } from '../support/batch';
import { activeAssetAccount } from '../support/fixture';
import { UI5_BATCH_HEADERS, UI5_CREATED, UI5_RECORDING, UI5_RENAMED } from '../support/ui5';
import { launchChromium, screenshotPath, serve, type Browser, type Served } from './support';

const UI5 = path.dirname(require.resolve('@openui5/sap.ui.core/package.json'));
const UI5_VERSION = (JSON.parse(fs.readFileSync(path.join(UI5, 'package.json'), 'utf8')) as { version: string }).version;
const PAGE = path.join(__dirname, 'ui5');
const RENAMED = UI5_RENAMED;
/** What UI5 creates, in the order the recording holds its fields. */
const CREATED = { code: UI5_CREATED.code, name: UI5_CREATED.name, accountId: activeAssetAccount().id, sourceType: UI5_CREATED.sourceType };

/** What the service was sent (preflights included) and how it answered. */
interface Received {
  method: string;
  url: string;
  csrfToken: string | undefined;
  contentType: string | undefined;
  status?: number;
  answeredToken?: unknown;
}

let t: TestApp;
let browser: Browser;
let page: Page;
let api: Served;
let site: Served;
/** What the page asked of any origin, and its console errors and uncaught exceptions. */
const seen = { requests: [] as string[], problems: [] as string[] };
const servers: Served[] = [];
const received: Received[] = [];
/** Paths the page asked of its own origin that are not there. */
const missing: string[] = [];
const batches: BrowserRequest[] = [];

beforeAll(async () => {
  // Keyed as main.ts keys ETags (with the HS256 secret), so the ETag UI5 puts in the recorded
  // batch's If-Match is the one the replay's app computes for the same record.
  useSealingKey(TEST_SECRET);
  t = await createTestApp();
  api = await serve(logged(t.http), 0, 'localhost');
  site = await serve(ui5Site(), 1, '127.0.0.1');
  servers.push(api, site);
  browser = await launchChromium();
  page = await browser.context.newPage();
  // Not support.ts's watch(): with request interception on, Playwright answers CORS preflights
  // itself, and they would never reach the service.
  page.on('request', (r) => {
    seen.requests.push(r.url());
    if (r.method() === 'POST' && r.url() === `${api.origin}/api/v1/$batch`) batches.push(r);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') seen.problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => seen.problems.push(`page error: ${e.message}`));
  await page.goto(`${site.origin}/`);
  await page.waitForFunction('window.billing !== undefined', undefined, { timeout: 30_000 });
});
afterAll(async () => {
  await browser?.close();
  for (const s of servers) await s.close();
  await t?.close();
});

/** The app, noting each request and its answer. */
function logged(app: TestApp['http']): http.RequestListener {
  return (req, res) => {
    const entry: Received = {
      method: req.method ?? '',
      url: req.url ?? '',
      csrfToken: req.headers['x-csrf-token'] as string | undefined,
      contentType: req.headers['content-type'],
    };
    received.push(entry);
    res.on('finish', () => {
      entry.status = res.statusCode;
      entry.answeredToken = res.getHeader('x-csrf-token');
    });
    app(req, res);
  };
}

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.properties': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
};

/**
 * The page, its app module, and UI5's resources from the package's src/ folder under
 * /resources/, as UI5's own development server serves a library. The package holds sources
 * only: sap-ui-version.json is made here from its package.json, as that server makes it, and
 * theme CSS (built from .less by UI5's tooling) is missing: 404, and no control is rendered.
 */
function ui5Site(): http.RequestListener {
  const root = path.join(UI5, 'src');
  const versionInfo = JSON.stringify({ name: 'openui5', version: UI5_VERSION, libraries: [{ name: 'sap.ui.core', version: UI5_VERSION }] });
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://page');
    const send = (type: string, body: string | Buffer) => res.writeHead(200, { 'Content-Type': type }).end(body);
    if (url.pathname === '/') return send('text/html; charset=utf-8', fs.readFileSync(path.join(PAGE, 'index.html')));
    if (url.pathname === '/app.js') return send(TYPES['.js']!, fs.readFileSync(path.join(PAGE, 'app.js')));
    if (url.pathname === '/resources/sap-ui-version.json') return send(TYPES['.json']!, versionInfo);
    if (url.pathname.startsWith('/resources/')) {
      const file = path.join(root, decodeURIComponent(url.pathname.slice('/resources/'.length)));
      if (file.startsWith(root + path.sep) && fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
        return send(TYPES[path.extname(file)] ?? 'application/octet-stream', fs.readFileSync(file));
      }
    }
    missing.push(url.pathname);
    res.writeHead(404).end();
  };
}

/** Calls a function of the page's app (test/browser/ui5/app.js) with JSON arguments. */
function inPage<T>(fn: string, ...args: unknown[]): Promise<T> {
  return page.evaluate<T>(`billing.${fn}(${args.map((a) => JSON.stringify(a)).join(', ')})`);
}

type Row = Record<string, unknown> & { id: string; code: string; name: string; '@odata.etag': string };
interface Outcome {
  ok: boolean;
  canceled?: boolean;
  status?: number;
  message?: string;
}
interface Message {
  type: string;
  message: string;
  technical: boolean;
  status?: number;
}

/** The batches UI5 sent from `from` on: their content type, body, and the body of the answer. */
async function batchesFrom(
  from: number,
): Promise<Array<{ headers: Record<string, string>; contentType: string; body: Buffer; answer: string }>> {
  return Promise.all(
    batches.slice(from).map(async (r) => ({
      headers: r.headers(),
      contentType: r.headers()['content-type'] ?? '',
      body: r.postDataBuffer() ?? Buffer.alloc(0),
      answer: (await (await r.response())?.text()) ?? '',
    })),
  );
}

const source = (code: string) => t.db.prisma.paymentSource.findFirst({ where: { code } });
const etagOf = async (id: string) =>
  (await request(t.http).get(`/api/v1/payment-sources/${id}`).set(bearer(t.tokens.writer)).expect(200)).headers.etag;

let listed: Row[];
/** The $batch that created and renamed, as UI5 sent it. */
let recorded: Buffer;

it(`loads UI5 ${UI5_VERSION} from the package, fetches the security token, and reads the list through $batch`, async () => {
  expect(await inPage<string>('version')).toBe(UI5_VERSION);
  const writer = await token('billing.read billing.write billing.maintain', WRITER_ID);
  listed = await inPage<Row[]>('open', `${api.origin}/api/v1/`, writer);

  const direct = await request(t.http).get('/api/v1/payment-sources?$orderby=code').set(bearer(t.tokens.writer)).expect(200);
  expect(listed.map((r) => r.code)).toEqual(direct.body.value.map((r: Row) => r.code));
  expect(listed.length).toBeGreaterThan(3);
  // Each record carries the ETag of its own GET: what UI5 sends back as If-Match.
  const sepa = listed.find((r) => r.code === RENAMED.code)!;
  expect(sepa['@odata.etag']).toBe(await etagOf(RENAMED.id));

  // UI5's security-token fetch: HEAD of the service root with X-CSRF-Token: Fetch, answered
  // 200 without a token (bearer tokens need none), after which UI5 goes on without one.
  const head = received.filter((r) => r.method === 'HEAD');
  expect(head).toEqual([
    { method: 'HEAD', url: '/api/v1/', csrfToken: 'Fetch', contentType: undefined, status: 200, answeredToken: undefined },
  ]);
  expect(received.filter((r) => r.method === 'GET').map((r) => [r.url, r.status])).toEqual([['/api/v1/$metadata', 200]]);
  // The list came as a GET inside a multipart $batch.
  const [read] = received.filter((r) => r.method === 'POST');
  expect(read).toMatchObject({ url: '/api/v1/$batch', status: 200, csrfToken: 'Fetch' });
  expect(read!.contentType).toMatch(/^multipart\/mixed; ?boundary=batch_id-/);
  // Cross-origin: each request with UI5's own headers was preflighted and allowed.
  expect(received.filter((r) => r.method === 'OPTIONS').every((r) => r.status === 204)).toBe(true);
  expect(received.some((r) => r.method === 'OPTIONS')).toBe(true);
});

it('creates a record and changes another in one change set; both are kept', async () => {
  const from = batches.length;
  const r = await inPage<{ done: Outcome; created: Row; renamed: Row; pending: boolean }>(
    'createAndRename',
    CREATED,
    RENAMED.code,
    RENAMED.name,
  );
  expect(r.done).toEqual({ ok: true });
  expect(r.pending).toBe(false);
  expect(r.created).toMatchObject({ ...CREATED, isActive: true, isDefault: false, createdById: WRITER_ID });
  expect(r.renamed).toMatchObject({ id: RENAMED.id, name: RENAMED.name, updatedById: WRITER_ID });

  const stored = await source(CREATED.code);
  expect(stored).toMatchObject({ ...CREATED, id: r.created.id, createdById: WRITER_ID, isActive: true, isDefault: false });
  expect(await source(RENAMED.code)).toMatchObject({ id: RENAMED.id, name: RENAMED.name, updatedById: WRITER_ID });

  // One $batch: a change set holding the POST and the PATCH, the PATCH with the ETag UI5 read.
  const [sent, ...more] = (await batchesFrom(from)).filter((b) => b.body.includes('PATCH PaymentSources('));
  expect(more).toEqual([]);
  expect(sent!.contentType).toMatch(/^multipart\/mixed; ?boundary=batch_id-/);
  expect(sent!.headers).toMatchObject(UI5_BATCH_HEADERS);
  const body = sent!.body.toString('utf8');
  expect(body).toMatch(/Content-Type: ?multipart\/mixed; ?boundary=changeset_id-/);
  expect(body).toContain(`PATCH PaymentSources(${RENAMED.id}) HTTP/1.1`);
  expect(body).toContain(`If-Match:${listed.find((x) => x.code === RENAMED.code)!['@odata.etag']}`);
  fs.writeFileSync(screenshotPath('ui5-batch-request.http'), sent!.body);
  recorded = sent!.body;
});

it('changes a property with the ETag UI5 holds as If-Match, and keeps the new one', async () => {
  const from = batches.length;
  const held = await etagOf(RENAMED.id);
  const r = await inPage<{ before: string; after: Row; pending: boolean; messages: Message[] }>(
    'rename',
    RENAMED.code,
    'SEPA (UI5, again)',
  );
  expect(r.before).toBe(held);
  expect(r.pending).toBe(false);
  expect(r.messages).toEqual([]);
  expect((await source(RENAMED.code))!.name).toBe('SEPA (UI5, again)');
  expect(r.after['@odata.etag']).toBe(await etagOf(RENAMED.id));
  expect(r.after['@odata.etag']).not.toBe(held);
  const [sent] = await batchesFrom(from);
  expect(sent!.body.toString('utf8')).toContain(`If-Match:${held}`);
  expect(readMultipart(`multipart/mixed; boundary=${boundaryOf(sent!.answer)}`, sent!.answer).map((p) => p.status)).toEqual([200]);
});

it('a change based on a record someone else changed since is refused (412), reported by UI5, and nothing is written', async () => {
  await request(t.http)
    .patch(`/api/v1/payment-sources/${RENAMED.id}`)
    .set(bearer(t.tokens.writer))
    .send({ name: 'Changed elsewhere' })
    .expect(200);
  const r = await inPage<{ messages: Message[] }>('staleRename', RENAMED.code, 'Lost update');
  expect(r.messages).toEqual([
    { type: 'Error', technical: true, status: 412, message: 'If-Match does not match the current ETag of the record' },
  ]);
  expect((await source(RENAMED.code))!.name).toBe('Changed elsewhere');
});

it('a change set whose last request breaks a rule keeps nothing, and UI5 reports the error', async () => {
  const from = batches.length;
  const before = await source(CREATED.code);
  const r = await inPage<{
    reported: { pending: boolean; messages: Message[] };
    created: Outcome;
    after: string;
    pending: boolean;
  }>('failingChangeSet', CREATED.code, 'Not kept', { ...CREATED, code: 'sepa-ls', name: 'Second SEPA' });

  // The service answered the change set by the one response of the request that failed.
  const [sent] = await batchesFrom(from);
  const body = sent!.body.toString('utf8');
  expect(body.indexOf(`PATCH PaymentSources(${before!.id})`)).toBeLessThan(body.indexOf('POST PaymentSources'));
  const parts = readMultipart(`multipart/mixed; boundary=${boundaryOf(sent!.answer)}`, sent!.answer);
  expect(parts.map((p) => [p.contentId, p.status])).toEqual([['1.0', 409]]);
  expect(JSON.parse(parts[0]!.body).error.code).toBe('DUPLICATE_CODE');

  // Nothing of it is stored: the earlier change is not kept, no second record exists.
  expect(await source(CREATED.code)).toEqual(before);
  expect(await t.db.prisma.paymentSource.count({ where: { code: { equals: 'sepa-ls', mode: 'insensitive' } } })).toBe(1);

  // UI5 reports the error (with its target field) and keeps both changes pending until the app drops them.
  expect(r.reported.pending).toBe(true);
  expect(r.reported.messages).toContainEqual({
    type: 'Error',
    technical: true,
    status: 409,
    message: 'code: The code sepa-ls is already used by another payment source',
  });
  expect(r.created).toMatchObject({ ok: false, canceled: true });
  expect(r.after).toBe(CREATED.name);
  expect(r.pending).toBe(false);
});

it('deletes a record through its context, with its ETag as If-Match', async () => {
  const from = batches.length;
  const { id } = (await source(CREATED.code))!;
  const held = await etagOf(id);
  const r = await inPage<{ done: Outcome; left: string[] }>('remove', CREATED.code);
  expect(r.done).toEqual({ ok: true });
  expect(r.left).not.toContain(CREATED.code);
  expect(await source(CREATED.code)).toBeNull();
  const [sent] = await batchesFrom(from);
  expect(sent!.body.toString('utf8')).toMatch(
    new RegExp(`DELETE PaymentSources\\(${id}\\) HTTP/1\\.1\\r\\n(.+\\r\\n)*If-Match:${held}\\r\\n`),
  );
  expect(readMultipart(`multipart/mixed; boundary=${boundaryOf(sent!.answer)}`, sent!.answer).map((p) => p.status)).toEqual([204]);
});

it('the service answered every request UI5 made without an error outside the batches; the page had no errors', () => {
  expect(seen.requests.filter((u) => !u.startsWith(`${site.origin}/`) && !u.startsWith(`${api.origin}/`))).toEqual([]);
  // Every data request went through $batch; nothing but the token fetch, the metadata, preflights and batches.
  expect([...new Set(received.map((r) => `${r.method} ${r.url}`))].sort()).toEqual([
    'GET /api/v1/$metadata',
    'HEAD /api/v1/',
    'OPTIONS /api/v1/',
    'OPTIONS /api/v1/$batch',
    'OPTIONS /api/v1/$metadata',
    'POST /api/v1/$batch',
  ]);
  expect(received.filter((r) => (r.status ?? 0) >= 400)).toEqual([]);
  // Of UI5's resources only the theme's CSS is missing (see ui5Site); the browser logs its 404,
  // and UI5 logs the requests refused above.
  expect(missing).toEqual(['/resources/sap/ui/core/themes/sap_horizon/library.css']);
  const unexpected = seen.problems.filter(
    (p) =>
      !/already used by another payment source|If-Match does not match/.test(p) &&
      p !== 'console: Failed to load resource: the server responded with a status of 404 (Not Found)',
  );
  expect(unexpected).toEqual([]);
});

it('still sends what test/fixtures/ui5/batch-request.http recorded (boundaries and the token aside)', () => {
  // Values that change with every run: the boundaries (a timestamp and a counter) and the
  // token UI5 copies into each part from the model's httpHeaders.
  const normal = (b: Buffer) =>
    b
      .toString('utf8')
      .replace(/(batch|changeset)_id-\d+-\d+/g, '$1_id-*')
      .replace(/Authorization:Bearer [^\r]+/g, 'Authorization:Bearer *');
  expect(normal(recorded)).toBe(normal(fs.readFileSync(UI5_RECORDING)));
});

/** The boundary of a multipart answer, from its first line. */
function boundaryOf(answer: string): string {
  return /^--([^\r\n]+)/.exec(answer)![1]!;
}
