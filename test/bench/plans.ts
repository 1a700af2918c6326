// npm run bench:plans — the statements a filtered customer page sends must reach their rows
// through index ranges, not by walking an index from its first entry: on 100,000 customers
// a walk cost 16 ms (a substring no surname has), 30 ms (a prefix late in the alphabet) or
// 2.3 ms (a substring first found a fifth into the index) of database time per page, the
// ranges well under one. The statements are those the read path (src/db/read) sends for the
// REST door's request, captured with their values through the RowReader's onQuery, and
// explained with those values on a table large enough for the planner to prefer an index
// (embedded PGlite, or a database of its own on the PostgreSQL of DATABASE_URL). Prints each
// case's plan and what it guards; exits 1 when a guard does not hold.

import request from 'supertest';
import type { Statement } from '../../src/db/read/sql';
import { createTestApp, bearer, type TestApp } from '../support/app';

const CUSTOMERS = 100_000;
const SURNAMES = ['Bauer', 'Fischer', 'Hoffmann', 'Meier', 'Müller', 'Neumann', 'Schmidt', 'Zimmermann'];

let t: TestApp;
/** The read path's statements since the last request (Prisma Client's come without values and are left out). */
const sent: Statement[] = [];
let failed = 0;

/** One guard: printed, and counted when it does not hold. */
function expectThat(what: string, holds: boolean): void {
  if (!holds) failed++;
  process.stdout.write(`  ${holds ? 'ok ' : 'NOT'} ${what}\n`);
}
const same = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

async function setUp(): Promise<void> {
  t = await createTestApp({ demoData: false, onQuery: (text, values) => void (values && sent.push({ text, values })) });
  // Bulk setup in SQL: 100,000 rows through the import would take most of the time.
  await t.db.session.exec(`
    INSERT INTO "Customer" (id, "firstName", "lastName", "debtorNumber")
    SELECT gen_random_uuid(), 'F' || i, (ARRAY['${SURNAMES.join("','")}'])[1 + i % ${SURNAMES.length}] || (i % 50), 'D' || i
    FROM generate_series(1, ${CUSTOMERS}) AS i;`);
  // VACUUM (alone: not inside the implicit transaction of several statements) sets the
  // visibility map, without which no plan reads the index alone.
  await t.db.session.exec('VACUUM ANALYZE "Customer"');
}

/** The customers' list for this query, as the REST door answers it; `sent` holds its statements after. */
async function list(query: Record<string, string>): Promise<{ ids: string[]; count: unknown }> {
  sent.length = 0;
  const res = await request(t.http).get('/api/v1/customers').query(query).set(bearer(t.tokens.reader));
  if (res.status !== 200) throw new Error(`${JSON.stringify(query)}: HTTP ${res.status} ${res.text}`);
  return { ids: (res.body.value as { id: string }[]).map((c) => c.id), count: res.body['@odata.count'] };
}

/** A page's plan reads the (lastName, id) index; not the index alone, as the REST door's page reads every field. */
const PAGE_SCAN = /Index (Only )?Scan using "Customer_lastName_id_idx"/;

const onCustomers = (): Statement[] => sent.filter((s) => s.text.includes('FROM "Customer" t'));
const isCount = (s: Statement): boolean => s.text.startsWith('SELECT count(');

/** The page's statement for this filter (first 100 ids by lastName), and the ids the page returned. */
async function pageStatement(filter: string): Promise<{ page: Statement; ids: string[] }> {
  const { ids } = await list({ $filter: filter, $orderby: 'lastName', $top: '100', $select: 'id' });
  const page = onCustomers().find((s) => !isCount(s));
  if (!page) throw new Error(`no page statement on customers among:\n${sent.map((s) => s.text).join('\n')}`);
  return { page, ids };
}

/** The plan of a captured statement with the values it was sent with. */
async function plan(s: Statement): Promise<string> {
  const rows = await t.db.session.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${s.text}`, [...s.values]);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

/** The first 100 ids in page order, read directly: what the page must return. */
async function expectedIds(pattern: string): Promise<string[]> {
  const rows = await t.db.session.query<{ id: string }>(
    'SELECT id FROM "Customer" WHERE "lastName" LIKE $1 ORDER BY "lastName", id LIMIT 100',
    [pattern],
  );
  return rows.map((r) => r.id);
}

/** Prints a case's plan. */
function show(title: string, p: string): void {
  process.stdout.write(
    `\n${title}\n${p
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n')}\n`,
  );
}

