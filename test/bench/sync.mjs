#!/usr/bin/env node
// npm run bench:sync — what a campus management system's sync of customers costs through each
// door, on PostgreSQL: records per second for BENCH_CUSTOMERS (default 5000) generated
// customers with 1-3 addresses each (a pure function of BENCH_SEED, default "1": the same
// names, accounts, addresses and ids every run), each sent twice, "new" (the records do not
// exist yet: a fresh database holding the demo data) and "unchanged" (the same records again,
// on the same database).
//
// 1. rest: the bulk upsert `PATCH /api/v1/customers` with `{"@context":"#$delta","value":[…]}`,
//    BENCH_CHUNK (default 1000) customers a request, one request at a time, `Prefer:
//    return=minimal` (204 when every record went through; a 200 names the records that did
//    not, and fails the run).
// 2. graphql: the mutation `upsertCustomers(input: [CustomerInput!]!)` with the same chunks.
// 3. single: one `PUT /api/v1/customers(debtorNumber='…')` per customer, BENCH_PARALLEL
//    (default 8) in flight; also the ratio of the per-record times unchanged/new.
// 4. import: `node dist/src/cli/import.js FILE` (what `npm run import` runs after its build) of
//    the same customers as an import file (fixed ids for customers and addresses: the import
//    upserts by id), the wall time of the whole command, spawned as a child process.
// The API legs time the requests only (the built service, dist/src/main.js, started and ready
// before, and warmed up with 100 other customers sent through the same door twice), and print the service's CPU ms per record (all its threads, /proc) and that of the
// PostgreSQL backends of the leg's database (cpu.mjs). After every run the database is checked
// to hold the N customers with their addresses, and after an unchanged run the ChangeLog to
// have gained no entry. A final table compares the legs, and a line the bulk legs' wall times
// with the import's (bulk ÷ import: below 1 the bulk door was faster).
//
// BENCH_PARTS=feed (not in the default): BENCH_FEED_CUSTOMERS (default 50000) customers through
// the REST bulk upsert in chunks of 1000 with the relay publishing to a nats-server of the
// benchmark's own (free port; nats-server on PATH, or NATS_SERVER) and a subscriber of the
// stream's subjects; then the change feed (GET /api/v1/changes, following its links from the
// run's first seq) is checked: seq strictly increasing without a gap, one entry created per
// customer and per address, and each entry's event arrived at NATS exactly once (Nats-Msg-Id)
// and in seq order per record. Prints the relay lag (the entry's occurredAt to the event's
// arrival) p50/p99/max, and how long after the last response the last event arrived.
//
// Every leg gets a database of its own on the PostgreSQL server of BENCH_DATABASE_URL (default
// postgresql://postgres@127.0.0.1:5432/sync_bench), named after it with the leg as a suffix
// (sync_bench_rest, sync_bench_graphql, sync_bench_single, sync_bench_import, sync_bench_feed):
// dropped and created again at the leg's start, migrated and given the demo data by the import
// command (prisma/demo/reference-data.json, not timed), and dropped at its end (BENCH_KEEP=1
// keeps it). Options: BENCH_CUSTOMERS, BENCH_CHUNK, BENCH_PARALLEL, BENCH_SEED, BENCH_PARTS
// (comma list of rest,graphql,single,import,feed; default rest,graphql,single,import),
// BENCH_FEED_CUSTOMERS. It prints the machine's load average: on a shared machine other work
// moves every figure. Linux only (/proc).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { backendTicksSince, databaseBackends } from './cpu.mjs';
import { startBuiltService } from './service.mjs';
import { freePort, startNats } from './nats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const customers = Number(process.env.BENCH_CUSTOMERS ?? 5000);
const chunk = Number(process.env.BENCH_CHUNK ?? 1000);
const parallel = Number(process.env.BENCH_PARALLEL ?? 8);
const seed = process.env.BENCH_SEED ?? '1';
const feedCustomers = Number(process.env.BENCH_FEED_CUSTOMERS ?? 50000);
const FEED_CHUNK = 1000;
const WARM_UP = 100;
const parts = new Set((process.env.BENCH_PARTS ?? 'rest,graphql,single,import').split(',').map((p) => p.trim()));
const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sync_bench';
const keep = process.env.BENCH_KEEP === '1';
const DEMO_FILE = path.join(root, 'prisma/demo/reference-data.json');
const IMPORT_CLI = path.join(root, 'dist/src/cli/import.js');
const SCOPES = 'billing.read billing.maintain billing.pii';
const TICK_MS = 10;
const stream = 'SYNC_BENCH';
const prefix = 'sync.bench';

