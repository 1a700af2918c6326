#!/usr/bin/env node
// npm run bench:writes — what the change log and its relay cost writes, on PostgreSQL.
//
// 1. Payment-source updates (PATCH, a new description each time, spread over the demo
//    data's payment sources) per second and their p99 latency, with the change log and with
//    it switched off in the same build (test/bench/write-server.mjs off: a switch of this
//    benchmark only). The rounds alternate, off and on, BENCH_ROUNDS times each; the ratio
//    compares the medians, and each on-round with the off-round before it (their median is
//    steadier on a machine whose speed drifts; the host's stolen CPU is printed). The relay
//    to NATS runs in both (it has nothing to do without the log).
// 2. Relay lag at BENCH_RATE writes/s (default 200) for BENCH_SECONDS: from each write's
//    transaction time (the entry's occurredAt, taken just before the commit) to the event's
//    arrival at a NATS subscriber of the stream's subjects (it arrives as JetStream stores
//    it), p50 and p99.
// 3. A campus management system's sync: 100 customers put by debtor number
//    (`PUT /customers(debtorNumber='…')`), first one request each, then as one OData JSON
//    $batch whose 100 requests are one atomicity group (one transaction); both create and then
//    replace (every customer's e-mail changed), BENCH_ROUNDS times; per-record wall time and
//    server CPU (from /proc), medians.
// 4. The relay's own CPU (BENCH_PARTS=relay, not in the default): the service gets no requests
//    while a client of the database commits entries at BENCH_RATE/s for BENCH_SECONDS, each
//    in a transaction of its own as writes do; the service's CPU per entry with its relay
//    publishing, against the same service without a broker (idle), BENCH_ROUNDS times each.
// A nats-server of its own runs on a free port (nats-server on PATH, or NATS_SERVER).
// BENCH_DATABASE_URL names the database (default postgresql://postgres@127.0.0.1:5432/bench_writes;
// created when missing, the demo data loaded when empty). Other options: BENCH_SECONDS
// (default 10), BENCH_CONNECTIONS (default 8), BENCH_ROUNDS (default 3), BENCH_SOURCES (default 100).
// It prints the machine's load average: on a shared machine other work moves every figure.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '@nats-io/transport-node';
import autocannon from 'autocannon';
import pg from 'pg';
import { SignJWT } from 'jose';
import { cpuTicks, machineTicks, processTicks } from './cpu.mjs';
import { freePort, startNats } from './nats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const rate = Number(process.env.BENCH_RATE ?? 200);
// BENCH_PARTS: which to run (default the first three), e.g. `sync`, `throughput,lag` or `relay`.
const parts = new Set((process.env.BENCH_PARTS ?? 'throughput,lag,sync').split(','));
const dbUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/bench_writes';
const secret = 'bench-secret-bench-secret-bench-secret-0123';
const stream = 'BENCH_WRITES';
const prefix = 'bench.writes';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function ensureDatabase() {
  const name = new URL(dbUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(dbUrl), { pathname: '/postgres' }).toString() });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount > 0;
  if (!exists) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
  await admin.end();
}

async function startServer(mode, natsUrl) {
  const child = spawn(process.execPath, [path.join(root, 'test/bench/write-server.mjs'), mode], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      DATABASE_URL: dbUrl,
      JWT_SECRET: secret,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      // Without a broker the service has no relay (part 4's idle service).
      ...(natsUrl === undefined ? {} : { EVENTS_NATS_URL: natsUrl }),
      EVENTS_NATS_STREAM: stream,
      EVENTS_NATS_SUBJECT_PREFIX: prefix,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /\{"port":(\d+)\}/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the bench server exited (${code})`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    },
  };
}

/** BENCH_SOURCES payment sources (created once, like the demo data's first): writes spread over them wait less on each other's row locks. */
async function paymentSourceIds(base, auth) {
  const want = Number(process.env.BENCH_SOURCES ?? 100);
  const list = async () =>
    (await (await fetch(`${base}/api/v1/payment-sources?$top=1000`, { headers: { authorization: auth } })).json()).value;
  let sources = await list();
  const model = sources[0];
  for (let n = sources.length; n < want; n++) {
    const r = await fetch(`${base}/api/v1/payment-sources`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        code: `BENCH-${n}`,
        name: `Bench ${n}`,
        accountId: model.accountId,
        sourceType: 'Other',
        isActive: true,
        isDefault: false,
      }),
    });
    if (r.status !== 201) throw new Error(`creating a payment source answered ${r.status}: ${await r.text()}`);
  }
  if (sources.length < want) sources = await list();
  return sources.map((p) => p.id);
}

/** Waits until the relay has published everything (a backlog would load one round and not the other). */
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

let counter = 0;
async function throughput(server, nats, auth, ids) {
  const base = server.base;
  await caughtUp(base);
  const options = (duration) => ({
    url: base,
    connections,
    duration,
    requests: [
      {
        method: 'PATCH',
        headers: { authorization: auth, 'content-type': 'application/json' },
        setupRequest: (req) => {
          const n = counter++;
          return { ...req, path: `/api/v1/payment-sources/${ids[n % ids.length]}`, body: JSON.stringify({ description: `bench ${n}` }) };
        },
      },
    ],
  });
  await autocannon(options(2)); // warm-up
  // Where a write's CPU goes (ticks of 10 ms from /proc): the service, PostgreSQL (all its
  // processes), the benchmark's own NATS server.
  const ticks = () => [cpuTicks(server.pid), processTicks('postgres'), cpuTicks(nats.pid)];
  const t0 = ticks();
  const r = await autocannon(options(seconds));
  const t1 = ticks();
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${r.non2xx} answers were not 2xx, ${r.errors} errors`);
  const [service, postgres, broker] = t1.map((t, i) => ((t - t0[i]) * 10) / Math.max(1, r['2xx']));
  return { perSecond: r['2xx'] / seconds, p99: r.latency.p99, cpu: { service, postgres, broker } };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};

