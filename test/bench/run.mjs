#!/usr/bin/env node
// npm run bench — HTTP benchmark of both doors against PostgreSQL.
//
// 1. makes (once) a database filled from test/fixtures/generate.mjs --customers 100000
//    (BENCH_DATABASE_URL names it; default postgresql://postgres@127.0.0.1:5432/bench_100k),
// 2. starts the built service on it (rate limit off, logs quiet),
// 3. runs autocannon on each scenario and prints requests/s, p50/p99 latency, and the CPU
//    milliseconds per request of the service process and of PostgreSQL (all its processes on
//    this machine, read from /proc: on a shared machine other clients' queries count too).
// With BENCH_DATABASE_URL through a pooler, the service gets the caller's DB_POOLER and
// DATABASE_DIRECT_URL (README "Scaling out"), and PgBouncer's CPU is shown beside PostgreSQL's.
// Options: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 10), BENCH_CUSTOMERS (default 100000),
// BENCH_ONLY (scenario letters to run, e.g. `d,d2`; default all).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { backendTicksSince, cpuTicks, databaseBackends, processTicks } from './cpu.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const customers = Number(process.env.BENCH_CUSTOMERS ?? 100000);
const dbUrl = process.env.BENCH_DATABASE_URL ?? `postgresql://postgres@127.0.0.1:5432/bench_${customers}`;
const port = Number(process.env.BENCH_PORT ?? 4510);
const secret = 'bench-secret-bench-secret-bench-secret-0123';

async function ensureDatabase() {
  const url = new URL(dbUrl);
  const name = url.pathname.slice(1);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(dbUrl), { pathname: '/postgres' }).toString() });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount > 0;
  if (!exists) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
  await admin.end();
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  let filled = 0;
  try {
    filled = Number((await c.query('SELECT count(*) AS n FROM "Customer"')).rows[0].n);
  } catch {
    filled = 0;
  }
  await c.end();
  if (filled >= customers) return;
  const file = path.join('/tmp', `bench-ref-${customers}.json`);
  if (!fs.existsSync(file)) {
    console.log(`generating ${file} ...`);
    execFileSync(process.execPath, [path.join(root, 'test/fixtures/generate.mjs'), '--customers', String(customers), '--out', file], {
      stdio: 'inherit',
    });
  }
  console.log(`importing into ${name} ...`);
  execFileSync(process.execPath, [path.join(root, 'dist/src/cli/import.js'), file], {
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: dbUrl },
  });
  // Statistics and the visibility map now, not whenever autovacuum gets there: plans and
  // index-only scans are then the ones a settled database gets.
  const v = new pg.Client({ connectionString: dbUrl });
  await v.connect();
  await v.query('VACUUM ANALYZE');
  await v.end();
}

const postgresTicks = () => processTicks('postgres');
const benchDatabase = new URL(dbUrl).pathname.slice(1);
// A pooler between the service and PostgreSQL (BENCH_DATABASE_URL pointing at PgBouncer) costs CPU too.
const pgbouncerTicks = () => processTicks('pgbouncer');

async function firstCustomer() {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    return (await c.query('SELECT id FROM "Customer" ORDER BY id LIMIT 1')).rows[0].id;
  } finally {
    await c.end();
  }
}

