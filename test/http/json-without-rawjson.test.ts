import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadDemoDataIfEmpty } from '../../src/import/demo-data';
import { token } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { freePort } from '../support/pg-cluster';
import { startService, type RunningService } from '../support/service';

// A runtime without JSON.rawJSON (Node before 22) writes every response through the
// lossless-json fallback (src/http/json.ts): decimals must still leave both doors as exact
// JSON numbers, and the service says at start that it is on the slower path. The service runs
// here with JSON.rawJSON deleted before any of its modules load.

let dir: string;
let db: TestDatabase | undefined;
let svc: RunningService;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'no-rawjson-'));
  const preload = path.join(dir, 'no-rawjson.mjs');
  fs.writeFileSync(preload, 'delete JSON.rawJSON;\n');
  const env: Record<string, string> = { NODE_OPTIONS: `--import=${preload}` };
  if (process.env.DATABASE_URL) {
    // PostgreSQL gets no demo data at start; the same file, loaded here.
    db = await createTestDatabase();
    await loadDemoDataIfEmpty(db);
    env.DATABASE_URL = db.url!;
  } else {
    env.DATA_DIR = path.join(dir, 'data');
  }
  svc = startService(await freePort(), env);
  expect(await svc.ready(90_000)).toBe(true);
}, 120_000);

afterAll(async () => {
  await svc?.stop();
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('says at start that responses take the slower JSON writer', () => {
  const warning = svc.logs().find((e) => e.msg?.includes('no JSON.rawJSON'));
  expect(warning).toMatchObject({ level: 40, node: process.versions.node });
});

it('REST writes decimals as exact JSON numbers', async () => {
  const res = await fetch(`${svc.base}/api/v1/tax-codes?$filter=code%20eq%20'V19'&$select=code,rate`, {
    headers: { authorization: `Bearer ${await token('billing.read')}` },
  });
  expect(res.status).toBe(200);
  const text = await res.text();
  expect(text).toContain('"rate":19');
  expect((JSON.parse(text) as { value: unknown[] }).value).toEqual([{ code: 'V19', rate: 19 }]);
});

it('GraphQL writes decimals as exact JSON numbers', async () => {
  const res = await fetch(`${svc.base}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await token('billing.read')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ taxCodes(first: 100) { nodes { code rate } } }' }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: { taxCodes: { nodes: Array<{ code: string; rate: unknown }> } } };
  expect(body.data.taxCodes.nodes.find((n) => n.code === 'V19')).toEqual({ code: 'V19', rate: 19 });
  for (const n of body.data.taxCodes.nodes) expect(typeof n.rate).toBe('number');
});
