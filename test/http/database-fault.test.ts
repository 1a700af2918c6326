import { Client } from 'pg';
import { token } from '../support/app';
import { fixture } from '../support/fixture';
import { demoDatabase, freePort, requirePrivateClusters, startPrimary, type PgCluster } from '../support/pg-cluster';
import { startService, type RunningService } from '../support/service';
import { until } from '../support/until';

// A database that is down, stalled or too slow is a retryable outage, not a fault of the
// service: both doors answer 503 SERVICE_UNAVAILABLE with Retry-After while PostgreSQL is
// stopped (fast and immediate) or frozen (SIGSTOP: no answer at all, the statement timeout
// cannot fire on the server, the client-side limit does), 200 again once it is back without
// restarting the service,
// no acknowledged write is lost, and a row lock held past the statement timeout gives 503
// rather than a hang or a 500. The service itself waits at start for a database that is not
// up yet. Runs on a private throwaway cluster (the shared one must never be stopped).

let PG_PORT = 0; // a free port, picked in beforeAll
let HTTP_PORT = 0; // a free port, picked in beforeAll
const STATEMENT_TIMEOUT_MS = 1500;

let pg: PgCluster;
let svc: RunningService;
let auth: string;
const customerId = fixture.customers[0]!.id;

interface Probe {
  rest: number;
  restCode?: string;
  restRetryAfter: string | null;
  graphql: number;
  graphqlCode?: string;
  graphqlRetryAfter: string | null;
}

async function probe(): Promise<Probe> {
  const headers = { authorization: auth, 'content-type': 'application/json' };
  const r = await fetch(`${svc.base}/api/v1/payment-sources?$top=1`, { headers });
  const rb = (await r.json()) as { code?: string };
  const g = await fetch(`${svc.base}/graphql`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query: '{ paymentSources(first: 1) { nodes { id } } }' }),
  });
  const gb = (await g.json()) as { errors?: Array<{ extensions?: { code?: string } }> };
  return {
    rest: r.status,
    ...(rb.code ? { restCode: rb.code } : {}),
    restRetryAfter: r.headers.get('retry-after'),
    graphql: g.status,
    ...(gb.errors?.[0]?.extensions?.code ? { graphqlCode: gb.errors[0].extensions.code } : {}),
    graphqlRetryAfter: g.headers.get('retry-after'),
  };
}

/** The first probe that passes `test`, and how long it took to come. */
async function probeUntil(what: string, test: (p: Probe) => boolean, timeoutMs: number): Promise<{ probe: Probe; ms: number }> {
  const start = Date.now();
  let last: Probe | undefined;
  const passed = await until(
    what,
    async () => {
      last = await probe();
      return test(last) && last;
    },
    { timeoutMs, detail: () => `last: ${JSON.stringify(last)}` },
  );
  return { probe: passed, ms: Date.now() - start };
}

/** Writes payments one after another until stopped; remembers each acknowledged id. */
function writer() {
  const acknowledged: string[] = [];
  const statuses = new Map<number, number>();
  let running = true;
  const done = (async () => {
    let n = 0;
    while (running) {
      n++;
      const res = await fetch(`${svc.base}/api/v1/payments`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ customerId, amount: 1 + n / 10000, reference: `fault-${n}` }),
      }).catch(() => undefined);
      if (res) {
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const body = (await res.json()) as { id?: string };
        if (res.status === 201 && body.id) acknowledged.push(body.id);
      }
      // A rate, not a wait: about 50 writes a second, so the outage meets many of them.
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    acknowledged,
    statuses,
    async stop() {
      running = false;
      await done;
    },
  };
}

const unavailable = (p: Probe) =>
  p.rest === 503 && p.restCode === 'SERVICE_UNAVAILABLE' && p.graphql === 503 && p.graphqlCode === 'SERVICE_UNAVAILABLE';
const healthy = (p: Probe) => p.rest === 200 && p.graphql === 200 && !p.graphqlCode;