async function relayLag(base, auth, ids, natsUrl) {
  const nc = await connect({ servers: natsUrl });
  const arrivals = new Map();
  const sub = nc.subscribe(`${prefix}.>`);
  void (async () => {
    for await (const m of sub) {
      const at = Date.now();
      const e = m.json();
      const value = e.data?.changes?.description?.new;
      if (typeof value === 'string' && value.startsWith('lag ')) arrivals.set(value, at - Date.parse(e.data.occurredAt));
    }
  })();
  await nc.flush();
  const total = rate * seconds;
  const sent = [];
  const refused = [];
  const started = Date.now();
  for (let n = 0; n < total; n++) {
    // Open loop: the n-th write leaves at n/rate seconds, whatever the earlier ones do.
    const due = started + (n * 1000) / rate;
    if (due > Date.now()) await sleep(due - Date.now());
    const value = `lag ${n}`;
    sent.push(
      fetch(`${base}/api/v1/payment-sources/${ids[n % ids.length]}`, {
        method: 'PATCH',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ description: value }),
      }).then(
        (r) => {
          // An overloaded service answers 503 (retry later); anything else is a fault.
          if (r.status === 503) refused.push(value);
          else if (r.status !== 200) throw new Error(`a write answered ${r.status}`);
        },
        // Not even connected in time (an overloaded machine): not written either.
        () => refused.push(value),
      ),
    );
  }
  // The rate the writes left at (the open loop keeps it unless its own event loop falls behind),
  // and the rate they were answered at (lower when the service queues them).
  const achieved = total / ((Date.now() - started) / 1000);
  await Promise.all(sent);
  const answered = total / ((Date.now() - started) / 1000);
  const accepted = total - refused.length;
  const until = Date.now() + 60_000;
  while (arrivals.size < accepted && Date.now() < until) await sleep(50);
  await nc.close();
  const lags = [...arrivals.values()];
  return {
    writes: total,
    accepted,
    achieved,
    answered,
    arrived: lags.length,
    p50: quantile(lags, 0.5),
    p99: quantile(lags, 0.99),
    max: Math.max(...lags),
  };
}

/** The server's CPU time so far in ms. */
const cpuMs = (pid) => cpuTicks(pid) * 10;

const SYNC_SIZE = 100;
let syncRun = 0;

/** 100 students as a campus management system sends them, under fresh debtor numbers (`tag` changes their e-mail). */
function students(run, tag) {
  return Array.from({ length: SYNC_SIZE }, (_, i) => ({
    key: `9${String(process.pid % 1000).padStart(3, '0')}${String(run).padStart(3, '0')}${String(i).padStart(3, '0')}`,
    body: {
      firstName: `Student ${i}`,
      lastName: 'Bench',
      email: `student${i}.${tag}@bench.example`,
      addresses: [
        { addressType: 'Billing', street: `Benchweg ${i}`, city: 'Freiburg', postalCode: '79098', country: 'DE', isDefault: true },
      ],
    },
  }));
}

/** One PUT per customer, one after another: ms of wall and server CPU per record. */
async function singlePuts(server, auth, people) {
  const [t0, c0] = [performance.now(), cpuMs(server.pid)];
  for (const p of people) {
    const r = await fetch(`${server.base}/api/v1/customers(debtorNumber='${p.key}')`, {
      method: 'PUT',
      headers: { authorization: auth, 'content-type': 'application/json', prefer: 'return=minimal' },
      body: JSON.stringify(p.body),
    });
    if (r.status >= 300) throw new Error(`a PUT answered ${r.status}: ${await r.text()}`);
  }
  return { wall: (performance.now() - t0) / people.length, cpu: (cpuMs(server.pid) - c0) / people.length };
}

