// npm run bench:replicas — what read replicas buy, measured with a real streaming replica.
//
// 1. a private primary (port 55440) filled with a copy of the benchmark database
//    (bench_100000 on the shared server, made by `npm run bench`), and a streaming replica of
//    it (pg_basebackup -R, port 55441);
// 2. reads: one instance on the primary alone vs two instances reading from primary +
//    replica (load spread over both, as a load balancer would): requests/s, latency, and CPU
//    per request of the service processes and of each PostgreSQL server;
// 3. a write burst (POST /payments) while pg_stat_replication is sampled: replication lag.
// Options: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 10 per instance),
// BENCH_SOURCE_URL (default postgresql://postgres@127.0.0.1:5432/bench_100000).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { signToken } from '../../src/auth/tokens';
import { postgresBin, privateClusterProblem, serverPids, startPrimary, startReplica, type PgCluster } from '../support/pg-cluster';

const root = path.resolve(__dirname, '../..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const source = process.env.BENCH_SOURCE_URL ?? 'postgresql://postgres@127.0.0.1:5432/bench_100000';
const secret = 'bench-secret-bench-secret-bench-secret-0123';
const PORTS = [4660, 4661, 4662];

const ticks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** CPU milliseconds (user + system) a process has used so far. */
function cpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks;
  } catch {
    return 0;
  }
}

/** CPU of a PostgreSQL server: the postmaster and all its children. */
function serverCpuMs(c: PgCluster): number {
  return serverPids(c.dataDir).reduce((sum, p) => sum + cpuMs(p), 0);
}

function startInstance(port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [path.join(root, 'dist/src/main.js')], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      JWT_SECRET: secret,
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      DB_POOL_MAX: '10',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function ready(port: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`instance on ${port} did not become ready`);
}

async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : (c.once('exit', r), c.kill('SIGTERM'))))));
}

const scenario = {
  name: 'GraphQL 100 customers with addresses, REST customers startswith $top=100 $count (alternating)',
  requests: [
    {
      method: 'POST' as const,
      path: '/graphql',
      body: JSON.stringify({
        query: '{ customers(first: 100) { nodes { id firstName lastName email addresses { id city postalCode } } } }',
      }),
    },
    {
      method: 'GET' as const,
      path: `/api/v1/customers?${new URLSearchParams({ $filter: "startswith(lastName,'M')", $top: '100', $count: 'true' }).toString()}`,
    },
  ],
};

async function load(ports: number[], auth: string, duration: number) {
  const headers = { authorization: auth, 'content-type': 'application/json' };
  const results = await Promise.all(
    ports.map((port) => autocannon({ url: `http://127.0.0.1:${port}`, headers, requests: scenario.requests, connections, duration })),
  );
  return {
    requests: results.reduce((s, r) => s + r.requests.total, 0),
    rps: Math.round(results.reduce((s, r) => s + r.requests.average, 0)),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    non2xx: results.reduce((s, r) => s + r.non2xx, 0),
  };
}

async function measure(label: string, children: ChildProcess[], ports: number[], auth: string, servers: Record<string, PgCluster>) {
  await load(ports, auth, 2); // warm-up
  const before = {
    svc: children.map((c) => cpuMs(c.pid!)),
    db: Object.fromEntries(Object.entries(servers).map(([k, c]) => [k, serverCpuMs(c)])),
  };
  const r = await load(ports, auth, seconds);
  const svcMs = children.reduce((s, c, i) => s + cpuMs(c.pid!) - before.svc[i]!, 0);
  const row: Record<string, string | number> = {
    setup: label,
    'req/s': r.rps,
    'p50 ms': r.p50,
    'p99 ms': r.p99,
    non2xx: r.non2xx,
    'service CPU ms/req': +(svcMs / r.requests).toFixed(2),
  };
  for (const [k, c] of Object.entries(servers)) row[`${k} CPU ms/req`] = +((serverCpuMs(c) - before.db[k]!) / r.requests).toFixed(2);
  return row;
}

async function main() {
  const why = privateClusterProblem();
  if (why) throw new Error(`cannot build private clusters: ${why}`);
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  const primary = startPrimary(55440);
  let replica: PgCluster | undefined;
  const children: ChildProcess[] = [];
  try {
    console.log(`copying ${new URL(source).pathname.slice(1)} into the private primary ...`);
    const dump = path.join(primary.dataDir, '..', 'bench.dump');
    const bin = postgresBin()!;
    execFileSync(path.join(bin, 'pg_dump'), ['-Fc', '-f', dump, source]);
    await primary.query('CREATE DATABASE bench');
    execFileSync(path.join(bin, 'pg_restore'), ['-d', primary.url('bench'), '--no-owner', dump]);
    await primary.query('ANALYZE', [], 'bench');
    replica = startReplica(primary, 55441);
    const auth = `Bearer ${await signToken(secret, { sub: '00000000-0000-4000-8000-00000000beef', scope: 'billing.read billing.write billing.pii' })}`;
    const rows = [];

    children.push(startInstance(PORTS[0]!, { DATABASE_URL: primary.url('bench') }));
    await ready(PORTS[0]!);
    rows.push(await measure('1 instance, primary only', children, [PORTS[0]!], auth, { primary, replica }));
    await stopAll(children.splice(0));

    const env = { DATABASE_URL: primary.url('bench'), DATABASE_REPLICA_URLS: replica.url('bench') };
    children.push(startInstance(PORTS[1]!, env), startInstance(PORTS[2]!, env));
    await Promise.all([ready(PORTS[1]!), ready(PORTS[2]!)]);
    rows.push(await measure('2 instances, reads on the replica', children, [PORTS[1]!, PORTS[2]!], auth, { primary, replica }));

    // Write burst: replication lag as pg_stat_replication reports it.
    const customerId = (await primary.query<{ id: string }>('SELECT id::text FROM "Customer" LIMIT 1', [], 'bench'))[0]!.id;
    let maxReplayMs = 0;
    let maxBytes = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [s] = await primary.query<{ ms: number | null; bytes: string | null }>(
          'SELECT EXTRACT(EPOCH FROM replay_lag) * 1000 AS ms, pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::text AS bytes FROM pg_stat_replication',
        );
        maxReplayMs = Math.max(maxReplayMs, Number(s?.ms ?? 0));
        maxBytes = Math.max(maxBytes, Number(s?.bytes ?? 0));
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const burst = await autocannon({
      url: `http://127.0.0.1:${PORTS[1]}/api/v1/payments`,
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ customerId, amount: 12.5, reference: 'burst' }),
      connections,
      duration: Math.min(seconds, 5),
    });
    sampling = false;
    await sampler;

    console.log(
      `\n${scenario.name}; ${connections} connections per instance, ${seconds} s, node ${process.version}, ${fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length} cores`,
    );
    console.table(rows);
    console.log(
      `write burst: ${Math.round(burst.requests.average)} payments/s for ${Math.min(seconds, 5)} s (non-2xx ${burst.non2xx}); ` +
        `replication lag: replay_lag max ${maxReplayMs.toFixed(1)} ms, WAL not yet replayed max ${maxBytes} bytes`,
    );
  } finally {
    await stopAll(children);
    replica?.destroy();
    primary.destroy();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
