// npm run bench:plans — the statements a filtered customer page sends must reach their rows
// through index ranges, not by walking an index from its first entry: on 100,000 customers
// a walk cost 16 ms (a substring no surname has), 30 ms (a prefix late in the alphabet) or
// 2.3 ms (a substring first found a fifth into the index) of database time per page, the
// ranges well under one. The statement is the one the REST door sends (captured), explained
// with the page's parameters, on a table large enough for the planner to prefer an index
// (embedded PGlite, or PostgreSQL with DATABASE_URL). Prints each case's plan and what it
// guards; exits 1 when a guard does not hold.

import request from 'supertest';
import { createTestApp, bearer, type TestApp } from '../support/app';

const CUSTOMERS = 100_000;
const SURNAMES = ['Bauer', 'Fischer', 'Hoffmann', 'Meier', 'Müller', 'Neumann', 'Schmidt', 'Zimmermann'];

let t: TestApp;
const sent: string[] = [];
let failed = 0;

/** One guard: printed, and counted when it does not hold. */
function expectThat(what: string, holds: boolean): void {
  if (!holds) failed++;
  process.stdout.write(`  ${holds ? 'ok ' : 'NOT'} ${what}\n`);
}
const same = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

async function setUp(): Promise<void> {
  t = await createTestApp({ demoData: false, onQuery: (sql) => sent.push(sql) });
  // Bulk setup in SQL: 100,000 rows through the import would take most of the time.
  await t.db.session.exec(`
    INSERT INTO "Customer" (id, "firstName", "lastName", "debtorNumber")
    SELECT gen_random_uuid(), 'F' || i, (ARRAY['${SURNAMES.join("','")}'])[1 + i % ${SURNAMES.length}] || (i % 50), 'D' || i
    FROM generate_series(1, ${CUSTOMERS}) AS i;
    ANALYZE "Customer";`);
}

/** The statement of the page's ids the REST door sends for this filter, and what the page returned. */
async function idsStatement(filter: string): Promise<{ sql: string; ids: string[] }> {
  sent.length = 0;
  const res = await request(t.http)
    .get('/api/v1/customers')
    .query({ $filter: filter, $orderby: 'lastName', $top: '100', $select: 'id' })
    .set(bearer(t.tokens.reader));
  if (res.status !== 200) throw new Error(`${filter}: HTTP ${res.status} ${res.text}`);
  const sql = sent.find((s) => s.includes('FROM "public"."Customer"') && s.includes('LIKE'));
  if (!sql) throw new Error(`no LIKE statement on customers among: ${sent.join('\n')}`);
  return { sql, ids: (res.body.value as { id: string }[]).map((c) => c.id) };
}

/** The plan of the captured statement with its parameters: the pattern, the surnames found for it (if any), LIMIT and OFFSET. */
async function plan(sql: string, pattern: string): Promise<string> {
  if (!/LIKE \$1 .*LIMIT \$\d+ OFFSET \$\d+$/.test(sql)) throw new Error(`not the page's ids statement: ${sql}`);
  const listed = sql.match(/"lastName" IN \(([^)]*)\)/)?.[1]?.split(',').length ?? 0;
  const names = listed === 0 ? [] : (await t.db.session.query<{ name: string }>('SELECT name FROM "CustomerSurname" WHERE name LIKE $1', [pattern])).map((r) => r.name);
  if (names.length !== listed) throw new Error(`the statement lists ${listed} surnames, ${names.length} match ${pattern}`);
  const rows = await t.db.session.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [pattern, ...names, 101, 0]);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

/** The first 100 ids in page order, read directly: what the page must return. */
async function expectedIds(pattern: string): Promise<string[]> {
  const rows = await t.db.session.query<{ id: string }>('SELECT id FROM "Customer" WHERE "lastName" LIKE $1 ORDER BY "lastName", id LIMIT 100', [pattern]);
  return rows.map((r) => r.id);
}

/** Prints a case's plan. */
function show(title: string, p: string): void {
  process.stdout.write(`\n${title}\n${p.split('\n').map((l) => `    ${l}`).join('\n')}\n`);
}

