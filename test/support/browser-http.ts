import request from 'supertest';
import type { App } from '../../src/app';
import { createTestApp, createVariantApp, type TestApp } from './app';

// What the HTTP tests of browser access share (test/http/browser-access.test.ts,
// apollo-sandbox.test.ts): one app per file and variants of it with other configuration,
// a browser's page request, and the Content-Security-Policy it is answered with.

/** NODE_ENV=production as the environment gives it (production requires DATABASE_URL; these apps never connect to it). */
export const PRODUCTION_ENV: Readonly<Record<string, string>> = { NODE_ENV: 'production', DATABASE_URL: 'postgresql://127.0.0.1/unused' };

/**
 * A test app for the calling file (started in beforeAll; `app()` from then on) and variants
 * of it over the same database, all stopped after the file.
 */
export function appWithVariants(): { app: () => TestApp; variant: (env: Readonly<Record<string, string>>) => Promise<App['express']> } {
  let t: TestApp | undefined;
  const variants: App[] = [];
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    for (const v of variants) await v.stop();
    await t?.close();
  });
  const app = (): TestApp => {
    if (!t) throw new Error('the test app starts in beforeAll');
    return t;
  };
  return {
    app,
    async variant(env) {
      const v = await createVariantApp(app(), env);
      variants.push(v);
      return v.express;
    },
  };
}

/** The preflight a browser sends before a GraphQL POST with a JSON body and a token (Sandbox's, an app's). */
export function preflight(app: App['express'], origin: string, privateNetwork = false): request.Test {
  const req = request(app)
    .options('/graphql')
    .set('Origin', origin)
    .set('Access-Control-Request-Method', 'POST')
    .set('Access-Control-Request-Headers', 'authorization,content-type');
  return privateNetwork ? req.set('Access-Control-Request-Private-Network', 'true') : req;
}

/** GET as a browser opening a page asks for it. */
export const browserGet = (app: App['express'], path: string): request.Test =>
  request(app).get(path).set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8');

/** The answer's Content-Security-Policy: each directive's sources. */
export function cspOf(res: request.Response): Map<string, string[]> {
  return new Map(
    String(res.headers['content-security-policy'] ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources] as const),
  );
}
