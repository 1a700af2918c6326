// The statements a filtered customer page sends must reach their rows through an index range,
// not by walking an index from its first entry: on 100,000 customers a walk cost 16 ms (a
// substring no surname has) or 30 ms (a prefix late in the alphabet) of database time per
// page, the range well under one. The statement is the one the REST door sends (captured),
// explained with the page's parameters, on a table large enough for the planner to prefer
// an index.

import request from 'supertest';
import { createTestApp, type TestApp } from '../../support/app';

const CUSTOMERS = 100_000;
const SURNAMES = ['Bauer', 'Fischer', 'Hoffmann', 'Meier', 'Müller', 'Neumann', 'Schmidt', 'Zimmermann'];

let t: TestApp;
const sent: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ demoData: false, onQuery: (sql) => sent.push(sql) });
  // Bulk setup in SQL: 100,000 rows through the import would take most of the test's time.
  await t.db.session.exec(`
    INSERT INTO "Customer" (id, "firstName", "lastName", "debtorNumber")
    SELECT gen_random_uuid(), 'F' || i, (ARRAY['${SURNAMES.join("','")}'])[1 + i % ${SURNAMES.length}] || (i % 50), 'D' || i
    FROM generate_series(1, ${CUSTOMERS}) AS i;
    ANALYZE "Customer";`);
}, 120_000);
afterAll(() => t.close());

/** The first statement the REST door sends for this filter (the page's ids), and what it returned. */
async function idsStatement(filter: string): Promise<{ sql: string; ids: string[] }> {
  sent.length = 0;
  const res = await request(t.http)
    .get('/api/v1/customers')
    .query({ $filter: filter, $orderby: 'lastName', $top: '100', $select: 'id' })
    .set('Authorization', `Bearer ${t.tokens.reader}`)
    .expect(200);
  const sql = sent.find((s) => s.includes('LIKE'));
  if (!sql) throw new Error(`no LIKE statement among: ${sent.join('\n')}`);
  return { sql, ids: (res.body.value as { id: string }[]).map((c) => c.id) };
}

async function plan(sql: string, pattern: string): Promise<string> {
  // The captured statement's parameters: the pattern, then LIMIT and OFFSET.
  expect(sql).toMatch(/LIKE \$1 .*LIMIT \$2 OFFSET \$3$/);
  const rows = await t.db.session.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [pattern, 101, 0]);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

it('a substring that few surnames contain is found through the trigram index', async () => {
  await t.db.session.exec(`UPDATE "Customer" SET "lastName" = 'Oberzqmair' WHERE "debtorNumber" IN ('D7', 'D77')`);
  await t.db.session.exec('ANALYZE "Customer"');
  const { sql, ids } = await idsStatement("contains(lastName,'zqm')");
  expect(ids).toHaveLength(2);
  const p = await plan(sql, '%zqm%');
  expect(p).toContain('Customer_lastName_trgm_idx');
});

it('a prefix is an index range on (lastName, id), which also gives the order', async () => {
  const { sql, ids } = await idsStatement("startswith(lastName,'Zimmermann4')");
  expect(ids).toHaveLength(100);
  const p = await plan(sql, 'Zimmermann4%');
  expect(p).toMatch(/Index Only Scan using "Customer_lastName_id_idx"/);
  expect(p).toMatch(/Index Cond: \(\("lastName" >= 'Zimmermann4'::text\) AND \("lastName" < 'Zimmermann5'::text\)\)/);
});
