// Real-browser tests: headless Chromium (the Debian package) driven by playwright-core.
// Not part of `npm test`; `npm run test:browser` runs them and .ci/run installs Chromium
// first. A missing Chromium is a failure, never a skip.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Screenshots and other files a person may want to look at after a run (test-artifacts/ is not tracked). */
export const ARTIFACTS = process.env.BROWSER_ARTIFACTS ?? path.resolve(__dirname, '../../test-artifacts');

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium with a fresh, throw-away profile. */
export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'billing-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1400, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Port for the n-th server of a test file: BROWSER_TEST_PORT + n when set, any free port otherwise. */
function portFor(n: number): number {
  const base = Number(process.env.BROWSER_TEST_PORT ?? 0);
  return base > 0 ? base + n : 0;
}

export interface Served {
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * Listens with a request handler; `host` is how the browser names the server (localhost or
 * 127.0.0.1: two different origins for the same machine).
 */
export async function serve(handler: http.RequestListener, n: number, host: 'localhost' | '127.0.0.1'): Promise<Served> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(portFor(n), host === 'localhost' ? '::' : '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Every request the page makes, and every Content-Security-Policy violation and console
 * error it reports; requests to any origin but the allowed ones are refused (offline).
 */
export async function watch(
  page: Page,
  allowed: readonly string[],
): Promise<{ requests: string[]; foreign: string[]; problems: string[] }> {
  const seen = { requests: [] as string[], foreign: [] as string[], problems: [] as string[] };
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    seen.requests.push(url);
    if (url.startsWith('data:') || allowed.some((o) => url.startsWith(`${o}/`))) return route.continue();
    seen.foreign.push(url);
    return route.abort('internetdisconnected');
  });
  page.on('console', (m) => {
    if (m.type() === 'error') seen.problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => seen.problems.push(`page error: ${e.message}`));
  // Runs in the page (a string: this project type-checks without the DOM library).
  await page.addInitScript(
    "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
  );
  return seen;
}

export function screenshotPath(name: string): string {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return path.join(ARTIFACTS, name);
}

/**
 * On GraphiQL's page: sets the token in its token bar and runs the prefilled example operation
 * with the run button, as a user would; the response pane's text, once it has an answer.
 */
export async function runGraphiqlExample(page: Page, token: string): Promise<string> {
  await page.waitForSelector('.graphiql-container', { timeout: 30_000 });
  await page.fill('#token', token);
  await page.click('#token-bar button');
  await page.waitForSelector('#token-state:has-text("token set")');
  await page.waitForSelector('.graphiql-execute-button');
  await page.click('.graphiql-execute-button');
  const response = page.locator('.graphiql-response');
  await response.getByText('"totalCount"').waitFor({ timeout: 30_000 });
  return (await response.innerText()).replace(/\s+/g, ' ');
}