for (const [name, v] of Object.entries({
  BENCH_CUSTOMERS: customers,
  BENCH_CHUNK: chunk,
  BENCH_PARALLEL: parallel,
  BENCH_FEED_CUSTOMERS: feedCustomers,
}))
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a whole number above 0`);
if (customers > 9_999_999 || feedCustomers > 9_999_999)
  throw new Error('at most 9,999,999 customers (their debtor numbers are 9 and 7 digits)');
for (const p of parts)
  if (!['rest', 'graphql', 'single', 'import', 'feed'].includes(p))
    throw new Error(`BENCH_PARTS: unknown part ${p} (rest,graphql,single,import,feed)`);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
};

// ---------------------------------------------------------------- the customers

/** 32-bit words from a string (sha256): the seeds of the generator and the ids below. */
const words = (s) => {
  const h = createHash('sha256').update(s).digest();
  return Array.from({ length: 8 }, (_, i) => h.readUInt32BE(i * 4));
};

/** sfc32: a small deterministic generator, one stream per seed string. */
function makeRng(s) {
  let [a, b, c, d] = words(`${s}\u0000rng`);
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 16; i++) next();
  return { float: next, int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)), pick: (xs) => xs[Math.floor(next() * xs.length)] };
}

/** A v4-shaped UUID, a function of (seed, kind, index): the import upserts by id, so the same run gets the same ids. */
const uuidOf = (kind, i) => {
  const h = createHash('sha256').update(`${seed}\u0000${kind}\u0000${i}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

const FIRST = [
  'Anna',
  'Lena',
  'Marie',
  'Jörg',
  'Sören',
  'Max',
  'Paul',
  'Zoë',
  'Łukasz',
  'José',
  'Ayşe',
  'Søren',
  'Giulia',
  'Wei',
  'Emily',
  'Noah',
];
const LAST = [
  'Müller',
  'Schmidt',
  'Schneider',
  'Weber',
  'Wagner',
  'Becker',
  'Groß',
  'Öztürk',
  'von Bülow',
  'Nowak',
  'García López',
  'Rossi',
  'Nguyễn',
  'Lefèvre',
];
const ASCII = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss', ł: 'l', ø: 'o', ş: 's', é: 'e', è: 'e', ë: 'e', ễ: 'e', ' ': '-' };
const ascii = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z-]/g, (ch) => ASCII[ch] ?? '')
    .replace(/-+/g, '-');
const STREETS = [
  'Kaiser-Joseph-Straße',
  'Habsburgerstraße',
  'Sundgauallee',
  'Vaubanallee',
  'Hauptstraße',
  'Bahnhofstraße',
  'Rosenweg',
  'Am Mühlbach',
];
const CITIES = [
  ['Freiburg im Breisgau', '79098', 'DE'],
  ['Lörrach', '79539', 'DE'],
  ['Offenburg', '77652', 'DE'],
  ['Basel', '4051', 'CH'],
  ['Strasbourg', '67000', 'FR'],
  ['Wien', '1010', 'AT'],
];
const TYPES = ['Billing', 'Home', 'Correspondence'];

/** Active accounts of a type in the demo data (customers name an active Asset and an active Liability, or none). */
function demoAccounts() {
  const { accounts } = JSON.parse(fs.readFileSync(DEMO_FILE, 'utf8'));
  const active = (type) => accounts.filter((a) => a.type === type && a.isActive).map((a) => a.id);
  const out = { receivable: active('Asset'), prepayment: active('Liability') };
  if (out.receivable.length === 0 || out.prepayment.length === 0) throw new Error(`${DEMO_FILE} has no active Asset or Liability account`);
  return out;
}