/** The same as one JSON $batch, one atomicity group: ms of wall and server CPU per record. */
async function batchPuts(server, auth, people) {
  const requests = people.map((p, i) => ({
    id: String(i + 1),
    atomicityGroup: 'sync',
    method: 'PUT',
    url: `customers(debtorNumber='${p.key}')`,
    headers: { 'content-type': 'application/json', prefer: 'return=minimal' },
    body: p.body,
  }));
  const [t0, c0] = [performance.now(), cpuMs(server.pid)];
  const r = await fetch(`${server.base}/api/v1/$batch`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ requests }),
  });
  const answer = await r.json();
  const wall = (performance.now() - t0) / people.length;
  const failed = (answer.responses ?? []).filter((x) => x.status >= 300);
  if (r.status !== 200 || failed.length > 0)
    throw new Error(`the batch answered ${r.status}: ${JSON.stringify(failed[0] ?? answer).slice(0, 300)}`);
  return { wall, cpu: (cpuMs(server.pid) - c0) / people.length };
}

async function syncCost(server, auth) {
  const out = { single: { create: [], replace: [] }, batch: { create: [], replace: [] } };
  for (let i = 0; i < rounds; i++)
    for (const [way, put] of [
      ['single', singlePuts],
      ['batch', batchPuts],
    ]) {
      const run = ++syncRun;
      out[way].create.push(await put(server, auth, students(run, 'a')));
      out[way].replace.push(await put(server, auth, students(run, 'b')));
    }
  const fmt = (xs) => `${median(xs.map((x) => x.wall)).toFixed(2)} ms wall, ${median(xs.map((x) => x.cpu)).toFixed(2)} ms server CPU`;
  for (const op of ['create', 'replace'])
    console.log(
      `${SYNC_SIZE} customer upserts by debtor number (${op}), per record (median of ${rounds}): single PUTs ${fmt(out.single[op])}; one $batch ${fmt(out.batch[op])}`,
    );
}

/** The number of entries in the change log. */
async function logSize() {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    return Number((await c.query('SELECT count(*) AS n FROM "ChangeLog"')).rows[0].n);
  } finally {
    await c.end();
  }
}

/** 1: payment-source updates with the change log and without, alternating. */
async function throughputWithAndWithout(nats, auth) {
  const results = { off: [], on: [] };
  const machine0 = machineTicks();
  for (let i = 0; i < rounds; i++) {
    for (const mode of ['off', 'on']) {
      const server = await startServer(mode, nats.url);
      try {
        const ids = await paymentSourceIds(server.base, auth);
        const entries = await logSize();
        const r = await throughput(server, nats, auth, ids);
        if (mode === 'off' && (await logSize()) !== entries) throw new Error('a round without the change log appended entries');
        results[mode].push(r);
        const cpu = Object.entries(r.cpu).map(([k, v]) => `${k} ${v.toFixed(2)}`);
        console.log(
          `  change log ${mode.padEnd(3)}: ${r.perSecond.toFixed(0)} updates/s, p99 ${r.p99} ms, CPU ms per update: ${cpu.join(', ')}`,
        );
      } finally {
        await server.stop();
      }
    }
  }
  const machine1 = machineTicks();
  const off = median(results.off.map((r) => r.perSecond));
  const on = median(results.on.map((r) => r.perSecond));
  console.log(
    `payment-source updates/s (median): ${on.toFixed(0)} with the change log, ${off.toFixed(0)} without; ratio ${(on / off).toFixed(2)}`,
  );
  // Each round with the log beside the round without it just before: the machine's speed
  // drifts over minutes (the host's other guests), and a pair shares most of that drift.
  const paired = results.on.map((r, i) => r.perSecond / results.off[i].perSecond);
  console.log(
    `ratio per pair of rounds: median ${median(paired).toFixed(2)} (${paired.map((x) => x.toFixed(2)).join(', ')}); CPU stolen by the host during the rounds: ${((100 * (machine1.steal - machine0.steal)) / Math.max(1, machine1.total - machine0.total)).toFixed(1)} %`,
  );
  console.log(`p99 latency (median): ${median(results.on.map((r) => r.p99))} ms with, ${median(results.off.map((r) => r.p99))} ms without`);
  const cpu = (mode) =>
    ['service', 'postgres', 'broker'].map((k) => `${k} ${median(results[mode].map((r) => r.cpu[k])).toFixed(2)}`).join(', ');
  console.log(`CPU ms per update (median): with ${cpu('on')}; without ${cpu('off')}`);
  if (on / off < 0.8) process.exitCode = 1;
}