describe('database outages answer 503 and heal without a restart', () => {
  beforeAll(async () => {
    PG_PORT = await freePort();
    HTTP_PORT = await freePort();
    requirePrivateClusters();
    auth = `Bearer ${await token('billing.read billing.write')}`;
    pg = startPrimary(PG_PORT);
    await pg.query('CREATE DATABASE fault');
    // Start-up waits for a database that is not up yet instead of exiting.
    pg.stop('fast');
    svc = startService(HTTP_PORT, {
      DATABASE_URL: pg.url('fault'),
      DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
      DB_CONNECT_TIMEOUT_MS: '1000',
      DB_STARTUP_TIMEOUT_MS: '60000',
    });
    await until('the service to wait for the database', () => svc.output().includes('database not reachable yet; waiting'), {
      timeoutMs: 30_000,
    });
    pg.start();
    const ready = await svc.ready(60_000);
    if (!ready) throw new Error(`service did not become ready:\n${svc.output()}`);
    await demoDatabase(pg, 'fault', { created: false });
  }, 180_000);

  afterAll(async () => {
    const code = await svc?.stop();
    pg?.destroy();
    expect(code).toBe(0);
  });

  it('waited for the database at start-up, logging each attempt', () => {
    expect(svc.output()).toContain('database not reachable yet; waiting');
    expect(svc.output()).toContain('listening on');
  });

  for (const mode of ['fast', 'immediate', 'frozen'] as const) {
    it(`PostgreSQL ${mode === 'frozen' ? 'frozen (SIGSTOP)' : `stopped (${mode})`}: 503 with Retry-After in both doors, 200 again after it is back, no acknowledged write lost`, async () => {
      expect(healthy(await probe())).toBe(true);
      const w = writer();
      await until('writes acknowledged before the outage', () => w.acknowledged.length >= 3, { timeoutMs: 20_000 });
      const stoppedAt = Date.now();
      if (mode === 'frozen') pg.freeze();
      else pg.stop(mode);
      const down = await probeUntil('503 in both doors', unavailable, 20_000);
      expect(down.probe.restRetryAfter).toMatch(/^[1-9][0-9]*$/);
      expect(down.probe.graphqlRetryAfter).toMatch(/^[1-9][0-9]*$/);
      const ready = await fetch(`${svc.base}/readyz`);
      expect(ready.status).toBe(503);
      await until('a write refused during the outage', () => (w.statuses.get(503) ?? 0) >= 3, { timeoutMs: 20_000 });
      const startedAt = Date.now();
      if (mode === 'frozen') pg.thaw();
      else pg.start();
      const up = await probeUntil('200 in both doors', healthy, 30_000);
      const before = w.acknowledged.length;
      await until('writes acknowledged after the outage', () => w.acknowledged.length >= before + 3, { timeoutMs: 20_000 });
      await w.stop();
      console.log(
        `fault timeline (${mode}): 503 in both doors ${down.ms} ms after the stop returned; PostgreSQL away for ${startedAt - stoppedAt} ms; ` +
          `200 in both doors ${up.ms} ms after it was back; writer statuses ${JSON.stringify(Object.fromEntries(w.statuses))}`,
      );
      // Writes during the outage were refused as retryable, never as a fault.
      expect([...w.statuses.keys()].every((s) => s === 201 || s === 503)).toBe(true);
      expect(w.acknowledged.length).toBeGreaterThan(0);
      const found = await pg.query<{ n: string }>(
        'SELECT count(*)::text AS n FROM "Payment" WHERE id = ANY($1::uuid[])',
        [w.acknowledged],
        'fault',
      );
      expect(Number(found[0]!.n)).toBe(w.acknowledged.length);
    }, 120_000);
  }

  it('a row lock held past the statement timeout gives 503 in both doors, not a hang or 500', async () => {
    const locker = new Client({ connectionString: pg.url('fault') });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT id FROM "PaymentSource" WHERE "isDefault" FOR UPDATE');
      const started = Date.now();
      const rest = await fetch(`${svc.base}/api/v1/payments`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ customerId, amount: 5 }),
      });
      const restMs = Date.now() - started;
      expect(rest.status).toBe(503);
      expect(((await rest.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE');
      expect(rest.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      const gql = await fetch(`${svc.base}/graphql`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ query: `mutation { createPayment(input: { customerId: "${customerId}", amount: 5 }) { id } }` }),
      });
      expect(gql.status).toBe(503);
      expect(((await gql.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe(
        'SERVICE_UNAVAILABLE',
      );
      expect(gql.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      console.log(`row lock: REST 503 after ${restMs} ms (statement timeout ${STATEMENT_TIMEOUT_MS} ms)`);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    // Once the lock is released, writes succeed again at once.
    const paid = await fetch(`${svc.base}/api/v1/payments`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ customerId, amount: 5 }),
    });
    expect(paid.status).toBe(201);
  }, 60_000);
});