/**
 * `n` customers, each `{ id, key, body, addressIds }`: `body` in the create shape of POST
 * /customers (the debtor number is the key, addresses inline without ids), `id` and
 * `addressIds` the fixed ids of the import file.
 */
function generate(n, tag = 'customers', lead = '9') {
  const accounts = demoAccounts();
  const rng = makeRng(`${seed}\u0000${tag}`);
  const out = [];
  for (let i = 0; i < n; i++) {
    const firstName = rng.pick(FIRST);
    const lastName = rng.pick(LAST);
    // 1-3 addresses of different types, exactly one the default.
    const count = rng.int(1, 3);
    const types = [...TYPES];
    for (let j = types.length - 1; j > 0; j--) {
      const k = rng.int(0, j);
      [types[j], types[k]] = [types[k], types[j]];
    }
    types.length = count;
    const def = rng.int(0, count - 1);
    const addresses = types.map((addressType, j) => {
      const [city, postalCode, country] = rng.pick(CITIES);
      return { addressType, street: `${rng.pick(STREETS)} ${rng.int(1, 199)}`, city, postalCode, country, isDefault: j === def };
    });
    const key = `${lead}${String(i + 1).padStart(7, '0')}`;
    out.push({
      id: uuidOf(`${tag}.customer`, i),
      addressIds: addresses.map((_, j) => uuidOf(`${tag}.address`, `${i}.${j}`)),
      key,
      body: {
        firstName,
        lastName,
        matriculationId: String(2_000_000 + i),
        cmsStudentId: rng.float() < 0.9 ? `B${String(i).padStart(8, '0')}` : null,
        email: rng.float() < 0.95 ? `${ascii(firstName)}.${ascii(lastName)}${i + 1}@bench.example` : null,
        debtorNumber: key,
        creditorNumber: rng.float() < 0.04 ? `8${String(i + 1).padStart(7, '0')}` : null,
        receivableAccountId: rng.float() < 0.05 ? null : rng.pick(accounts.receivable),
        prepaymentAccountId: rng.float() < 0.05 ? null : rng.pick(accounts.prepayment),
        addresses,
      },
    });
  }
  return out;
}

const addressCount = (people) => people.reduce((sum, p) => sum + p.body.addresses.length, 0);

/** The import file of these customers (other sections empty): fixed ids, each address naming its customer. */
function writeImportFile(people, file) {
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(
      fd,
      '{ "accounts": [], "taxCodes": [], "articles": [], "articlePrices": [], "academicTerms": [], "paymentSources": [],\n"customers": [\n',
    );
    people.forEach((p, i) => {
      const record = {
        id: p.id,
        ...p.body,
        addresses: p.body.addresses.map((a, j) => ({ id: p.addressIds[j], customerId: p.id, ...a })),
      };
      fs.writeSync(fd, `${i === 0 ? '' : ',\n'}${JSON.stringify(record)}`);
    });
    fs.writeSync(fd, '\n]}\n');
  } finally {
    fs.closeSync(fd);
  }
}

const chunksOf = (xs, size) => Array.from({ length: Math.ceil(xs.length / size) }, (_, i) => xs.slice(i * size, (i + 1) * size));

// ---------------------------------------------------------------- databases

const urlOf = (name) => Object.assign(new URL(baseUrl), { pathname: `/${name}` }).toString();
const baseName = new URL(baseUrl).pathname.slice(1) || 'sync_bench';
if (!/^[a-z_][a-z0-9_]*$/.test(baseName))
  throw new Error(`BENCH_DATABASE_URL: the database name ${baseName} must be lower-case letters, digits and _`);

async function admin(sql) {
  const c = new pg.Client({ connectionString: urlOf('postgres') });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

async function query(url, sql, params = []) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows;
  } finally {
    await c.end();
  }
}

