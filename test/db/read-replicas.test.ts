import { READER_ID, token, WRITER_ID } from '../support/app';
import { fixture } from '../support/fixture';
import { demoDatabase, freePort, requirePrivateClusters, startPrimary, startReplica, type PgCluster } from '../support/pg-cluster';
import { startService, type RunningService } from '../support/service';
import { until } from '../support/until';

// Reads on a PostgreSQL streaming replica, proven with a real one: a private primary and a
// replica of it (pg_basebackup -R) on their own ports, the service started with both. The
// replica replays 2 s late (recovery_min_apply_delay), so a read that went to it after a
// write would miss the write: read-your-writes has something to prove.

let PRIMARY_PORT = 0; // a free port, picked in beforeAll
let REPLICA_PORT = 0; // a free port, picked in beforeAll
let HTTP_PORT = 0; // a free port, picked in beforeAll
const DB = 'replicas';

let primary: PgCluster;
let replica: PgCluster;
let svc: RunningService;
let writer: string;
let reader: string;
const customerId = fixture.customers[0]!.id;

interface Counters {
  xact: number;
  returned: number;
}
async function counters(c: PgCluster): Promise<Counters> {
  const [row] = await c.query<{ xact: string; returned: string }>(
    'SELECT xact_commit::text AS xact, tup_returned::text AS returned FROM pg_stat_database WHERE datname = $1',
    [DB],
  );
  return { xact: Number(row!.xact), returned: Number(row!.returned) };
}