async function main(): Promise<void> {
  await setUp();

  {
    // Neumann1, Neumann11, ...: 12,500 customers under 25 of the 200 surnames, the first of
    // them after 62,500 entries of the (lastName, id) index.
    const { sql, ids } = await idsStatement("contains(lastName,'eumann')");
    const p = await plan(sql, '%eumann%');
    show("contains(lastName,'eumann'): a substring many customers share", p);
    expectThat('the filter lists the 25 surnames containing it', /"lastName" IN \((\$\d+,){24}\$\d+\)/.test(sql));
    expectThat('the page is the filter\'s first 100, in order', same(ids, await expectedIds('%eumann%')));
    expectThat('an index-only scan of (lastName, id)', /Index Only Scan using "Customer_lastName_id_idx"/.test(p));
    expectThat('just those surnames\' ranges', /Index Cond: \("lastName" = ANY /.test(p));
    expectThat('no sort', !/Sort/.test(p));
  }
  {
    await t.db.session.exec(`UPDATE "Customer" SET "lastName" = 'Oberzqmair' WHERE "debtorNumber" IN ('D7', 'D77')`);
    await t.db.session.exec('ANALYZE "Customer"');
    const { sql, ids } = await idsStatement("contains(lastName,'zqm')");
    const p = await plan(sql, '%zqm%');
    show("contains(lastName,'zqm'): a substring that few surnames contain", p);
    expectThat('two customers, the filter\'s', ids.length === 2 && same(ids, await expectedIds('%zqm%')));
    // One surname: an equality on the index's first column (PostgreSQL may sort two rows by id).
    expectThat('the range of that surname', /Index Cond: \(+"lastName"(\)::text)? = 'Oberzqmair'/.test(p));
  }
  {
    // PostgreSQL then walks the (lastName, id) index or takes the trigram index, as its
    // statistics suggest (PostgreSQL 15 and PGlite choose differently here).
    // 130 customers, each with a surname of their own (MAX_LEXICON_VALUES is 32).
    await t.db.session.exec(`
      INSERT INTO "Customer" (id, "firstName", "lastName", "debtorNumber")
      SELECT gen_random_uuid(), 'F', 'Kzqvxj' || i, 'KZQV' || i FROM generate_series(1, 130) AS i;
      ANALYZE "Customer";`);
    sent.length = 0;
    const res = await request(t.http)
      .get('/api/v1/customers')
      .query({ $filter: "contains(lastName,'zqvxj')", $orderby: 'lastName', $top: '100', $select: 'id', $count: 'true' })
      .set(bearer(t.tokens.reader));
    process.stdout.write("\ncontains(lastName,'zqvxj'): a substring in more surnames than the filter lists\n");
    expectThat('130 customers counted', res.status === 200 && res.body['@odata.count'] === 130);
    expectThat('the page is the filter\'s first 100, in order', same((res.body.value as { id: string }[]).map((c) => c.id), await expectedIds('%zqvxj%')));
    const statements = sent.filter((s) => s.includes('FROM "public"."Customer"'));
    expectThat('the filter is left as it is (no surname list)', !statements.some((s) => / IN \(/.test(s)));
    expectThat('two LIKE statements: the page\'s ids and the count', statements.filter((s) => s.includes('LIKE')).length === 2);
  }
  {
    const { sql, ids } = await idsStatement("startswith(lastName,'Zimmermann4')");
    const p = await plan(sql, 'Zimmermann4%');
    show("startswith(lastName,'Zimmermann4'): a prefix", p);
    expectThat('a full page', ids.length === 100);
    expectThat('an index-only scan of (lastName, id)', /Index Only Scan using "Customer_lastName_id_idx"/.test(p));
    expectThat('the prefix\'s range, which also gives the order', /Index Cond: \(\("lastName" >= 'Zimmermann4'::text\) AND \("lastName" < 'Zimmermann5'::text\)\)/.test(p));
  }
  await t.close();
  process.stdout.write(failed === 0 ? '\nevery guard holds\n' : `\n${failed} guard(s) do not hold\n`);
  if (failed > 0) process.exitCode = 1;
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