/** Runs the import command on `url`; resolves with its wall time in ms, or fails with its output. */
function runImport(url, file) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [IMPORT_CLI, file], {
      cwd: root,
      env: { PATH: process.env.PATH, NODE_ENV: 'development', DATABASE_URL: url, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('error', reject);
    child.once('exit', (code) => {
      const ms = performance.now() - t0;
      if (code === 0) resolve({ ms, output });
      else reject(new Error(`the import of ${file} exited with ${code}:\n${output}`));
    });
  });
}

/** A fresh database for one leg, migrated and holding the demo data (by the import command, untimed). */
async function freshDatabase(leg) {
  const name = `${baseName}_${leg}`;
  await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${name}"`);
  const url = urlOf(name);
  await runImport(url, DEMO_FILE);
  return {
    name,
    url,
    async drop() {
      if (!keep) await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

const changeLogSize = async (db) => Number((await query(db.url, 'SELECT count(*)::bigint AS n FROM "ChangeLog"'))[0].n);

/** Fails unless the database holds exactly these customers (by debtor number) with their number of addresses. */
async function verifyCustomers(db, people, what) {
  const [row] = await query(
    db.url,
    `SELECT (SELECT count(*) FROM "Customer" c WHERE c."debtorNumber" = ANY($1::text[]))::bigint AS customers,
            (SELECT count(*) FROM "Address" a JOIN "Customer" c ON c.id = a."customerId" WHERE c."debtorNumber" = ANY($1::text[]))::bigint AS addresses`,
    [people.map((p) => p.key)],
  );
  const [c, a] = [Number(row.customers), Number(row.addresses)];
  if (c !== people.length || a !== addressCount(people))
    throw new Error(
      `${what}: the database holds ${c} of the ${people.length} customers and ${a} of their ${addressCount(people)} addresses`,
    );
}

// ---------------------------------------------------------------- the service

async function startService(db, env = {}) {
  const port = await freePort();
  return startBuiltService({ serviceDir: root, port, name: 'sync', env: { DATABASE_URL: db.url, ...env } });
}

/** Wall time, the service's CPU and that of the database's backends around `work` (ms, ms per record). */
async function measured(service, db, records, work) {
  const cpu0 = service.cpuNs();
  const backends = databaseBackends(db.name);
  const t0 = performance.now();
  const result = await work();
  const ms = performance.now() - t0;
  return {
    ms,
    perSecond: (records * 1000) / ms,
    serviceCpu: (service.cpuNs() - cpu0) / 1e6 / records,
    postgresCpu: (backendTicksSince(db.name, backends) * TICK_MS) / records,
    result,
  };
}

const describe = (run) =>
  `${(run.ms / 1000).toFixed(2)} s, ${run.perSecond.toFixed(0)} customers/s; CPU ms per customer: service ${run.serviceCpu.toFixed(2)}, PostgreSQL ${run.postgresCpu.toFixed(2)}`;

/** Counts of a chunk's results by kind. */
const tally = (value) => {
  const t = { created: 0, updated: 0, unchanged: 0, refused: 0 };
  for (const r of value) t[r.result] = (t[r.result] ?? 0) + 1;
  return t;
};

/** One PATCH /customers delta request: every record must go through (204); anything else fails the run. */
async function restChunk(base, auth, people) {
  const r = await fetch(`${base}/api/v1/customers`, {
    method: 'PATCH',
    headers: { authorization: auth, 'content-type': 'application/json', prefer: 'return=minimal' },
    body: JSON.stringify({ '@context': '#$delta', value: people.map((p) => p.body) }),
  });
  const text = await r.text();
  if (r.status === 204) return;
  if (r.status === 200) {
    // With return=minimal a 200 means some record was refused: the answer lists those (and may count all).
    const answer = JSON.parse(text);
    const value = answer.value ?? [];
    const counts = ['created', 'updated', 'unchanged', 'refused'].every((k) => typeof answer[k] === 'number')
      ? { created: answer.created, updated: answer.updated, unchanged: answer.unchanged, refused: answer.refused }
      : tally(value);
    const failed = value.filter((x) => x.result === 'refused' || x.error);
    throw new Error(
      `PATCH /customers answered 200 with return=minimal (${JSON.stringify(counts)}); first refusals: ${JSON.stringify(failed.slice(0, 3)).slice(0, 1500)}`,
    );
  }
  throw new Error(`PATCH /customers answered ${r.status}: ${text.slice(0, 1500)}`);
}

const UPSERT_CUSTOMERS = 'mutation($input:[CustomerInput!]!){ upsertCustomers(input:$input){ created updated unchanged refused } }';

/** One upsertCustomers mutation; fails on errors or a refused record; the counts. */
async function graphqlChunk(base, auth, people) {
  const r = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: UPSERT_CUSTOMERS, variables: { input: people.map((p) => p.body) } }),
  });
  const text = await r.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`upsertCustomers answered ${r.status}: ${text.slice(0, 1500)}`);
  }
  const counts = json.data?.upsertCustomers;
  if (r.status !== 200 || json.errors || !counts) throw new Error(`upsertCustomers answered ${r.status}: ${text.slice(0, 1500)}`);
  if (counts.refused > 0 || counts.created + counts.updated + counts.unchanged !== people.length)
    throw new Error(`upsertCustomers of ${people.length} records counted ${JSON.stringify(counts)}`);
  return counts;
}

