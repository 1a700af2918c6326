// The offline tools, in a real Chromium with every request to another origin refused:
// GraphiQL at /graphiql runs a query with a token, and the REST reference at /api/v1/docs
// lists every path of the OpenAPI document and tries one with a token. Screenshots go to the artifacts folder.
// Runs on PGlite (npm run test:browser).
import { openApiDocument } from '../../src/rest/openapi';
import { createTestApp, type TestApp } from '../support/app';
import { launchChromium, runGraphiqlExample, screenshotPath, serve, watch, type Browser, type Served } from './support';

let t: TestApp;
let api: Served;
let browser: Browser;

beforeAll(async () => {
  t = await createTestApp();
  api = await serve(t.http, 5, 'localhost');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
  await t?.close();
});

it('GraphiQL at /graphiql runs a query with the token set in its token bar, offline', async () => {
  const page = await browser.context.newPage();
  const seen = await watch(page, [api.origin]);
  await page.goto(`${api.origin}/graphiql`);
  const text = await runGraphiqlExample(page, t.tokens.reader);
  expect(text).toMatch(/"paymentSources": \{ "totalCount": \d+/);
  expect(text).not.toMatch(/errors/);
  await page.screenshot({ path: screenshotPath('graphiql.png') });

  // The schema came with the token: the documentation pane shows the root types.
  await page.getByRole('button', { name: /documentation explorer/i }).click();
  await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).first().waitFor({ timeout: 30_000 });
  await page.screenshot({ path: screenshotPath('graphiql-docs.png') });
  // Its dialogs work under the page's CSP (they insert a style element).
  await page.getByRole('button', { name: /settings/i }).click();
  await page.getByRole('dialog').waitFor();
  await page.keyboard.press('Escape');

  expect(seen.foreign).toEqual([]);
  expect(seen.problems).toEqual([]);
  await page.close();
});

it('the REST reference at /api/v1/docs lists every path of the OpenAPI document and calls one with a token, offline', async () => {
  const page = await browser.context.newPage();
  const seen = await watch(page, [api.origin]);
  await page.goto(`${api.origin}/api/v1/docs`);
  await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });
  const shown = new Set((await page.locator('.opblock-summary-path').allInnerTexts()).map((p) => p.replace(/\u200b/g, '').trim()));
  const paths = Object.keys(openApiDocument().paths ?? {});
  expect(paths.length).toBeGreaterThan(5);
  expect(paths.filter((p) => !shown.has(p))).toEqual([]);
  await page.screenshot({ path: screenshotPath('rest-reference.png'), fullPage: true });

  // Usable, not only readable: authorize with a token and try a list.
  await page.click('.auth-wrapper .authorize');
  await page.fill('.modal-ux input', t.tokens.reader);
  await page.click('.modal-ux .auth-btn-wrapper .authorize');
  await page.click('.modal-ux .btn-done');
  const list = page.locator('.opblock-get', { has: page.locator('.opblock-summary-path', { hasText: /^\/payment-sources$/ }) });
  await list.locator('.opblock-summary').click();
  await list.locator('.try-out__btn').click();
  await list.locator('.execute').click();
  const status = list.locator('.live-responses-table tbody .response-col_status').first();
  await status.waitFor({ timeout: 30_000 });
  expect((await status.innerText()).trim()).toBe('200');
  expect(await list.locator('.live-responses-table tbody .response-col_description').first().innerText()).toContain('"value"');
  await list.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('rest-reference-try-it-out.png') });

  expect(seen.foreign).toEqual([]);
  expect(seen.problems).toEqual([]);
  await page.close();
});