/** 2: the relay's lag at BENCH_RATE writes/s. */
async function lagAt(server, auth, natsUrl) {
  const ids = await paymentSourceIds(server.base, auth);
  await caughtUp(server.base);
  const lag = await relayLag(server.base, auth, ids, natsUrl);
  console.log(
    `relay lag at ${rate} writes/s (sent at ${lag.achieved.toFixed(0)}/s, answered at ${lag.answered.toFixed(0)}/s; ${lag.accepted} of ${lag.writes} accepted, the rest 503; ${lag.arrived} events arrived): p50 ${lag.p50} ms, p99 ${lag.p99} ms, max ${lag.max} ms (write's transaction time to arrival at a NATS subscriber)`,
  );
  if (lag.arrived < lag.accepted) process.exitCode = 1;
}

// Part 4's entries go in with the service's own append statement (from the build).
const { APPEND } = createRequire(import.meta.url)('../../dist/src/domain/change-log/append.js');
/** The benchmark's user: its token's subject, and the writer part 4's entries name. */
const BENCH_USER = '33333333-3333-4333-8333-333333333333';
const ENTRY_CHANGES = {
  description: { old: 'before', new: 'after' },
  updatedAt: { old: '2026-11-26T09:15:02.311Z', new: '2026-11-26T09:15:03.311Z' },
  updatedById: { old: null, new: BENCH_USER },
};
/** One payment-source update's entry, as a write appends it (in a transaction of its own). */
const appendEntry = (pool) =>
  pool.query(APPEND, [
    JSON.stringify([{ resource: 'payment-source', recordId: randomUUID(), operation: 'updated', changes: ENTRY_CHANGES }]),
    BENCH_USER,
    new Date().toISOString(),
    'bench-relay',
    null,
  ]);

/** Commits BENCH_RATE entries a second for BENCH_SECONDS (an open loop over 4 connections); the server's CPU ms per entry meanwhile. */
async function serverCpuPerEntry(server) {
  const pool = new pg.Pool({ connectionString: dbUrl, max: 4 });
  try {
    const total = Math.round(rate * seconds);
    const c0 = cpuMs(server.pid);
    const started = performance.now();
    const sent = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate - performance.now();
      if (due > 0) await sleep(due);
      sent.push(appendEntry(pool));
    }
    await Promise.all(sent);
    // What the last entries cost the relay, too.
    await sleep(200);
    return (cpuMs(server.pid) - c0) / total;
  } finally {
    await pool.end();
  }
}

/** 4: the relay's CPU per entry, the service otherwise idle. */
async function relayCost(natsUrl) {
  const runs = { relay: [], idle: [] };
  for (let r = 0; r < rounds; r++) {
    for (const mode of ['idle', 'relay']) {
      const server = await startServer('on', mode === 'relay' ? natsUrl : undefined);
      try {
        if (mode === 'relay') await caughtUp(server.base);
        const ms = await serverCpuPerEntry(server);
        runs[mode].push(ms);
        console.log(`  ${mode === 'relay' ? 'relay publishing' : 'no broker      '}: service CPU ${ms.toFixed(3)} ms per entry committed`);
      } finally {
        await server.stop();
      }
    }
  }
  const [relay, idle] = [median(runs.relay), median(runs.idle)];
  console.log(
    `the relay's CPU at ${rate} entries/s (medians): ${relay.toFixed(3)} ms per entry with the relay publishing, ${idle.toFixed(3)} without a broker; the relay's own ${(relay - idle).toFixed(3)} ms per entry`,
  );
}

async function main() {
  await ensureDatabase();
  const nats = await startNats();
  const auth = `Bearer ${await new SignJWT({ scope: 'billing.read billing.write billing.maintain billing.pii' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(BENCH_USER)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret))}`;
  try {
    console.log(
      `node ${process.version}, ${connections} connections, ${seconds} s per round, ${rounds} rounds per build, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${os.availableParallelism()} cores`,
    );
    if (parts.has('throughput')) await throughputWithAndWithout(nats, auth);
    if (parts.has('relay')) await relayCost(nats.url);
    if (parts.has('lag') || parts.has('sync')) {
      const server = await startServer('on', nats.url);
      try {
        if (parts.has('lag')) await lagAt(server, auth, nats.url);
        if (parts.has('sync')) await syncCost(server, auth);
      } finally {
        await server.stop();
      }
    }
    console.log(
      `load average at the end: ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await nats.stop();
  }
}

await main();