async function startServer() {
  const child = spawn(process.execPath, [path.join(root, 'dist/src/main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      PORT: String(port),
      JWT_SECRET: secret,
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      DB_POOL_MAX: '10',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return child;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error('the service did not become ready');
}

async function token() {
  const { SignJWT } = await import('jose');
  return new SignJWT({ scope: 'billing.read billing.write billing.pii' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('00000000-0000-4000-8000-00000000beef')
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret));
}

const gql = (query) => ({ method: 'POST', path: '/graphql', body: JSON.stringify({ query }), json: true });
// Spaces as %20: OData reads a raw `+` as a plus sign (docs/odata.md), not as form encoding's space.
// The first customer by id of the generated data (any existing id does).
let BENCH_CUSTOMER = '00000000-0000-4000-8000-000000000000';
const rest = (resource, options) => ({
  method: 'GET',
  path: `/api/v1/${resource}?${new URLSearchParams(options).toString().replaceAll('+', '%20')}`,
});
const scenarios = () => [
  {
    name: '(a) REST payment-sources $filter=isActive eq true&$top=50',
    ...rest('payment-sources', { $filter: 'isActive eq true', $top: '50' }),
  },
  {
    name: "(b) REST customers startswith(lastName,'M') $top=100 $count",
    ...rest('customers', { $filter: "startswith(lastName,'M')", $top: '100', $count: 'true' }),
  },
  {
    name: "(c) REST customers startswith(lastName,'M') $orderby=lastName,id $top=100",
    ...rest('customers', { $filter: "startswith(lastName,'M')", $orderby: 'lastName,id', $top: '100' }),
  },
  {
    name: "(d) REST customers contains(lastName,'mann') $orderby=lastName $top=100",
    ...rest('customers', { $filter: "contains(lastName,'mann')", $orderby: 'lastName', $top: '100' }),
  },
  // A substring 78 of the 141 surnames contain: more than the filter lists (src/db/read/lexicon.ts).
  {
    name: "(d2) REST customers contains(lastName,'e') $orderby=lastName $top=100",
    ...rest('customers', { $filter: "contains(lastName,'e')", $orderby: 'lastName', $top: '100' }),
  },
  {
    name: "(e) REST customers lastName eq 'Meier' $orderby=lastName $top=100",
    ...rest('customers', { $filter: "lastName eq 'Meier'", $orderby: 'lastName', $top: '100' }),
  },
  // The REST list of issue 23: its $count reads the prefix's range from the (lastName, id) index alone.
  {
    name: "(b2) REST customers startswith(lastName,'M') $orderby=lastName,id $top=100 $count",
    ...rest('customers', { $filter: "startswith(lastName,'M')", $orderby: 'lastName,id', $top: '100', $count: 'true' }),
  },
  {
    name: '(f) GraphQL 100 customers with addresses',
    ...gql(
      '{ customers(first: 100, orderBy: [{ lastName: ASC }, { id: ASC }]) { nodes { id firstName lastName email debtorNumber addresses { id addressType street city postalCode country isDefault } } } }',
    ),
  },
  {
    name: '(g) GraphQL 50 articles with prices',
    ...gql(
      '{ articles(first: 50, orderBy: [{ code: ASC }, { id: ASC }]) { nodes { id code name description isActive prices { id articleId amount validFrom } } } }',
    ),
  },
  {
    name: '(h) GraphQL 50 articles with prices and tax code',
    ...gql('{ articles(first: 50) { nodes { id code name prices { id amount validFrom } defaultTaxCode { id code rate } } } }'),
  },
  // Shapes beyond the two lists (test/bench/workloads has the same GraphQL ones side by side with PostGraphile).
  {
    name: '(i) GraphQL one customer by id with addresses',
    ...gql(
      `{ customer(id: "${BENCH_CUSTOMER}") { id firstName lastName email debtorNumber addresses { id addressType street city postalCode country isDefault } } }`,
    ),
  },
  {
    name: '(j) GraphQL every tax code with its tax account',
    ...gql('{ taxCodes(first: 100) { nodes { id code name rate taxType validFrom validTo isActive taxAccount { id code name } } } }'),
  },
  {
    name: "(k) GraphQL 50 customers firstName eq 'Zoë' by email with addresses",
    ...gql(
      '{ customers(first: 50, where: { firstName: { eq: "Zoë" } }, orderBy: [{ email: ASC }, { id: ASC }]) { nodes { id firstName lastName email addresses { id addressType street city postalCode country isDefault } } } }',
    ),
  },
  {
    name: "(l) GraphQL 100 customers lastName eq 'Meier' with addresses and account",
    ...gql(
      '{ customers(first: 100, where: { lastName: { eq: "Meier" } }, orderBy: [{ firstName: ASC }, { id: ASC }]) { nodes { id firstName lastName debtorNumber addresses { id addressType street city postalCode country isDefault } receivableAccount { id code name } } } }',
    ),
  },
  {
    name: '(m) GraphQL 100 customers at offset 50000',
    ...gql(
      '{ customers(first: 100, offset: 50000, orderBy: [{ lastName: ASC }, { id: ASC }]) { nodes { id firstName lastName email debtorNumber } } }',
    ),
  },
  {
    name: "(n) GraphQL 100 addresses city eq 'Stuttgart' with customer",
    ...gql(
      '{ addresses(first: 100, where: { city: { eq: "Stuttgart" } }, orderBy: [{ postalCode: ASC }, { id: ASC }]) { nodes { id street city postalCode customer { id firstName lastName } } } }',
    ),
  },
  { name: '(o) REST one customer by id', method: 'GET', path: `/api/v1/customers/${BENCH_CUSTOMER}` },
  {
    name: '(p) REST articles $orderby=name desc $expand=defaultTaxCode $top=100',
    ...rest('articles', { $orderby: 'name desc', $expand: 'defaultTaxCode', $top: '100' }),
  },
];

async function main() {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  await ensureDatabase();
  BENCH_CUSTOMER = await firstCustomer();
  const server = await startServer();
  const auth = `Bearer ${await token()}`;
  const rows = [];
  try {
    const only = process.env.BENCH_ONLY?.split(',').map((l) => `(${l.trim()})`);
    for (const s of scenarios().filter((x) => !only || only.some((o) => x.name.startsWith(`${o} `)))) {
      const headers = { authorization: auth, ...(s.json ? { 'content-type': 'application/json' } : {}) };
      // Check the answer once before measuring: a benchmark of errors measures nothing.
      const check = await fetch(`http://127.0.0.1:${port}${s.path}`, { method: s.method, headers, body: s.body });
      const text = await check.text();
      if (!check.ok || text.includes('"errors"')) throw new Error(`${s.name}: ${check.status} ${text.slice(0, 300)}`);
      await autocannon({ url: `http://127.0.0.1:${port}${s.path}`, method: s.method, headers, body: s.body, connections, duration: 2 }); // warm-up
      const server0 = cpuTicks(server.pid);
      const pg0 = postgresTicks();
      const bouncer0 = pgbouncerTicks();
      const backends0 = databaseBackends(benchDatabase);
      const r = await autocannon({
        url: `http://127.0.0.1:${port}${s.path}`,
        method: s.method,
        headers,
        body: s.body,
        connections,
        duration: seconds,
      });
      const n = Math.max(1, r.requests.total);
      rows.push({
        scenario: s.name,
        'req/s': Math.round(r.requests.average),
        'p50 ms': r.latency.p50,
        'p99 ms': r.latency.p99,
        'server CPU ms/req': Number((((cpuTicks(server.pid) - server0) * 10) / n).toFixed(2)),
        'PostgreSQL CPU ms/req': Number((((postgresTicks() - pg0) * 10) / n).toFixed(2)),
        'its backends CPU ms/req': Number(((backendTicksSince(benchDatabase, backends0) * 10) / n).toFixed(2)),
        'PgBouncer CPU ms/req': Number((((pgbouncerTicks() - bouncer0) * 10) / n).toFixed(2)),
        non2xx: r.non2xx,
        'bytes/s': Math.round(r.throughput.average),
      });
    }
  } finally {
    server.kill('SIGTERM');
  }
  console.log(
    `\n${customers} customers, PostgreSQL, ${connections} connections, ${seconds} s per scenario, node ${process.version}, load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  );
  console.table(rows);
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
