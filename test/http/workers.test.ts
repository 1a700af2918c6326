import { token } from '../support/app';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { freePort } from '../support/pg-cluster';
import { startService, type RunningService } from '../support/service';
import { until } from '../support/until';

// All cores of a machine: WORKERS=N forks N workers behind one port (Node's cluster), and
// SIGTERM stops every one of them gracefully before the primary exits 0. Needs PostgreSQL
// (the embedded database belongs to one process).

let HTTP_PORT = 0; // a free port, picked in beforeAll

/** Pids of the workers that logged they listen. */
const listening = (svc: RunningService): Set<number> =>
  new Set(svc.logs().flatMap((e) => (e.pid && e.msg?.startsWith('listening on ') ? [e.pid] : [])));
describe('WORKERS=2', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    HTTP_PORT = await freePort();
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it('serves from two worker processes on one port and stops them all on SIGTERM', async () => {
    const svc = startService(HTTP_PORT, { DATABASE_URL: db.url!, WORKERS: '2' });
    try {
      expect(await svc.ready(90_000)).toBe(true);
      // /readyz answers once ONE worker listens; the cluster hands connections only to workers that do.
      await until('both workers to listen', () => listening(svc).size >= 2);
      expect(listening(svc).size).toBe(2);
      const auth = `Bearer ${await token('billing.read')}`;
      const served = new Set<number>();
      for (let i = 0; i < 10; i++) {
        // A new connection each time, so the cluster hands it to the next worker.
        const res = await fetch(`${svc.base}/api/v1/accounts?$top=1`, { headers: { authorization: auth, connection: 'close' } });
        expect(res.status).toBe(200);
      }
      for (const line of svc.output().split('\n')) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { msg?: string; pid?: number; path?: string };
        if (entry.msg === 'request' && entry.path === '/api/v1/accounts' && entry.pid) served.add(entry.pid);
      }
      expect(served.size).toBe(2);
    } finally {
      expect(await svc.stop()).toBe(0);
    }
    const out = svc.output();
    expect(out.match(/"msg":"stopped"/g)?.length).toBe(3); // two workers and the primary
    expect(out).not.toMatch(/"level":50/);
  }, 120_000);
});
