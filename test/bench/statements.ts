// npm run bench:statements — what each request of the side-by-side workloads (test/bench/workloads)
// and of REST lists costs PostgreSQL, statement by statement: the statements the read path sends
// for the request (captured with their values through the RowReader's onQuery), each prepared
// and executed as the service's pool does (named statements: after five executions PostgreSQL
// may keep a generic plan), then EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) run RUNS times (BENCH_RUNS,
// default 7): the medians of the execution and planning times and of the buffers printed, with
// the plan of one more run with per-node timing. Costs of statements,
// not throughput: they hold on a busy machine where requests per second do not.
//
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/bench_100000 npm run bench:statements [-- workload-or-rest-name ...]
//
// The database is the one npm run bench fills (test/bench/run.mjs); pending migrations are applied
// to it first, as the service does at start, and nothing else is written.

import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { openDatabase } from '../../src/db/database';
import { inProcessApp } from './in-process-app';
import type { Statement } from '../../src/db/read/sql';

const dbUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/bench_100000';
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const workloadsDir = path.resolve(__dirname, 'workloads');

/** The REST lists measured beside the GraphQL workloads (test/bench/run.mjs has the same ones). */
const REST: Readonly<Record<string, string>> = {
  'rest-b2-prefix-count': "/api/v1/customers?$filter=startswith(lastName,'M')&$orderby=lastName,id&$top=100&$count=true",
  'rest-b-prefix-count': "/api/v1/customers?$filter=startswith(lastName,'M')&$top=100&$count=true",
  'rest-deep-offset-debtor-number': '/api/v1/customers?$orderby=debtorNumber&$top=100&$skip=60000',
};

interface Workload {
  readonly name: string;
  readonly ours: {
    readonly query: string | readonly string[];
    readonly variables?: Record<string, unknown>;
    readonly operationName?: string;
  };
}

interface Explained {
  readonly execution: number;
  /** The fastest run: on a busy machine, the closest to the statement's own cost. */
  readonly fastest?: number;
  readonly planning: number;
  readonly hit: number;
  readonly read: number;
  readonly plan: string;
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A scalar as text: the read path's values are strings, numbers and booleans (and lists of them). */
const scalar = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);

/** A captured value as an SQL literal for EXECUTE (the bench's own values, read back from the service's statements). */
function literal(c: pg.Client, v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return c.escapeLiteral(`{${v.map((x) => `"${scalar(x).replace(/["\\]/g, '\\$&')}"`).join(',')}}`);
  return c.escapeLiteral(scalar(v));
}

/** One line per plan node: its type, relation, index, rows and time (EXPLAIN's JSON, flattened). */
function outline(node: Record<string, unknown>, depth = 0): string {
  const at = (k: string): string => (node[k] === undefined ? '' : scalar(node[k]));
  const what = [at('Node Type'), at('Relation Name'), node['Index Name'] ? `using ${at('Index Name')}` : ''].filter(Boolean).join(' ');
  const extra = [
    node['Sort Key'] ? ` sort=${at('Sort Key')}` : '',
    node['Presorted Key'] ? ` presorted=${at('Presorted Key')}` : '',
    node['Heap Fetches'] !== undefined ? ` heapFetches=${at('Heap Fetches')}` : '',
  ].join('');
  const line = `${'  '.repeat(depth)}${what} rows=${at('Actual Rows')} loops=${at('Actual Loops')} time=${at('Actual Total Time')} hit=${at('Shared Hit Blocks')}${extra}`;
  const children = (node.Plans as Record<string, unknown>[] | undefined) ?? [];
  return [line, ...children.map((p) => outline(p, depth + 1))].join('\n');
}

