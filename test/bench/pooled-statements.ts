// npm run bench:pooled-statements — what a request costs behind PgBouncer in transaction mode,
// in messages rather than time: a private PgBouncer (test/support/pgbouncer.ts) in front of the
// bench database, the service's database layer through it as DB_POOLER=transaction sets it up
// (the time limits as SET LOCAL in each transaction, src/db/pooler.ts), and for each request
// the transactions and queries PgBouncer forwarded (SHOW STATS) and the statements the service
// sent, per request over RUNS requests. Counts, not times: they hold on a busy machine.
//
//   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/bench_100000 npm run bench:pooled-statements

import request from 'supertest';
import { openDatabase } from '../../src/db/database';
import { inProcessApp } from './in-process-app';
import { startPgBouncer } from '../support/pgbouncer';

const dbUrl = new URL(process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/bench_100000');
const RUNS = Number(process.env.BENCH_RUNS ?? 20);

const REQUESTS: Readonly<Record<string, { path: string; body?: object }>> = {
  'rest-b2-prefix-count': { path: "/api/v1/customers?$filter=startswith(lastName,'M')&$orderby=lastName,id&$top=100&$count=true" },
  'rest-one-customer': { path: "/api/v1/customers?$filter=lastName eq 'Meier'&$orderby=firstName&$top=1" },
  'graphql-customers-with-addresses': {
    path: '/graphql',
    body: {
      query:
        '{ customers(first: 100, orderBy: [{ lastName: ASC }, { id: ASC }]) { nodes { id firstName lastName addresses { id city } receivableAccount { id code } } } }',
    },
  },
};

type Stats = { database: string; total_xact_count: string; total_query_count: string };

async function main(): Promise<void> {
  const name = dbUrl.pathname.slice(1);
  const bouncer = await startPgBouncer(Number(process.env.BENCH_PGBOUNCER_PORT ?? 6439), {
    serverPort: Number(dbUrl.port || 5432),
    serverHost: dbUrl.hostname,
    defaultPoolSize: 10,
    // SHOW STATS adds up its counts once a period: every second here, not every minute.
    settings: { stats_period: 1 },
  });
  let sent = 0;
  try {
    const db = await openDatabase({
      url: bouncer.url(name),
      directUrl: dbUrl.toString(),
      pooler: 'transaction',
      statementTimeoutMs: 10_000,
      onQuery: () => void sent++,
    });
    const { app, auth } = await inProcessApp(db);
    const stats = async (): Promise<Stats> => {
      await new Promise((resolve) => setTimeout(resolve, 2100));
      return (await bouncer.admin<Stats>('SHOW STATS')).find((s) => s.database === name)!;
    };
    for (const [label, r] of Object.entries(REQUESTS)) {
      const send = () => (r.body ? request(app.express).post(r.path).set(auth).send(r.body) : request(app.express).get(r.path).set(auth));
      const first = await send();
      if (first.status !== 200) throw new Error(`${label}: HTTP ${first.status} ${first.text.slice(0, 300)}`);
      const before = await stats();
      sent = 0;
      for (let i = 0; i < RUNS; i++) await send();
      const statements = sent / RUNS;
      const after = await stats();
      const per = (k: keyof Stats) => ((Number(after[k]) - Number(before[k])) / RUNS).toFixed(2);
      process.stdout.write(
        `${label}: ${statements.toFixed(2)} statements sent by the service, ${per('total_xact_count')} transactions and ${per('total_query_count')} queries through PgBouncer per request\n`,
      );
    }
    await app.stop();
    await db.close();
  } finally {
    await bouncer.stop();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
