#!/usr/bin/env node
// npm run bench:apq — an automatic persisted query (APQ) sent as GET with its hash only,
// against the same operation sent whole (GET with the text, and POST with the text).
//
// Runs the built service (dist/) of SERVICE_DIR (default: this repository) on an embedded
// database with the demo dataset in a temporary folder, port BENCH_PORT (default 4642), rate
// limit off. For each form: the answer is checked once, autocannon warms up for 2 s, then
// runs CONNECTIONS (default 10) connections for SECONDS (default 10) seconds; printed are
// requests/s, p50/p99 latency, the service's CPU per request (all its threads, from
// /proc/<pid>/task/*/schedstat) and the bytes sent per request. Linux only (schedstat).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import autocannon from 'autocannon';
import { serviceDir, startBuiltService } from './service.mjs';

const port = Number(process.env.BENCH_PORT ?? 4642);
const seconds = Number(process.env.SECONDS ?? 10);
const connections = Number(process.env.CONNECTIONS ?? 10);

// An operation as an app writes it: a page of payment sources with their accounts, a
// fragment, variables. Apollo Client sends the same shape (with __typename).
const QUERY = `query PaymentSourcePage($first: Int, $where: PaymentSourceWhere) {
  paymentSources(first: $first, where: $where, orderBy: { code: ASC }) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes {
      ...SourceFields
      account { id code name type isActive __typename }
      __typename
    }
    __typename
  }
}
fragment SourceFields on PaymentSource {
  id code name description sourceType isActive isDefault createdAt createdById updatedAt updatedById
}`;
const variables = JSON.stringify({ first: 10, where: { isActive: { eq: true } } });
const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(QUERY).digest('hex') } });
const search = (params) => new URLSearchParams(params).toString();

const service = await startBuiltService({ serviceDir, port, name: 'apq', env: { REDIS_URL: '' } });
const base = service.base;

try {
  const auth = { authorization: `Bearer ${await service.token('billing.read')}` };

  // Register the operation once (hash and text), as a client's first request after a miss does.
  const registered = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ query: QUERY, variables: JSON.parse(variables), extensions: JSON.parse(extensions) }),
  });
  if (!registered.ok) throw new Error(`registration: HTTP ${registered.status} ${await registered.text()}`);

  const forms = [
    {
      name: 'APQ GET (hash only)',
      method: 'GET',
      path: `/graphql?${search({ operationName: 'PaymentSourcePage', variables, extensions })}`,
      headers: auth,
    },
    {
      name: 'GET with the text',
      method: 'GET',
      path: `/graphql?${search({ operationName: 'PaymentSourcePage', query: QUERY, variables })}`,
      headers: auth,
    },
    {
      name: 'POST with the text',
      method: 'POST',
      path: '/graphql',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ operationName: 'PaymentSourcePage', query: QUERY, variables: JSON.parse(variables) }),
    },
  ];
  let expected;
  const rows = [];
  for (const f of forms) {
    const check = await fetch(`${base}${f.path}`, { method: f.method, headers: f.headers, body: f.body });
    const text = await check.text();
    if (!check.ok || text.includes('"errors"')) throw new Error(`${f.name}: HTTP ${check.status} ${text.slice(0, 300)}`);
    expected ??= text;
    if (text !== expected) throw new Error(`${f.name}: another answer than the first form's`);
    const options = { url: `${base}${f.path}`, method: f.method, headers: f.headers, body: f.body, connections };
    await autocannon({ ...options, duration: Math.min(2, seconds) }); // warm-up
    const before = service.cpuNs();
    const r = await autocannon({ ...options, duration: seconds });
    const n = Math.max(1, r.requests.total);
    rows.push({
      form: f.name,
      'req/s': Math.round(r.requests.average),
      'p50 ms': r.latency.p50,
      'p99 ms': r.latency.p99,
      'service CPU ms/req': Number(((service.cpuNs() - before) / 1e6 / n).toFixed(3)),
      'request bytes': f.path.length + (f.body?.length ?? 0),
      non2xx: r.non2xx,
    });
  }
  console.log(
    `service: ${serviceDir}; node ${process.version}; ${connections} connections, ${seconds} s per form; load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  );
  console.table(rows);
} finally {
  await service.stop();
}
