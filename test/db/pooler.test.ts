import { Client } from 'pg';
import { openDatabase } from '../../src/db/database';
import { READER_ID, token, WRITER_ID } from '../support/app';
import { activeAssetAccount, defaultSource, fixture } from '../support/fixture';
import { demoDatabase, freePort, requirePrivateClusters, startPrimary, type PgCluster } from '../support/pg-cluster';
import { startPgBouncer, type PgBouncer } from '../support/pgbouncer';
import { startService, type RunningService } from '../support/service';

// The service behind a transaction-mode pooler, as operators run it: Debian's PgBouncer
// (1.18: no protocol-level prepared statements, refuses unknown startup parameters) in
// transaction mode with two server connections, in front of a private PostgreSQL cluster
// (like the replica tests: both .ci/run legs start their own), and the service started
// through its real entry point with DB_POOLER=transaction and DATABASE_DIRECT_URL. Ten
// pool connections of the service share two server connections, so consecutive
// transactions of one service connection land on different server connections: named
// prepared statements or session settings would break here.

const DB = 'pooled';
const STATEMENT_TIMEOUT_MS = 2000;

let primary: PgCluster;
let bouncer: PgBouncer;
let svc: RunningService;
let writer: string;
let reader: string;

interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}
async function call(
  path: string,
  auth: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const res = await fetch(`${svc.base}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json', ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
const gql = (auth: string, query: string, variables: Record<string, unknown> = {}) =>
  call('/graphql', auth, { method: 'POST', body: { query, variables } });
const values = (r: Reply) => r.body.value as Array<Record<string, unknown>>;
const newSource = (over: Record<string, unknown> = {}) => ({
  code: `PB-${Math.random().toString(36).slice(2, 10)}`,
  name: 'Pooled source',
  description: null,
  accountId: activeAssetAccount().id,
  sourceType: 'Cash',
  isActive: true,
  isDefault: false,
  ...over,
});

describe('behind PgBouncer in transaction mode', () => {
  beforeAll(async () => {
    requirePrivateClusters();
    // billing.pii: the reads below filter and sort customers by name.
    writer = await token('billing.read billing.write billing.pii', WRITER_ID);
    reader = await token('billing.read billing.pii', READER_ID);
    primary = startPrimary(await freePort());
    await demoDatabase(primary, DB);
    bouncer = await startPgBouncer(await freePort(), { serverPort: primary.port, poolMode: 'transaction', defaultPoolSize: 2 });
    svc = startService(await freePort(), {
      DATABASE_URL: bouncer.url(DB),
      DATABASE_DIRECT_URL: primary.url(DB),
      DB_POOLER: 'transaction',
      DB_POOL_MAX: '10',
      DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
    });
    if (!(await svc.ready(60_000))) throw new Error(`service did not become ready behind PgBouncer:\n${svc.output()}\n${bouncer.log()}`);
  }, 180_000);

  afterAll(async () => {
    const code = await svc?.stop();
    await bouncer?.stop();
    primary?.destroy();
    expect(code).toBe(0);
  });

  it('starts with migrations on the direct connection and leaves no advisory lock behind', async () => {
    expect(svc.logs().find((l) => l.msg === 'database ready, migrations applied')).toMatchObject({
      pooler: 'transaction',
      namedStatements: false,
    });
    const locks = await primary.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'", [], DB);
    expect(locks[0]!.n).toBe(0);
    const migrations = await primary.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL',
      [],
      DB,
    );
    expect(migrations[0]!.n).toBeGreaterThan(0);
  });

  it('reads every resource on the REST door, with filters, $expand and single records', async () => {
    const lists: Array<[string, number]> = [
      ['payment-sources', fixture.paymentSources.length],
      ['articles', fixture.articles.length],
      ['customers', fixture.customers.length],
      ['tax-codes', fixture.taxCodes.length],
      ['academic-terms', fixture.academicTerms.length],
      ['accounts', fixture.accounts.length],
    ];
    for (const [set, n] of lists) {
      const res = await call(`/api/v1/${set}?$count=true&$top=1000`, reader);
      expect(res.status).toBe(200);
      expect(res.body['@odata.count']).toBe(n);
      const first = values(res)[0]!;
      const one = await call(`/api/v1/${set}/${String(first.id)}`, reader);
      expect(one.status).toBe(200);
      expect(one.body.id).toBe(first.id);
    }
    expect((await call('/api/v1/payments', reader)).status).toBe(200);
    const surname = fixture.customers[0]!.lastName;
    const filtered = await call(
      `/api/v1/customers?$filter=${encodeURIComponent(`startswith(lastName,'${surname.slice(0, 2)}') and contains(lastName,'${surname.slice(1, 3)}')`)}&$orderby=lastName,id`,
      reader,
    );
    expect(filtered.status).toBe(200);
    expect(values(filtered).map((c) => c.lastName)).toContain(surname);
    const expanded = await call('/api/v1/payment-sources?$expand=account&$filter=isActive%20eq%20true', reader);
    expect(expanded.status).toBe(200);
    for (const s of values(expanded)) expect((s.account as { id: string }).id).toBe(s.accountId);
    const article = fixture.articlePrices[0]!.articleId;
    const prices = await fetch(`${svc.base}/api/v1/article-prices?articleId=${article}`, {
      headers: { authorization: `Bearer ${reader}` },
    });
    expect(prices.status).toBe(200);
    expect(((await prices.json()) as unknown[]).length).toBe(fixture.articlePrices.filter((p) => p.articleId === article).length);
    expect((await call("/api/v1/customers?$filter=lastName%20eq%20'", reader)).status).toBe(400);
  });

  it('reads relations on the GraphQL door (batched loaders across pooled connections)', async () => {
    const res = await gql(
      reader,
      `{ customers(first: 50) { totalCount nodes { id addresses { id } defaultAddress { id } } }
         articles(first: 50) { nodes { id prices { id } defaultTaxCode { id } } }
         paymentSources(where: { isActive: { eq: true } }) { nodes { id account { id } } }
         taxCodes { totalCount } academicTerms { totalCount } accounts { totalCount } }`,
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const data = res.body.data as {
      customers: { totalCount: number; nodes: Array<{ id: string; addresses: unknown[] }> };
      articles: { nodes: Array<{ id: string; prices: unknown[] }> };
      taxCodes: { totalCount: number };
    };
    expect(data.customers.totalCount).toBe(fixture.customers.length);
    for (const c of data.customers.nodes) expect(c.addresses).toHaveLength(fixture.customers.find((f) => f.id === c.id)!.addresses.length);
    for (const a of data.articles.nodes) expect(a.prices).toHaveLength(fixture.articlePrices.filter((p) => p.articleId === a.id).length);
    expect(data.taxCodes.totalCount).toBe(fixture.taxCodes.length);
  });

  it('writes on both doors: payment sources (create, If-Match, PUT, PATCH, DELETE) and payments', async () => {
    const created = await call('/api/v1/payment-sources', writer, { method: 'POST', body: newSource() });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    const etag = created.headers.get('etag')!;
    const put = await call(`/api/v1/payment-sources/${id}`, writer, {
      method: 'PUT',
      body: newSource({ code: created.body.code, name: 'v2' }),
      headers: { 'if-match': etag },
    });
    expect(put.status).toBe(200);
    const stale = await call(`/api/v1/payment-sources/${id}`, writer, {
      method: 'PUT',
      body: newSource({ code: created.body.code, name: 'v3' }),
      headers: { 'if-match': etag },
    });
    expect(stale.status).toBe(412);
    const patched = await call(`/api/v1/payment-sources/${id}`, writer, { method: 'PATCH', body: { description: 'patched' } });
    expect(patched.body).toMatchObject({ name: 'v2', description: 'patched' });
    const gqlUpdate = await gql(writer, 'mutation($id: ID!) { updatePaymentSource(id: $id, input: { name: "v4" }) { name } }', { id });
    expect(gqlUpdate.body).toEqual({ data: { updatePaymentSource: { name: 'v4' } } });
    const customerId = fixture.customers[0]!.id;
    const payment = await call('/api/v1/payments', writer, {
      method: 'POST',
      body: { customerId, paymentSourceId: id, amount: 12.5, reference: 'pooled' },
    });
    expect(payment.status).toBe(201);
    expect(payment.body).toMatchObject({ amount: 12.5, paymentSourceId: id });
    const refused = await call(`/api/v1/payment-sources/${id}`, writer, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('HAS_PAYMENTS');
    const viaGql = await gql(
      writer,
      'mutation($input: CreatePaymentInput!) { createPayment(input: $input) { id amount paymentSource { id } customer { id } } }',
      {
        input: { customerId, amount: 3 },
      },
    );
    expect(viaGql.body.errors).toBeUndefined();
    expect((viaGql.body.data as { createPayment: { paymentSource: { id: string } } }).createPayment.paymentSource.id).toBe(
      defaultSource().id,
    );
    const spare = await gql(writer, 'mutation($input: CreatePaymentSourceInput!) { createPaymentSource(input: $input) { id } }', {
      input: { code: `PB-G-${Date.now()}`, name: 'g', accountId: activeAssetAccount().id, sourceType: 'Cash' },
    });
    const spareId = (spare.body.data as { createPaymentSource: { id: string } }).createPaymentSource.id;
    expect((await gql(writer, 'mutation($id: ID!) { deletePaymentSource(id: $id) }', { id: spareId })).body.errors).toBeUndefined();
    expect((await call(`/api/v1/payment-sources/${spareId}`, reader)).status).toBe(404);
  });

  it('keeps the payment-source rules under concurrency: one code, one default', async () => {
    const code = `RACE-${Date.now()}`;
    const racers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('/api/v1/payment-sources', writer, { method: 'POST', body: newSource({ code: i % 2 ? code : code.toLowerCase() }) }),
      ),
    );
    expect(racers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(racers.filter((r) => r.status === 409 && r.body.code === 'DUPLICATE_CODE')).toHaveLength(19);

    const current = await call(`/api/v1/payment-sources/${defaultSource().id}`, writer);
    expect(
      (await call(`/api/v1/payment-sources/${defaultSource().id}`, writer, { method: 'PATCH', body: { isDefault: false } })).status,
    ).toBe(200);
    const defaults = await Promise.all(
      Array.from({ length: 10 }, () => call('/api/v1/payment-sources', writer, { method: 'POST', body: newSource({ isDefault: true }) })),
    );
    expect(defaults.filter((r) => r.status === 201)).toHaveLength(1);
    expect(defaults.filter((r) => r.status === 409 && r.body.code === 'DEFAULT_ALREADY_SET')).toHaveLength(9);
    const [row] = await primary.query<{ n: number }>('SELECT count(*)::int AS n FROM "PaymentSource" WHERE "isDefault"', [], DB);
    expect(row!.n).toBe(1);
    // Back to the demo default for the tests after this one.
    const winner = String(defaults.find((r) => r.status === 201)!.body.id);
    expect((await call(`/api/v1/payment-sources/${winner}`, writer, { method: 'PATCH', body: { isDefault: false } })).status).toBe(200);
    expect(
      (await call(`/api/v1/payment-sources/${String(current.body.id)}`, writer, { method: 'PATCH', body: { isDefault: true } })).status,
    ).toBe(200);
  });

  it('answers 2,000 mixed requests at 20 connections without a 5xx, on two server connections', async () => {
    const customerId = fixture.customers[1]!.id;
    const source = fixture.paymentSources.find((s) => s.isActive)!;
    const mix: Array<() => Promise<Reply>> = [
      () => call('/api/v1/customers?$top=20&$orderby=lastName', reader),
      () => call(`/api/v1/customers/${customerId}`, reader),
      () => call('/api/v1/articles?$expand=prices&$filter=isActive%20eq%20true', reader),
      () => call(`/api/v1/payment-sources/${source.id}`, reader),
      () => call('/api/v1/payments', writer, { method: 'POST', body: { customerId, amount: 1.25 } }),
      () => gql(reader, '{ customers(first: 20) { nodes { id addresses { city } } } }'),
      () => gql(reader, '{ articles(first: 20) { nodes { code prices { amount } defaultTaxCode { rate } } } }'),
      () =>
        gql(writer, 'mutation($input: CreatePaymentInput!) { createPayment(input: $input) { id } }', { input: { customerId, amount: 2 } }),
      () => call('/api/v1/payment-sources', writer, { method: 'POST', body: newSource() }),
    ];
    const total = 2000;
    const statuses = new Map<number, number>();
    let graphqlErrors = 0;
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let i = next++; i < total; i = next++) {
          const r = await mix[i % mix.length]!();
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          if (r.body.errors) graphqlErrors++;
        }
      }),
    );
    console.log(
      `behind PgBouncer: ${total} requests at 20 connections in ${Date.now() - started} ms: ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    expect((statuses.get(200) ?? 0) + (statuses.get(201) ?? 0)).toBe(total);
    expect(graphqlErrors).toBe(0);
    const pools = await bouncer.admin<{
      database: string;
      cl_active: string;
      cl_waiting: string;
      sv_active: string;
      sv_idle: string;
      sv_used: string;
    }>('SHOW POOLS');
    const pool = pools.find((p) => p.database === DB)!;
    expect(Number(pool.sv_active) + Number(pool.sv_idle) + Number(pool.sv_used)).toBeLessThanOrEqual(2);
    expect(Number(pool.cl_active) + Number(pool.cl_waiting)).toBeGreaterThan(2);
  }, 180_000);

  it('a statement stuck behind a lock is cut by the server-side statement timeout (503), and the connection is clean after', async () => {
    const holder = new Client({ connectionString: primary.url(DB) });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE "Account" IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      const res = await call('/api/v1/accounts', reader);
      const tookMs = Date.now() - started;
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
      expect(res.headers.get('retry-after')).toBeTruthy();
      expect(tookMs).toBeGreaterThanOrEqual(STATEMENT_TIMEOUT_MS - 100);
      // A write: its interactive transaction reads the account under the same limit.
      const write = await call('/api/v1/payment-sources', writer, { method: 'POST', body: newSource() });
      expect(write.status).toBe(503);
      // PostgreSQL's statement_timeout cancelled both, not the client's watchdog (timeout + 2 s).
      expect(primary.serverLog().match(/canceling statement due to statement timeout/g)?.length).toBe(2);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }
    expect((await call('/api/v1/accounts', reader)).status).toBe(200);
    // The limits were transaction-local: no server connection keeps them, none is idle in a transaction.
    const stuck = await primary.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND state LIKE 'idle in transaction%'",
      [DB],
    );
    expect(stuck[0]!.n).toBe(0);
    const plain = new Client({ connectionString: bouncer.url(DB) });
    await plain.connect();
    try {
      for (let i = 0; i < 4; i++)
        expect((await plain.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows[0]!.statement_timeout).toBe('0');
    } finally {
      await plain.end();
    }
  }, 30_000);

  it('with the database gone behind the pooler: 503 and /readyz 503; back: 200', async () => {
    await bouncer.admin(`DISABLE ${DB}`);
    await bouncer.admin(`KILL ${DB}`);
    try {
      const res = await call('/api/v1/payment-sources', reader);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
      expect((await fetch(`${svc.base}/readyz`)).status).toBe(503);
    } finally {
      await bouncer.admin(`ENABLE ${DB}`);
      await bouncer.admin(`RESUME ${DB}`);
    }
    expect(await svc.ready(30_000)).toBe(true);
    expect((await call('/api/v1/payment-sources', reader)).status).toBe(200);
  }, 60_000);

  it('carries the limits inside every transaction and single statement, named statements included, and leaves none on the session', async () => {
    // Straight to PostgreSQL: with named statements (as PgBouncer 1.21+ with max_prepared_statements allows).
    const db = await openDatabase({
      url: primary.url(DB),
      pooler: 'transaction',
      namedStatements: true,
      statementTimeoutMs: 1234,
      migrate: false,
      poolMax: 1,
    });
    try {
      const setting = async (q: (sql: TemplateStringsArray) => Promise<unknown>) =>
        ((await q`SELECT current_setting('statement_timeout') AS s`) as Array<{ s: string }>)[0]!.s;
      expect(await setting((sql) => db.prisma.$queryRaw(sql))).toBe('1234ms');
      const inside = await db.prisma.$transaction(async (tx) => [
        await setting((sql) => tx.$queryRaw(sql)),
        (await tx.$queryRaw<Array<{ s: string }>>`SELECT current_setting('idle_in_transaction_session_timeout') AS s`)[0]!.s,
        await tx.account.count(),
      ]);
      expect(inside).toEqual(['1234ms', '2468ms', fixture.accounts.length]);
      // A single statement goes pipelined with its BEGIN and COMMIT: when it fails, the COMMIT
      // behind it ends the failed transaction, and the one connection serves the next statement.
      const pid = async () => (await db.prisma.$queryRaw<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`)[0]!.pid;
      const before = await pid();
      await expect(db.prisma.$queryRaw`SELECT 1 / 0 AS never`).rejects.toThrow(/division by zero/);
      expect(await pid()).toBe(before);
      expect(await setting((sql) => db.prisma.$queryRaw(sql))).toBe('1234ms');
      expect(await db.prisma.customer.count()).toBe(fixture.customers.length);
      // The one pooled connection, outside any transaction: nothing left behind.
      expect((await db.session.query<{ statement_timeout: string }>('SHOW statement_timeout'))[0]!.statement_timeout).toBe('0');
    } finally {
      await db.close();
    }
  });

  it("sends no limits of its own where the server's defaults are as strict (a database setting here), which still cut a long statement", async () => {
    await primary.query('CREATE DATABASE strict_limits');
    await primary.query("ALTER DATABASE strict_limits SET statement_timeout = '1s'");
    await primary.query("ALTER DATABASE strict_limits SET idle_in_transaction_session_timeout = '2s'");
    const setting = async (db: Awaited<ReturnType<typeof openDatabase>>) =>
      (await db.prisma.$queryRaw<Array<{ s: string }>>`SELECT current_setting('statement_timeout') AS s`)[0]!.s;
    const open = (statementTimeoutMs: number) =>
      openDatabase({
        url: bouncer.url('strict_limits'),
        directUrl: primary.url('strict_limits'),
        pooler: 'transaction',
        statementTimeoutMs,
        migrate: false,
      });
    const strict = await open(1500);
    try {
      expect(strict.timeLimits).toBe('server');
      // The server's 1 s, not the service's 1500 ms: nothing was SET LOCAL, outside or inside a transaction.
      expect(await setting(strict)).toBe('1s');
      expect(
        await strict.prisma.$transaction((tx) => tx.$queryRaw<Array<{ s: string }>>`SELECT current_setting('statement_timeout') AS s`),
      ).toEqual([{ s: '1s' }]);
      await expect(strict.prisma.$queryRaw`SELECT pg_sleep(3)::text AS slept`).rejects.toThrow(/statement timeout/);
    } finally {
      await strict.close();
    }
    // Defaults looser than the service's limits: it carries its own, as everywhere else.
    const loose = await open(500);
    try {
      expect(loose.timeLimits).toBe('transaction');
      expect(await setting(loose)).toBe('500ms');
    } finally {
      await loose.close();
    }
    // A caller that sets no limits (the import) lifts the defaults: its long statement runs.
    const unlimited = await openDatabase({
      url: bouncer.url('strict_limits'),
      directUrl: primary.url('strict_limits'),
      pooler: 'transaction',
      migrate: false,
    });
    try {
      expect(unlimited.timeLimits).toBe('transaction');
      expect(await setting(unlimited)).toBe('0');
      expect(await unlimited.prisma.$queryRaw`SELECT pg_sleep(1.3)::text AS slept`).toEqual([{ slept: '' }]);
    } finally {
      await unlimited.close();
    }
  }, 30_000);

  it('Database.lockSession holds a session-level advisory lock past the pooler until closed (for lock holders such as a relay)', async () => {
    const db = await openDatabase({
      url: bouncer.url(DB),
      directUrl: primary.url(DB),
      pooler: 'transaction',
      statementTimeoutMs: 2000,
      migrate: false,
    });
    const held = await db.lockSession();
    const other = await db.lockSession();
    try {
      expect(await held.query('SELECT pg_try_advisory_lock(4242) AS ok')).toEqual([{ ok: true }]);
      // Pool statements in between go through the pooler; the lock stays with its own session.
      for (let i = 0; i < 5; i++) await db.prisma.account.count();
      expect(await other.query('SELECT pg_try_advisory_lock(4242) AS ok')).toEqual([{ ok: false }]);
      expect(await held.query('SELECT pg_advisory_unlock(4242) AS ok')).toEqual([{ ok: true }]);
      expect(await other.query('SELECT pg_try_advisory_lock(4242) AS ok')).toEqual([{ ok: true }]);
    } finally {
      await held.close();
      await other.close();
      await db.close();
    }
    const [row] = await primary.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'", [], DB);
    expect(row!.n).toBe(0);
  });

  it('behind a PgBouncer told to ignore the startup parameters: 160 concurrent reads of both doors, none answered 500 (no 42P05)', async () => {
    // The issue's second failure: with `ignore_startup_parameters` the service started, and
    // named statements met server connections that already had them ("prepared statement
    // \"prisma_0\" already exists", 42P05) or lacked them.
    const lenient = await startPgBouncer(await freePort(), {
      serverPort: primary.port,
      defaultPoolSize: 2,
      settings: { ignore_startup_parameters: 'statement_timeout, idle_in_transaction_session_timeout' },
    });
    const other = startService(await freePort(), {
      DATABASE_URL: lenient.url(DB),
      DATABASE_DIRECT_URL: primary.url(DB),
      DB_POOLER: 'transaction',
    });
    try {
      expect(await other.ready(60_000)).toBe(true);
      const statuses = await Promise.all(
        Array.from({ length: 160 }, (_, i) =>
          i % 2
            ? fetch(`${other.base}/api/v1/customers?$top=10&$orderby=lastName`, { headers: { authorization: `Bearer ${reader}` } }).then(
                (r) => r.status,
              )
            : fetch(`${other.base}/graphql`, {
                method: 'POST',
                headers: { authorization: `Bearer ${reader}`, 'content-type': 'application/json' },
                body: JSON.stringify({ query: '{ articles(first: 10) { nodes { code prices { amount } } } }' }),
              }).then(async (r) => (((await r.json()) as { errors?: unknown }).errors ? 500 : r.status)),
        ),
      );
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
    } finally {
      expect(await other.stop()).toBe(0);
      await lenient.stop();
    }
  }, 120_000);

  it('without DB_POOLER the service stops at start-up, naming the setting (exit 1)', async () => {
    const plain = startService(await freePort(), { DATABASE_URL: bouncer.url(DB), DB_STARTUP_TIMEOUT_MS: '60000' });
    const code = await new Promise<number | null>((resolve) => plain.child.once('exit', resolve));
    expect(code).toBe(1);
    expect(plain.output()).toMatch(/unsupported startup parameter/);
    expect(plain.output()).toContain('DB_POOLER=transaction');
    expect(plain.output()).not.toMatch(/\n\s+at /);
  }, 30_000);
});