const keyPath = (key) => `/api/v1/customers(debtorNumber='${key.replace(/'/g, "''")}')`;

/** One PUT by debtor number per customer, `parallel` in flight. */
async function singlePuts(base, auth, people) {
  let next = 0;
  const statuses = {};
  const worker = async () => {
    while (next < people.length) {
      const p = people[next++];
      const r = await fetch(`${base}${keyPath(p.key)}`, {
        method: 'PUT',
        headers: { authorization: auth, 'content-type': 'application/json', prefer: 'return=minimal' },
        body: JSON.stringify(p.body),
      });
      const text = await r.text();
      if (![200, 201, 204].includes(r.status)) throw new Error(`PUT ${keyPath(p.key)} answered ${r.status}: ${text.slice(0, 1000)}`);
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, people.length) }, worker));
  return statuses;
}

// ---------------------------------------------------------------- the legs

/** One API leg: new, then unchanged, on a fresh database with the service running. */
async function apiLeg(leg, people, send) {
  const db = await freshDatabase(leg);
  try {
    const service = await startService(db);
    try {
      const auth = `Bearer ${await service.token(SCOPES)}`;
      // Warm-up, untimed: other customers (debtor numbers 7…) through the same door, new and again.
      const warm = generate(Math.min(WARM_UP, people.length), 'warm-up', '7');
      for (const kind of ['new', 'unchanged']) await send(service.base, auth, warm, `warm-up ${kind}`);
      const runs = {};
      for (const kind of ['new', 'unchanged']) {
        const entries = await changeLogSize(db);
        const run = await measured(service, db, people.length, () => send(service.base, auth, people, kind));
        await verifyCustomers(db, people, `${leg} ${kind}`);
        const gained = (await changeLogSize(db)) - entries;
        if (kind === 'unchanged' && gained !== 0) throw new Error(`${leg} unchanged: the ChangeLog gained ${gained} entries (expected 0)`);
        console.log(`  ${leg.padEnd(7)} ${kind.padEnd(9)}: ${describe(run)}; ChangeLog +${gained}${run.result ? `; ${run.result}` : ''}`);
        runs[kind] = run;
      }
      return runs;
    } finally {
      await service.stop();
    }
  } finally {
    await db.drop();
  }
}

const restLeg = (people) =>
  apiLeg('rest', people, async (base, auth, all) => {
    for (const c of chunksOf(all, chunk)) await restChunk(base, auth, c);
  });