/** The statement prepared, executed as the pool would, then explained RUNS times. */
async function explain(c: pg.Client, s: Statement, n: number): Promise<Explained> {
  const name = `bench_s${n}`;
  await c.query(`PREPARE ${name} AS ${s.text}`);
  const execute = `EXECUTE ${name}(${s.values.map((v) => literal(c, v)).join(', ')})`;
  try {
    // Past the five custom plans after which the plan cache may settle on the generic one.
    for (let i = 0; i < 6; i++) await c.query(execute);
    const run = async (timing: boolean): Promise<Explained> => {
      const r = await c.query<{ 'QUERY PLAN': Array<Record<string, unknown>> }>(
        `EXPLAIN (ANALYZE, BUFFERS, TIMING ${timing ? 'ON' : 'OFF'}, FORMAT JSON) ${execute}`,
      );
      const top = r.rows[0]!['QUERY PLAN'][0]!;
      const plan = top.Plan as Record<string, unknown>;
      return {
        execution: Number(top['Execution Time']),
        planning: Number(top['Planning Time'] ?? 0),
        hit: Number(plan['Shared Hit Blocks'] ?? 0),
        read: Number(plan['Shared Read Blocks'] ?? 0),
        plan: outline(plan),
      };
    };
    // The times without per-node timing (its clock reads cost more than the work of a cheap
    // node); the outline's node times from one run with it.
    const runs: Explained[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await run(false));
    const timed = await run(true);
    return {
      execution: median(runs.map((r) => r.execution)),
      fastest: Math.min(...runs.map((r) => r.execution)),
      planning: median(runs.map((r) => r.planning)),
      hit: median(runs.map((r) => r.hit)),
      read: median(runs.map((r) => r.read)),
      plan: timed.plan,
    };
  } finally {
    await c.query(`DEALLOCATE ${name}`);
  }
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const sent: Statement[] = [];
  const db = await openDatabase({ url: dbUrl, onQuery: (text, values) => void (values && sent.push({ text, values })) });
  const { app, auth } = await inProcessApp(db);
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  const workloads = fs
    .readdirSync(workloadsDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(workloadsDir, f), 'utf8')) as Workload);
  const requests: Array<{ name: string; send: () => request.Test }> = [
    ...workloads.map((w) => ({
      name: w.name,
      send: () =>
        request(app.express)
          .post('/graphql')
          .set(auth)
          .send({
            query: Array.isArray(w.ours.query) ? w.ours.query.join('\n') : w.ours.query,
            variables: w.ours.variables,
            operationName: w.ours.operationName,
          }),
    })),
    ...Object.entries(REST).map(([name, url]) => ({ name, send: () => request(app.express).get(url).set(auth) })),
  ];
  let n = 0;
  let total = 0;
  for (const r of requests.filter((x) => only.length === 0 || only.includes(x.name))) {
    sent.length = 0;
    const res = await r.send();
    if (res.status !== 200 || res.body.errors) throw new Error(`${r.name}: HTTP ${res.status} ${res.text.slice(0, 500)}`);
    const statements = [...sent];
    process.stdout.write(`\n=== ${r.name}: ${statements.length} statement(s)\n`);
    let sum = 0;
    let fast = 0;
    let buffers = 0;
    for (const s of statements) {
      const e = await explain(c, s, n++);
      sum += e.execution + e.planning;
      fast += (e.fastest ?? e.execution) + e.planning;
      buffers += e.hit + e.read;
      process.stdout.write(
        `--- ${s.text}\n    values ${JSON.stringify(s.values).slice(0, 200)}\n    execution ${e.execution.toFixed(3)} ms (fastest ${e.fastest?.toFixed(3)}), planning ${e.planning.toFixed(3)} ms, shared hit ${e.hit}, read ${e.read}\n${e.plan
          .split('\n')
          .map((l) => `    ${l}`)
          .join('\n')}\n`,
      );
    }
    total += sum;
    process.stdout.write(
      `=== ${r.name}: ${sum.toFixed(3)} ms (execution + planning, medians of ${RUNS}), fastest ${fast.toFixed(3)} ms, ${buffers} buffers\n`,
    );
  }
  process.stdout.write(`\ntotal ${total.toFixed(3)} ms\n`);
  await c.end();
  await app.stop();
  await db.close();
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
