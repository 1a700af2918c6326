import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { App, AppDeps } from '../../src/app';
import { PROJECT_ROOT } from '../../src/config/paths';
import { createTestApp, createVariantApp, type TestApp } from './app';
import { fixture } from './fixture';
import { listen } from './live-app';

// The app of test/fixtures/trusted-app as its build makes it: graphql-codegen's client preset
// (the command README.md shows) writes its typed documents and persisted-documents.json.

/** Runs codegen into `dir`; the manifest's file and its contents (id `sha256:<hex>` → document). */
function generateTrustedApp(dir: string): { readonly file: string; readonly manifest: Record<string, string> } {
  const out = `${dir}/gql/`;
  const codegen = spawnSync(
    path.join(PROJECT_ROOT, 'node_modules', '.bin', 'graphql-codegen'),
    ['--config', 'test/fixtures/trusted-app/codegen.ts'],
    {
      cwd: PROJECT_ROOT,
      env: { ...process.env, CODEGEN_OUT: out },
      encoding: 'utf8',
    },
  );
  if (codegen.status !== 0 || codegen.stderr !== '') throw new Error(`graphql-codegen failed: ${codegen.stderr}`);
  const file = path.join(out, 'persisted-documents.json');
  return { file, manifest: JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string> };
}

/** What the app's TrustedSources operation answers on the demo data. */
export const trustedSourcesData = () => {
  const sorted = [...fixture.paymentSources].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return {
    paymentSources: { totalCount: fixture.paymentSources.length, nodes: sorted.slice(0, 3).map((s) => ({ code: s.code, id: s.id })) },
  };
};

/**
 * For a test file about the trusted app: a test app and the generated manifest (made in
 * beforeAll, `current()` from then on), and variants of the app on real HTTP servers
 * (`serve`, its /graphql URL), all stopped after the file.
 */
export function trustedAppSuite(prefix: string): {
  current(): { readonly t: TestApp; readonly manifestFile: string; readonly manifest: Record<string, string>; readonly dir: string };
  serve(env: Readonly<Record<string, string>>, extra?: Partial<AppDeps>): Promise<string>;
} {
  let state: { t: TestApp; manifestFile: string; manifest: Record<string, string>; dir: string } | undefined;
  const started: Array<{ app: App; close(): Promise<void> }> = [];
  beforeAll(async () => {
    const t = await createTestApp();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    const { file, manifest } = generateTrustedApp(dir);
    state = { t, manifestFile: file, manifest, dir };
  });
  afterAll(async () => {
    for (const s of started) {
      await s.close();
      await s.app.stop();
    }
    await state?.t.close();
    if (state) fs.rmSync(state.dir, { recursive: true, force: true });
  });
  const current = () => {
    if (!state) throw new Error('the trusted app starts in beforeAll');
    return state;
  };
  return {
    current,
    async serve(env, extra = {}) {
      const app = await createVariantApp(current().t, env, extra);
      const server = await listen(app);
      started.push({ app, close: () => server.close() });
      return `${server.base}/graphql`;
    },
  };
}