const graphqlLeg = (people) =>
  apiLeg('graphql', people, async (base, auth, all, kind) => {
    const total = { created: 0, updated: 0, unchanged: 0, refused: 0 };
    for (const c of chunksOf(all, chunk)) for (const [k, v] of Object.entries(await graphqlChunk(base, auth, c))) total[k] += v;
    // A miscount is reported (and fails the exit status) without stopping the run: the
    // database checks after the run say what was written.
    const expected = kind.endsWith('new') ? 'created' : 'unchanged';
    if (total[expected] !== all.length) {
      console.log(`  WARNING graphql ${kind}: upsertCustomers counted ${JSON.stringify(total)}, expected ${all.length} ${expected}`);
      process.exitCode = 1;
    }
    return JSON.stringify(total);
  });

const singleLeg = (people) =>
  apiLeg('single', people, async (base, auth, all) => {
    const statuses = await singlePuts(base, auth, all);
    return `statuses ${JSON.stringify(statuses)}`;
  });

/** The import command of the same customers as a file, on a fresh database: new, then unchanged. */
async function importLeg(people) {
  const file = path.join(os.tmpdir(), `sync-bench-${process.pid}.json`);
  writeImportFile(people, file);
  const db = await freshDatabase('import');
  try {
    const runs = {};
    for (const kind of ['new', 'unchanged']) {
      const entries = await changeLogSize(db);
      const { ms, output } = await runImport(db.url, file);
      await verifyCustomers(db, people, `import ${kind}`);
      const gained = (await changeLogSize(db)) - entries;
      if (kind === 'unchanged' && gained !== 0) throw new Error(`import unchanged: the ChangeLog gained ${gained} entries (expected 0)`);
      const counts = /^\s+customers\s+(.*)$/m.exec(output)?.[1].trim().split(/\s+/).join(' / ');
      console.log(
        `  import  ${kind.padEnd(9)}: ${(ms / 1000).toFixed(2)} s, ${((people.length * 1000) / ms).toFixed(0)} customers/s (the whole command); ChangeLog +${gained}; customers inserted / updated / unchanged ${counts}`,
      );
      runs[kind] = { ms, perSecond: (people.length * 1000) / ms };
    }
    return runs;
  } finally {
    await db.drop();
    fs.rmSync(file, { force: true });
  }
}

// ---------------------------------------------------------------- feed mode

/** Waits until the relay has published every entry so far (the demo data's, before the run). */
async function caughtUp(base) {
  for (const until = Date.now() + 120_000; Date.now() < until; await sleep(100)) {
    const r = await fetch(`${base}/readyz`).then(
      (x) => x.json(),
      () => undefined,
    );
    if (r?.events?.relay === 'publishing' && r.events.lagEntries === 0) return;
  }
  throw new Error('the relay did not catch up');
}

/** Every entry of the feed after `after`, following @odata.nextLink to the delta link. */
async function readFeed(base, auth, after) {
  const entries = [];
  let url = `${base}/api/v1/changes?$skiptoken=${after}`;
  for (let pages = 0; ; pages++) {
    const r = await fetch(url, { headers: { authorization: auth } });
    if (r.status !== 200) throw new Error(`GET ${url} answered ${r.status}: ${(await r.text()).slice(0, 500)}`);
    const page = await r.json();
    entries.push(...page.value);
    if (page['@odata.nextLink']) url = new URL(page['@odata.nextLink'], base).toString();
    else if (page['@odata.deltaLink']) return { entries, pages: pages + 1 };
    else throw new Error(`a page of the feed had neither a next nor a delta link: ${JSON.stringify(page).slice(0, 300)}`);
  }
}

