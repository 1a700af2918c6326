#!/usr/bin/env node
// npm run bench:entities — federation's `_entities` for 100 customers with their addresses (the
// fetch a router sends this service for a page of invoices) against the same 100 read with
// `customers(where: { id: { in: [...] } })`, ours against ours (side-by-side.sh compares ours
// with PostGraphile, which has no `_entities`).
//
// Runs the built service (dist/) of SERVICE_DIR (default: this repository) on BENCH_DATABASE_URL
// (e.g. postgresql://postgres@127.0.0.1:5432/bench_100000; required: the demo dataset has fewer
// than 100 customers), port BENCH_PORT (default 4643), rate limit off. The 100 ids are the first
// page of customers by lastName, id. Both shapes are checked to answer the same records, then
// alternate ROUNDS times (default 3): autocannon warms up 2 s, then runs CONNECTIONS (default
// 10) connections for SECONDS (default 10) seconds. Printed per shape and round: requests/s,
// p99, the service's CPU per request (all its threads, /proc schedstat) and PostgreSQL's (the
// backends of that database, /proc). Linux only.
import fs from 'node:fs';
import autocannon from 'autocannon';
import { backendTicksSince, databaseBackends } from './cpu.mjs';
import { serviceDir, startBuiltService } from './service.mjs';

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL: a PostgreSQL database with at least 100 customers (bench_100000)');
const database = new URL(url).pathname.slice(1);
const port = Number(process.env.BENCH_PORT ?? 4643);
const seconds = Number(process.env.SECONDS ?? 10);
const connections = Number(process.env.CONNECTIONS ?? 10);
const rounds = Number(process.env.ROUNDS ?? 3);
const TICK_MS = 10;

const FIELDS = 'id firstName lastName email debtorNumber addresses { id addressType street city postalCode country isDefault }';
const SHAPES = {
  _entities: (ids) => ({
    query: `query Entities($r: [_Any!]!) { _entities(representations: $r) { ... on Customer { ${FIELDS} } } }`,
    variables: { r: ids.map((id) => ({ __typename: 'Customer', id })) },
    records: (json) => json.data._entities,
  }),
  'customers(where: id in)': (ids) => ({
    query: `query ByIds($ids: [UUID!]!) { customers(first: 100, where: { id: { in: $ids } }) { nodes { ${FIELDS} } } }`,
    variables: { ids },
    records: (json) => json.data.customers.nodes,
  }),
};

const service = await startBuiltService({ serviceDir, port, name: 'entities', env: { DATABASE_URL: url } });
try {
  const headers = { authorization: `Bearer ${await service.token('billing.read billing.pii')}`, 'content-type': 'application/json' };
  const post = async (body) => {
    const res = await fetch(`${service.base}/graphql`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = await res.json();
    if (!res.ok || json.errors) throw new Error(`HTTP ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
  const page = await post({ query: '{ customers(first: 100, orderBy: [{ lastName: ASC }]) { nodes { id } } }' });
  const ids = page.data.customers.nodes.map((c) => c.id);
  if (ids.length !== 100) throw new Error(`the database has ${ids.length} customers, not 100`);
  const bodies = Object.entries(SHAPES).map(([name, shape]) => ({ name, ...shape(ids) }));
  // The same records (the list in its own order: compared by id).
  const answers = await Promise.all(bodies.map(async (b) => b.records(await post({ query: b.query, variables: b.variables }))));
  const byId = (records) => JSON.stringify([...records].sort((a, b) => (a.id < b.id ? -1 : 1)));
  if (answers[0].length !== 100 || byId(answers[0]) !== byId(answers[1])) throw new Error('the two shapes answer different records');

  const rows = [];
  for (let round = 1; round <= rounds; round++)
    for (const b of bodies) {
      const options = {
        url: `${service.base}/graphql`,
        method: 'POST',
        headers,
        body: JSON.stringify({ query: b.query, variables: b.variables }),
        connections,
      };
      await autocannon({ ...options, duration: Math.min(2, seconds) });
      const cpu = service.cpuNs();
      const pg = databaseBackends(database);
      const r = await autocannon({ ...options, duration: seconds });
      const n = Math.max(1, r.requests.total);
      rows.push({
        shape: b.name,
        round,
        'req/s': Math.round(r.requests.average),
        'p99 ms': r.latency.p99,
        'service CPU ms/req': Number(((service.cpuNs() - cpu) / 1e6 / n).toFixed(3)),
        'PostgreSQL CPU ms/req': Number(((backendTicksSince(database, pg) * TICK_MS) / n).toFixed(3)),
        non2xx: r.non2xx,
      });
    }
  console.log(
    `service: ${serviceDir}; database ${database}; node ${process.version}; ${connections} connections, ${seconds} s per run; load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  );
  console.table(rows);
} finally {
  await service.stop();
}