async function main(): Promise<void> {
  await setUp();

  {
    // Neumann1, Neumann11, ...: 12,500 customers under 25 of the 200 surnames, the first of
    // them after 62,500 entries of the (lastName, id) index.
    const { page, ids } = await pageStatement("contains(lastName,'eumann')");
    const p = await plan(page);
    show("contains(lastName,'eumann'): a substring many customers share", p);
    const listed = page.values.find(Array.isArray);
    expectThat(
      'the filter lists the 25 surnames containing it',
      /"lastName" = ANY\(\$\d+::text\[\]\)/.test(page.text) && listed?.length === 25,
    );
    expectThat("the page is the filter's first 100, in order", same(ids, await expectedIds('%eumann%')));
    expectThat('a scan of the (lastName, id) index', PAGE_SCAN.test(p));
    expectThat("just those surnames' ranges", /Index Cond: \(+"lastName"(\)::text)? = ANY /.test(p));
    expectThat('no sort', !/Sort/.test(p));
  }
  {
    await t.db.session.exec(`UPDATE "Customer" SET "lastName" = 'Oberzqmair' WHERE "debtorNumber" IN ('D7', 'D77')`);
    await t.db.session.exec('ANALYZE "Customer"');
    const { page, ids } = await pageStatement("contains(lastName,'zqm')");
    const p = await plan(page);
    show("contains(lastName,'zqm'): a substring that few surnames contain", p);
    expectThat("two customers, the filter's", ids.length === 2 && same(ids, await expectedIds('%zqm%')));
    // One surname: an equality, in the condition of the (lastName, id) index or, with the
    // pattern, of the trigram index (PostgreSQL 15's choice); either may sort two rows by id.
    expectThat('an index condition on that surname', /Index Cond: .*"lastName"(\)::text)? = 'Oberzqmair'/.test(p));
  }
  {
    // PostgreSQL then walks the (lastName, id) index or takes the trigram index, as its
    // statistics suggest (PostgreSQL 15 and PGlite choose differently here).
    // 130 customers, each with a surname of their own (MAX_LEXICON_VALUES is 32).
    await t.db.session.exec(`
      INSERT INTO "Customer" (id, "firstName", "lastName", "debtorNumber")
      SELECT gen_random_uuid(), 'F', 'Kzqvxj' || i, 'KZQV' || i FROM generate_series(1, 130) AS i;
      ANALYZE "Customer";`);
    const { ids, count } = await list({
      $filter: "contains(lastName,'zqvxj')",
      $orderby: 'lastName',
      $top: '100',
      $select: 'id',
      $count: 'true',
    });
    process.stdout.write("\ncontains(lastName,'zqvxj'): a substring in more surnames than the filter lists\n");
    expectThat('130 customers counted', count === 130);
    expectThat("the page is the filter's first 100, in order", same(ids, await expectedIds('%zqvxj%')));
    const statements = onCustomers();
    expectThat('the filter is left as it is (no surname list)', !statements.some((s) => /"lastName" (= ANY\(|= \$)/.test(s.text)));
    expectThat('two LIKE statements: the page and the count', statements.filter((s) => s.text.includes('LIKE')).length === 2);
  }
  {
    const { page, ids } = await pageStatement("startswith(lastName,'Zimmermann4')");
    const p = await plan(page);
    show("startswith(lastName,'Zimmermann4'): a prefix", p);
    expectThat('a full page', ids.length === 100);
    expectThat('no LIKE: the prefix is its code point range', !page.text.includes('LIKE'));
    expectThat('a scan of the (lastName, id) index', PAGE_SCAN.test(p));
    expectThat(
      "the prefix's range, which also gives the order",
      /Index Cond: .*"lastName"(\)::text)? >= 'Zimmermann4'::text.*"lastName"(\)::text)? < 'Zimmermann5'::text/.test(p) && !/Sort/.test(p),
    );
  }
  {
    // The count reads the range from an index alone, with no LIKE to test per entry (the
    // count was most of the 3.7 ms of PostgreSQL CPU per REST list with $count=true): the
    // lastName index, whose repeated surnames a btree stores once per page (a seventh of the
    // size of (lastName, id), half the time to count 8,697 entries).
    await t.db.session.exec('VACUUM ANALYZE "Customer"');
    const { count } = await list({ $filter: "startswith(lastName,'M')", $orderby: 'lastName,id', $top: '100', $count: 'true' });
    const counted = onCustomers().find(isCount);
    if (!counted) throw new Error(`no count statement on customers among:\n${sent.map((s) => s.text).join('\n')}`);
    const p = await plan(counted);
    show("startswith(lastName,'M') with $count: a prefix's count", p);
    const [direct] = await t.db.session.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Customer" WHERE "lastName" LIKE 'M%'`);
    expectThat("the count is the filter's", count === direct?.n);
    expectThat("the count's condition is the prefix's range", /WHERE \(t\."lastName" >= \$1 AND t\."lastName" < \$2\)$/.test(counted.text));
    expectThat('an index-only scan of the deduplicated lastName index', /Index Only Scan using "Customer_lastName_idx"/.test(p));
    expectThat("the prefix's range", /Index Cond: .*"lastName"(\)::text)? >= 'M'::text.*"lastName"(\)::text)? < 'N'::text/.test(p));
  }
  {
    // A deep offset reads its ids from an index holding the order's keys and the id, then the
    // page's rows by id (src/db/read/compile.ts DEEP_OFFSET). The debtor number is unique: no
    // tie by id to sort, and (debtorNumber, id) gives the ids without reading a row.
    sent.length = 0;
    const res = await request(t.http)
      .get('/api/v1/customers')
      .query({ $orderby: 'debtorNumber', $skip: '60000', $top: '100', $select: 'id' })
      .set(bearer(t.tokens.reader));
    const page = onCustomers().find((s) => !isCount(s));
    if (res.status !== 200 || !page) throw new Error(`deep offset: HTTP ${res.status} ${res.text}`);
    const p = await plan(page);
    show('$orderby=debtorNumber&$skip=60000: a deep offset by a unique key', p);
    const direct = await t.db.session.query<{ id: string }>('SELECT id FROM "Customer" ORDER BY "debtorNumber" LIMIT 100 OFFSET 60000');
    expectThat(
      "the page is the plain statement's",
      same(
        (res.body.value as { id: string }[]).map((c) => c.id),
        direct.map((r) => r.id),
      ),
    );
    expectThat('no tie by id after the unique key', !/"id" ASC/.test(page.text));
    expectThat('the ids from an index-only scan of (debtorNumber, id)', /Index Only Scan using "Customer_debtorNumber_id_idx"/.test(p));
    expectThat('no row read for the records skipped: no sequential scan, no sort of the skipped', !/Seq Scan|Incremental Sort/.test(p));
  }
  await t.close();
  process.stdout.write(failed === 0 ? '\nevery guard holds\n' : `\n${failed} guard(s) do not hold\n`);
  if (failed > 0) process.exitCode = 1;
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