async function feedMode() {
  const people = generate(feedCustomers);
  const addresses = addressCount(people);
  const nats = await startNats();
  const db = await freshDatabase('feed');
  try {
    const service = await startService(db, { EVENTS_NATS_URL: nats.url, EVENTS_NATS_STREAM: stream, EVENTS_NATS_SUBJECT_PREFIX: prefix });
    const nc = await connect({ servers: nats.url });
    try {
      const auth = `Bearer ${await service.token(SCOPES)}`;
      const audit = `Bearer ${await service.token(`${SCOPES} billing.audit`)}`;
      await caughtUp(service.base);
      const startSeq = (await query(db.url, 'SELECT coalesce(max(seq), 0)::text AS s FROM "ChangeLog"'))[0].s;
      // Every event of the run as it arrives: its entry id (Nats-Msg-Id), seq, record and lag.
      const arrivals = [];
      const sub = nc.subscribe(`${prefix}.>`);
      let lastArrival = 0;
      const reading = (async () => {
        for await (const m of sub) {
          const at = Date.now();
          const e = m.json();
          const d = e.data;
          if (BigInt(d.seq) <= BigInt(startSeq)) continue;
          lastArrival = at;
          arrivals.push({
            msgId: m.headers?.get('Nats-Msg-Id') ?? '',
            id: d.id,
            seq: BigInt(d.seq),
            recordId: d.recordId,
            lag: at - Date.parse(d.occurredAt),
          });
        }
      })();
      await nc.flush();

      const t0 = performance.now();
      for (const c of chunksOf(people, FEED_CHUNK)) await restChunk(service.base, auth, c);
      const lastResponse = Date.now();
      const wall = performance.now() - t0;
      await verifyCustomers(db, people, 'feed');
      const expected = people.length + addresses;
      console.log(
        `  ${people.length} customers with ${addresses} addresses through PATCH /customers in chunks of ${FEED_CHUNK}: ${(wall / 1000).toFixed(2)} s, ${((people.length * 1000) / wall).toFixed(0)} customers/s with the relay publishing`,
      );
      // Wait for the events: until every entry arrived, or nothing more came for 30 s.
      let [seen, since] = [-1, Date.now()];
      while (arrivals.length < expected && Date.now() - since < 30_000) {
        if (arrivals.length !== seen) [seen, since] = [arrivals.length, Date.now()];
        await sleep(100);
      }
      sub.unsubscribe();
      await reading;

      const problems = [];
      // The feed: strictly increasing seq without a gap, and what the run created.
      const { entries, pages } = await readFeed(service.base, audit, startSeq);
      let gaps = 0;
      let disorder = 0;
      let previous = BigInt(startSeq);
      for (const e of entries) {
        const s = BigInt(e.seq);
        if (s <= previous) disorder++;
        else if (s !== previous + 1n) gaps++;
        previous = s;
      }
      const byResource = {};
      for (const e of entries) byResource[`${e.resource} ${e.operation}`] = (byResource[`${e.resource} ${e.operation}`] ?? 0) + 1;
      if (disorder > 0) problems.push(`${disorder} feed entries whose seq was not above the one before`);
      if (gaps > 0) problems.push(`${gaps} gaps in the feed's seq`);
      if (entries.length !== expected || byResource['customer created'] !== people.length || byResource['address created'] !== addresses)
        problems.push(
          `the feed has ${entries.length} entries ${JSON.stringify(byResource)}, expected ${people.length} customers and ${addresses} addresses created`,
        );
      console.log(
        `  feed: ${entries.length} entries after seq ${startSeq} in ${pages} pages, seq ${entries[0]?.seq}..${entries.at(-1)?.seq}: ${disorder} out of order, ${gaps} gaps; ${JSON.stringify(byResource)}`,
      );

      // NATS: each entry's event exactly once, with its id as Nats-Msg-Id, in seq order per record.
      const times = new Map();
      let wrongId = 0;
      for (const a of arrivals) {
        times.set(a.id, (times.get(a.id) ?? 0) + 1);
        if (a.msgId !== a.id) wrongId++;
      }
      const missing = entries.filter((e) => !times.has(e.id)).length;
      const repeated = [...times.values()].filter((n) => n > 1).length;
      const inFeed = new Set(entries.map((e) => e.id));
      const unknown = [...times.keys()].filter((id) => !inFeed.has(id)).length;
      const lastSeqOf = new Map();
      let outOfOrderPerRecord = 0;
      let outOfOrderOverall = 0;
      let last = 0n;
      for (const a of arrivals) {
        if ((lastSeqOf.get(a.recordId) ?? 0n) >= a.seq) outOfOrderPerRecord++;
        lastSeqOf.set(a.recordId, a.seq);
        if (a.seq <= last) outOfOrderOverall++;
        last = a.seq;
      }
      if (missing > 0) problems.push(`${missing} entries never arrived at NATS`);
      if (repeated > 0) problems.push(`${repeated} entries arrived more than once`);
      if (unknown > 0) problems.push(`${unknown} events of entries not in the feed`);
      if (wrongId > 0) problems.push(`${wrongId} events whose Nats-Msg-Id was not the entry's id`);
      if (outOfOrderPerRecord > 0) problems.push(`${outOfOrderPerRecord} events arrived before an earlier entry of their record`);
      const jsm = await jetstreamManager(nc);
      const info = await jsm.streams.info(stream);
      const total = await changeLogSize(db);
      if (info.state.messages !== total) problems.push(`the stream holds ${info.state.messages} messages, the ChangeLog ${total} entries`);
      const lags = arrivals.map((a) => a.lag);
      console.log(
        `  NATS: ${arrivals.length} events arrived (${missing} missing, ${repeated} repeated, ${outOfOrderPerRecord} out of order per record, ${outOfOrderOverall} overall); the stream holds ${info.state.messages} messages, the ChangeLog ${total} entries`,
      );
      console.log(
        `  relay lag (entry's occurredAt to arrival at the subscriber): p50 ${quantile(lags, 0.5)} ms, p99 ${quantile(lags, 0.99)} ms, max ${lags.reduce((m, x) => Math.max(m, x), 0)} ms; the last event arrived ${((lastArrival - lastResponse) / 1000).toFixed(2)} s after the last response`,
      );
      if (problems.length > 0) throw new Error(`feed: ${problems.join('; ')}`);
      console.log('  feed: gap-free and in order, every entry arrived once');
    } finally {
      await nc.close();
      await service.stop();
    }
  } finally {
    await db.drop();
    await nats.stop();
  }
}

