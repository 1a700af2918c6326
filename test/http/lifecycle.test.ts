import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The real entry point, as `npm start` runs it: first start on an empty embedded database
// (migrations, demo data), answers, then a graceful SIGTERM shutdown with exit code 0.
const root = path.resolve(__dirname, '../..');

it('starts on an empty embedded database with demo data and shuts down cleanly on SIGTERM', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifecycle-'));
  const port = 4700 + (process.pid % 200);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts')], {
    cwd: root,
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    let ready = false;
    for (let i = 0; i < 600 && !ready; i++) {
      ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (!ready) await new Promise((r) => setTimeout(r, 100));
    }
    expect(ready).toBe(true);
    expect(out).toContain('demo dataset loaded');
    expect(out).not.toContain('no JSON.rawJSON'); // the supported runtimes have it (json-without-rawjson.test.ts)
    const secret = fs.readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim();
    const { signToken } = await import('../../src/auth/tokens');
    const token = await signToken(secret, { sub: '00000000-0000-4000-8000-000000000001', scope: 'billing.read' });
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/payment-sources?$count=true`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { '@odata.count': number })['@odata.count']).toBeGreaterThan(0);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  expect(out).toContain('"msg":"stopped"');
  expect(out).not.toMatch(/"level":50/); // nothing logged as an error
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 120_000);
