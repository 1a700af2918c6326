import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../support/pg-cluster';
import { startService } from '../support/service';

// The real entry point, as `npm start` runs it: first start on an empty embedded database
// (migrations, demo data, a generated key), answers, then a graceful SIGTERM shutdown with exit code 0.

it('starts on an empty embedded database with demo data and shuts down cleanly on SIGTERM', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifecycle-'));
  const svc = startService(await freePort(), { DATA_DIR: dataDir, LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '0' }, { asNpmStart: true });
  try {
    // A first start migrates and imports the demo data: on a loaded CI machine that takes a while.
    const ready = await svc.ready(150_000);
    expect({ ready, output: ready ? '' : svc.output() }).toEqual({ ready: true, output: '' });
    expect(svc.output()).toContain('demo dataset loaded');
    expect(svc.output()).not.toContain('no JSON.rawJSON'); // the supported runtimes have it (json-without-rawjson.test.ts)
    const secret = fs.readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim();
    const { signToken } = await import('../../src/auth/tokens');
    const token = await signToken(secret, { sub: '00000000-0000-4000-8000-000000000001', scope: 'billing.read' });
    const res = await fetch(`${svc.base}/api/v1/payment-sources?$count=true`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { '@odata.count': number })['@odata.count']).toBeGreaterThan(0);

    expect(await svc.stop()).toBe(0);
    expect(svc.output()).toContain('"msg":"stopped"');
    expect(svc.output()).not.toMatch(/"level":50/); // nothing logged as an error
  } finally {
    if (svc.child.exitCode === null && svc.child.signalCode === null) svc.child.kill('SIGKILL'); // a failure above left it running
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 200_000);