// ---------------------------------------------------------------- main

async function main() {
  console.log(
    `node ${process.version}; PostgreSQL ${new URL(baseUrl).host}, databases ${baseName}_<leg>; parts ${[...parts].join(',')}; load average ${loadAverage()} on ${os.availableParallelism()} cores`,
  );
  const legs = ['rest', 'graphql', 'single', 'import'].filter((p) => parts.has(p));
  const results = {};
  if (legs.length > 0) {
    const people = generate(customers);
    console.log(
      `${customers} customers with ${addressCount(people)} addresses (seed "${seed}"), bulk chunks of ${chunk}, ${parallel} single PUTs in flight`,
    );
    const run = { rest: restLeg, graphql: graphqlLeg, single: singleLeg, import: importLeg };
    for (const leg of legs) results[leg] = await run[leg](people);
    if (results.single)
      console.log(
        `single PUTs: unchanged/new per-record time ${(results.single.new.perSecond / results.single.unchanged.perSecond).toFixed(2)}`,
      );
    console.table(
      legs.map((leg) => ({
        path: leg,
        'new rec/s': Math.round(results[leg].new.perSecond),
        'unchanged rec/s': Math.round(results[leg].unchanged.perSecond),
        'wall s new': Number((results[leg].new.ms / 1000).toFixed(2)),
        'wall s unchanged': Number((results[leg].unchanged.ms / 1000).toFixed(2)),
      })),
    );
    if (results.import) {
      const vs = (leg) =>
        `${(results[leg].new.ms / results.import.new.ms).toFixed(1)}× / ${(results[leg].unchanged.ms / results.import.unchanged.ms).toFixed(1)}×`;
      const bulk = ['rest', 'graphql'].filter((l) => results[l]);
      if (bulk.length > 0)
        console.log(
          `bulk vs import (wall time of the bulk requests ÷ the import command's, new / unchanged): ${bulk.map((l) => `${l === 'rest' ? 'REST' : 'GraphQL'} ${vs(l)}`).join(', ')}`,
        );
    }
  }
  if (parts.has('feed')) {
    console.log(`feed: ${feedCustomers} customers (seed "${seed}") through the REST bulk upsert, the relay publishing to NATS`);
    await feedMode();
  }
  console.log(`load average at the end: ${loadAverage()}`);
}

await main();
