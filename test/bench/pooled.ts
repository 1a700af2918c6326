// npm run bench:pooled — what a transaction-mode pooler costs, shape by shape: the "ours" query of
// every side-by-side workload (test/bench/workloads) against the built service twice, straight to
// PostgreSQL and behind a private PgBouncer (transaction mode, 10 server connections), in
// alternating rounds. Prints per workload: req/s both ways, PostgreSQL CPU per request (the bench
// database's own backends), PgBouncer's CPU per request, the service's, and pooled/direct.
//
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/bench_100000 npm run bench:pooled
//
// Options: BENCH_SECONDS (per run, default 5), BENCH_ROUNDS (default 2), BENCH_CONNECTIONS
// (default 10), BENCH_ONLY (workload names, comma-separated), PGBOUNCER (its binary; default
// Debian's). A PgBouncer of 1.21 or later is given max_prepared_statements and the service
// DB_PREPARED_STATEMENTS=named, so plans are reused behind it as they are without it; an older
// one gets unnamed statements (it cannot carry named ones from one transaction to the next).
// The database is the one npm run bench fills. Run it on a quiet machine: CPU per request
// holds better than req/s on a busy one, but neither is good at a load of 20.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { startPgBouncer } from '../support/pgbouncer';
import { backendTicksSince, databaseBackends, processTicks } from './cpu.mjs';
import { serviceDir, startBuiltService, type BuiltService } from './service.mjs';

const dbUrl = new URL(process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/bench_100000');
const dbName = dbUrl.pathname.slice(1);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ONLY = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const WORKLOADS = path.join(__dirname, 'workloads');

interface Workload {
  readonly name: string;
  readonly body: string;
}
function workloads(): Workload[] {
  return fs
    .readdirSync(WORKLOADS)
    .filter((f) => f.endsWith('.json'))
    .map((f) => {
      const w = JSON.parse(fs.readFileSync(path.join(WORKLOADS, f), 'utf8')) as {
        name: string;
        ours: { query: string | string[]; variables?: Record<string, unknown> };
      };
      const query = Array.isArray(w.ours.query) ? w.ours.query.join('\n') : w.ours.query;
      return { name: w.name, body: JSON.stringify({ query, variables: w.ours.variables ?? {} }) };
    })
    .filter((w) => !ONLY || ONLY.includes(w.name));
}

/** PgBouncer's version as [major, minor]: 1.21 brought prepared statements in transaction mode. */
function bouncerVersion(): [number, number] {
  const out = spawnSync(process.env.PGBOUNCER ?? '/usr/sbin/pgbouncer', ['--version'], { encoding: 'utf8' }).stdout;
  const m = /PgBouncer (\d+)\.(\d+)/.exec(out);
  if (!m) throw new Error(`cannot read PgBouncer's version from: ${out}`);
  return [Number(m[1]), Number(m[2])];
}

interface Tally {
  requests: number;
  rps: number[];
  pgTicks: number;
  bouncerTicks: number;
  serviceNs: number;
  errors: number;
}
const tally = (): Tally => ({ requests: 0, rps: [], pgTicks: 0, bouncerTicks: 0, serviceNs: 0, errors: 0 });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function load(svc: BuiltService, auth: string, w: Workload, seconds: number, into?: Tally): Promise<void> {
  const opts = {
    url: `${svc.base}/graphql`,
    method: 'POST' as const,
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: w.body,
    connections: CONNECTIONS,
    duration: seconds,
  };
  const pg0 = databaseBackends(dbName);
  const b0 = processTicks('pgbouncer');
  const s0 = svc.cpuNs();
  const r = await autocannon(opts);
  if (!into) return;
  into.requests += r.requests.total;
  into.rps.push(r.requests.average);
  into.pgTicks += backendTicksSince(dbName, pg0);
  into.bouncerTicks += processTicks('pgbouncer') - b0;
  into.serviceNs += svc.cpuNs() - s0;
  into.errors += r.non2xx + r.errors;
}

async function check(svc: BuiltService, auth: string, w: Workload): Promise<void> {
  const res = await fetch(`${svc.base}/graphql`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: w.body,
  });
  const text = await res.text();
  if (!res.ok || text.includes('"errors"')) throw new Error(`${w.name}: ${res.status} ${text.slice(0, 300)}`);
}

async function main(): Promise<void> {
  const [major, minor] = bouncerVersion();
  const prepared = major > 1 || minor >= 21;
  const bouncer = await startPgBouncer(Number(process.env.BENCH_PGBOUNCER_PORT ?? 6441), {
    serverPort: Number(dbUrl.port || 5432),
    serverHost: dbUrl.hostname,
    defaultPoolSize: 10,
    settings: prepared ? { max_prepared_statements: 200 } : {},
  });
  const common = { NODE_ENV: 'production', DB_POOL_MAX: '10' };
  let direct: BuiltService | undefined;
  let pooled: BuiltService | undefined;
  try {
    direct = await startBuiltService({ serviceDir, port: 4521, name: 'direct', env: { ...common, DATABASE_URL: dbUrl.toString() } });
    pooled = await startBuiltService({
      serviceDir,
      port: 4522,
      name: 'pooled',
      env: {
        ...common,
        DATABASE_URL: bouncer.url(dbName),
        DATABASE_DIRECT_URL: dbUrl.toString(),
        DB_POOLER: 'transaction',
        DB_PREPARED_STATEMENTS: prepared ? 'named' : 'auto',
      },
    });
    const auth = `Bearer ${await direct.token('billing.read billing.pii')}`;
    console.log(
      `PgBouncer ${major}.${minor} (${prepared ? 'max_prepared_statements = 200, named statements' : 'unnamed statements'}), ` +
        `${ROUNDS} rounds of ${SECONDS} s at ${CONNECTIONS} connections, load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
    );
    const rows = [];
    for (const w of workloads()) {
      const d = tally();
      const p = tally();
      for (const svc of [direct, pooled]) {
        await check(svc, auth, w);
        await load(svc, auth, w, 2);
      }
      for (let round = 0; round < ROUNDS; round++) {
        await load(direct, auth, w, SECONDS, d);
        await load(pooled, auth, w, SECONDS, p);
      }
      const perRequest = (ticks: number, t: Tally) => (ticks * 10) / Math.max(1, t.requests);
      const pgD = perRequest(d.pgTicks, d);
      const pgP = perRequest(p.pgTicks, p);
      rows.push({
        workload: w.name,
        'direct req/s': Math.round(median(d.rps)),
        'pooled req/s': Math.round(median(p.rps)),
        'pooled/direct': Number((median(p.rps) / median(d.rps)).toFixed(2)),
        'PG ms/req direct': Number(pgD.toFixed(3)),
        'PG ms/req pooled': Number(pgP.toFixed(3)),
        'PG pooled/direct': Number((pgP / pgD).toFixed(2)),
        'PgBouncer ms/req': Number(perRequest(p.bouncerTicks, p).toFixed(3)),
        'service ms/req direct': Number((d.serviceNs / 1e6 / Math.max(1, d.requests)).toFixed(3)),
        'service ms/req pooled': Number((p.serviceNs / 1e6 / Math.max(1, p.requests)).toFixed(3)),
        errors: d.errors + p.errors,
      });
    }
    console.table(rows);
    console.log(`load average after: ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  } finally {
    await pooled?.stop();
    await direct?.stop();
    await bouncer.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