async function call(path: string, auth: string, init: { method?: string; body?: unknown; prefer?: string } = {}) {
  const res = await fetch(`${svc.base}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json', ...(init.prefer ? { prefer: init.prefer } : {}) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const gql = (auth: string, query: string, variables: Record<string, unknown> = {}) =>
  call('/graphql', auth, { method: 'POST', body: { query, variables } });

/**
 * Whether pg_stat_database holds everything the service's sessions on `c` did. A backend
 * adds its counters when it goes idle, unless it added them less than a second before; then
 * 10 s after it went idle (PGSTAT_MIN_INTERVAL and PGSTAT_IDLE_INTERVAL, PostgreSQL's
 * pgstat.c). So once every session on the database has been idle for longer, all are in; a
 * server the service sent nothing to recently holds at once.
 */
async function countersComplete(c: PgCluster): Promise<boolean> {
  const [row] = await c.query<{ busy: number }>(
    `SELECT count(*)::int AS busy FROM pg_stat_activity
     WHERE datname = $1 AND backend_type = 'client backend' AND (state <> 'idle' OR state_change > now() - interval '10.5 s')`,
    [DB],
  );
  return row!.busy === 0;
}

describe('reads on a streaming replica', () => {
  beforeAll(async () => {
    PRIMARY_PORT = await freePort();
    REPLICA_PORT = await freePort();
    HTTP_PORT = await freePort();
    requirePrivateClusters();
    writer = await token('billing.read billing.write', WRITER_ID);
    reader = await token('billing.read', READER_ID);
    primary = startPrimary(PRIMARY_PORT);
    await demoDatabase(primary, DB);
    replica = startReplica(primary, REPLICA_PORT, { applyDelayMs: 2000 });
    svc = startService(HTTP_PORT, {
      DATABASE_URL: primary.url(DB),
      DATABASE_REPLICA_URLS: replica.url(DB),
      // The replica is deliberately 2 s behind; a bound above that keeps it in use.
      DB_REPLICA_MAX_LAG_MS: '600000',
      READ_YOUR_WRITES_MS: '5000',
    });
    if (!(await svc.ready(60_000))) throw new Error(`service did not become ready:\n${svc.output()}`);
  }, 180_000);

  afterAll(async () => {
    const code = await svc?.stop();
    replica?.destroy();
    primary?.destroy();
    expect(code).toBe(0);
  });

  it('/readyz reports each database', async () => {
    const res = await fetch(`${svc.base}/readyz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { databases: Array<{ name: string; role: string; state: string }> };
    expect(body.databases).toEqual([
      { name: 'primary', role: 'primary', state: 'up' },
      expect.objectContaining({ name: 'replica 1', role: 'replica', state: 'up' }),
    ]);
  });

  it('list and single-record reads of both doors land on the replica, not on the primary', async () => {
    // The readiness probes' SELECT 1 on the primary must be counted before, not during, the reads.
    await until("the primary's counters to be complete", () => countersComplete(primary), { timeoutMs: 30_000, everyMs: 250 });
    const before = { primary: await counters(primary), replica: await counters(replica) };
    const id = fixture.paymentSources[0]!.id;
    const rounds = 20;
    for (let i = 0; i < rounds; i++) {
      expect((await call('/api/v1/customers?$top=5', reader)).status).toBe(200);
      expect((await call(`/api/v1/payment-sources/${id}`, reader)).status).toBe(200);
      const list = await gql(reader, '{ accounts(first: 5) { nodes { id code } } }');
      expect(list.status).toBe(200);
      expect(list.body.errors).toBeUndefined();
      const one = await gql(reader, 'query($id: ID!) { paymentSource(id: $id) { code account { code } } }', { id });
      expect(one.status).toBe(200);
      expect(one.body.errors).toBeUndefined();
    }
    let grew = { primaryXact: 0, primaryRows: 0, replicaXact: 0, replicaRows: 0 };
    // The replica's counters show the reads, and the primary's hold whatever reached it (read after it is complete).
    await until(
      'the reads in the counters',
      async () => {
        const primaryComplete = await countersComplete(primary);
        const after = { primary: await counters(primary), replica: await counters(replica) };
        grew = {
          primaryXact: after.primary.xact - before.primary.xact,
          primaryRows: after.primary.returned - before.primary.returned,
          replicaXact: after.replica.xact - before.replica.xact,
          replicaRows: after.replica.returned - before.replica.returned,
        };
        return primaryComplete && grew.replicaXact >= rounds * 4 && grew.replicaRows > 0;
      },
      { timeoutMs: 30_000, everyMs: 250, detail: () => JSON.stringify(grew) },
    );
    console.log(`pg_stat_database during ${rounds * 4} reads: ${JSON.stringify(grew)}`);
    expect(grew.replicaXact).toBeGreaterThanOrEqual(rounds * 4);
    expect(grew.replicaRows).toBeGreaterThan(0);
    expect(grew.primaryXact).toBe(0);
    expect(grew.primaryRows).toBe(0);
  });

  it('writes go to the primary, and the writer reads its own write 100 times in a row (REST and GraphQL)', async () => {
    const before = await counters(primary);
    for (let i = 0; i < 100; i++) {
      if (i % 2 === 0) {
        const created = await call('/api/v1/payments', writer, {
          method: 'POST',
          body: { customerId, amount: 1 + i, reference: `ryw-${i}` },
        });
        expect(created.status).toBe(201);
        const read = await call(`/api/v1/payments/${String(created.body.id)}`, writer);
        expect(read.status).toBe(200);
        expect(read.body.reference).toBe(`ryw-${i}`);
      } else {
        const created = await gql(writer, 'mutation($input: CreatePaymentInput!) { createPayment(input: $input) { id } }', {
          input: { customerId, amount: 1 + i, reference: `ryw-${i}` },
        });
        const id = (created.body.data as { createPayment: { id: string } }).createPayment.id;
        const read = await gql(writer, 'query($id: ID!) { payment(id: $id) { reference } }', { id });
        expect(read.body.data).toEqual({ payment: { reference: `ryw-${i}` } });
      }
    }
    // Backends that stay busy report their counters at most once a second (as above).
    const written = await until(
      "the writes in the primary's counters",
      async () => {
        const n = (await counters(primary)).xact - before.xact;
        return n >= 100 && n;
      },
      { timeoutMs: 30_000, everyMs: 250 },
    );
    expect(written).toBeGreaterThanOrEqual(100);
  });

  it('another client reads from the (late) replica, unless it sends Prefer: read-your-writes', async () => {
    let stale = 0;
    for (let i = 0; i < 5; i++) {
      const created = await call('/api/v1/payments', writer, { method: 'POST', body: { customerId, amount: 7, reference: `other-${i}` } });
      expect(created.status).toBe(201);
      const path = `/api/v1/payments/${String(created.body.id)}`;
      const withPrefer = await call(path, reader, { prefer: 'read-your-writes' });
      expect(withPrefer.status).toBe(200);
      if ((await call(path, reader)).status === 404) stale++;
    }
    // The replica replays 2 s late: a plain read right after the write misses it.
    expect(stale).toBeGreaterThan(0);
  });

  it('a replica lagging beyond DB_REPLICA_MAX_LAG_MS is skipped: reads come from the primary, without errors', async () => {
    const strict = startService(await freePort(), {
      DATABASE_URL: primary.url(DB),
      DATABASE_REPLICA_URLS: replica.url(DB),
      DB_REPLICA_MAX_LAG_MS: '300',
      READ_YOUR_WRITES_MS: '0',
    });
    try {
      expect(await strict.ready(60_000)).toBe(true);
      // Replay stopped on the replica: it keeps receiving WAL but falls ever further behind.
      await replica.query('SELECT pg_wal_replay_pause()', [], DB);
      const created = await call('/api/v1/payments', writer, {
        method: 'POST',
        body: { customerId, amount: 3, reference: 'while-lagging' },
      });
      expect(created.status).toBe(201);
      const replicaState = async () => {
        const body = (await (await fetch(`${strict.base}/readyz`)).json()) as { databases: Array<{ name: string; state: string }> };
        return body.databases.find((d) => d.name === 'replica 1')?.state;
      };
      expect(
        await until('/readyz to show the replica lagging', async () => (await replicaState()) === 'lagging' && 'lagging', {
          timeoutMs: 20_000,
          everyMs: 200,
        }),
      ).toBe('lagging');
      const read = await fetch(`${strict.base}/api/v1/payments/${String(created.body.id)}`, {
        headers: { authorization: `Bearer ${reader}` },
      });
      expect(read.status).toBe(200);
      expect(strict.output()).toContain('read replica lagging');
    } finally {
      await replica.query('SELECT pg_wal_replay_resume()', [], DB);
      expect(await strict.stop()).toBe(0);
    }
  }, 90_000);

  it('with the replica stopped, reads are still 200 (from the primary) and /readyz says so', async () => {
    replica.stop('immediate');
    const started = Date.now();
    for (let i = 0; i < 20; i++) {
      expect((await call('/api/v1/customers?$top=5', reader)).status).toBe(200);
      const one = await gql(reader, '{ accounts(first: 2) { nodes { id } } }');
      expect(one.status).toBe(200);
      expect(one.body.errors).toBeUndefined();
    }
    console.log(`replica stopped: 40 reads, all 200, in ${Date.now() - started} ms`);
    const ready = await fetch(`${svc.base}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { databases: Array<{ name: string; state: string }> };
    expect(body.databases.find((d) => d.name === 'replica 1')?.state).toBe('down');
    expect(svc.output()).toContain('read replica down');
  }, 60_000);
});
