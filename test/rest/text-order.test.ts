// Text sorts by Unicode code point on every database, whatever its default collation
// (docs/api-notes.md "Text order"), while comparisons stay case-sensitive and tolower()
// still folds letters outside ASCII. Through the REST door, on PGlite and PostgreSQL.

import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { openDatabase } from '../../src/db/database';
import { createTestApp, type TestApp, bearer } from '../support/app';
import { usingPostgres, servicesOf } from '../support/database';

let t: TestApp;
const CODE_POINT_ORDER = [
  'Abel-TO',
  'Oz-TO',
  'Zimmer-TO',
  'nadal-TO',
  'zimmer-TO',
  'Äbel-TO',
  'Ñandú-TO',
  'Ölmann-TO',
  'Øre-TO',
  'ábaco-TO',
];
const NAMES = ['Zimmer-TO', 'zimmer-TO', 'Äbel-TO', 'Abel-TO', 'Øre-TO', 'Ölmann-TO', 'Oz-TO', 'ábaco-TO', 'Ñandú-TO', 'nadal-TO'];

beforeAll(async () => {
  t = await createTestApp();
  await t.db.prisma.customer.createMany({
    data: NAMES.map((lastName, i) => ({ id: randomUUID(), firstName: 'T', lastName, debtorNumber: `TO-${i}` })),
  });
});
afterAll(async () => {
  await t.close();
});

const lastNames = async (query: string): Promise<string[]> => {
  const res = await request(t.http).get(`/api/v1/customers?${query}`).set(bearer(t.tokens.reader)).expect(200);
  return (res.body.value as Array<{ lastName: string }>).map((c) => c.lastName);
};

it('$orderby on text is code point order: upper case first, letters outside ASCII after z', async () => {
  const expected = CODE_POINT_ORDER;
  expect(await lastNames(`$filter=${encodeURIComponent("endswith(lastName,'-TO')")}&$orderby=lastName`)).toEqual(expected);
  expect(await lastNames(`$filter=${encodeURIComponent("endswith(lastName,'-TO')")}&$orderby=lastName desc`)).toEqual(
    [...expected].reverse(),
  );
  // Unfiltered pages are read another way (one statement); the order is the same.
  const all = await lastNames('$orderby=lastName&$top=1000');
  expect(all.filter((n) => n.endsWith('-TO'))).toEqual(expected);
});

it('startswith, comparisons and eq are case-sensitive and in the same order', async () => {
  expect(
    await lastNames(`$filter=${encodeURIComponent("startswith(lastName,'Z') and endswith(lastName,'-TO')")}&$orderby=lastName`),
  ).toEqual(['Zimmer-TO']);
  expect(
    await lastNames(`$filter=${encodeURIComponent("startswith(lastName,'Ö') and endswith(lastName,'-TO')")}&$orderby=lastName`),
  ).toEqual(['Ölmann-TO']);
  expect(await lastNames(`$filter=${encodeURIComponent("lastName gt 'zz' and endswith(lastName,'-TO')")}&$orderby=lastName`)).toEqual([
    'Äbel-TO',
    'Ñandú-TO',
    'Ölmann-TO',
    'Øre-TO',
    'ábaco-TO',
  ]);
  expect(await lastNames(`$filter=${encodeURIComponent("lastName eq 'äbel-TO'")}`)).toEqual([]);
});

it('tolower() folds letters outside ASCII as before', async () => {
  expect(await lastNames(`$filter=${encodeURIComponent("tolower(lastName) eq 'äbel-to'")}`)).toEqual(['Äbel-TO']);
  expect(await lastNames(`$filter=${encodeURIComponent("contains(tolower(lastName),'ölm')")}`)).toEqual(['Ölmann-TO']);
});

// The order belongs to the columns, not to the server: every text column has the code
// point collation, and on a PostgreSQL database whose default collation is a language's
// (German, through ICU) pages still come in code point order, through both ways of reading
// a page. (The embedded database has no other default to choose; it checks the columns.)
it('every text column has the code point collation; a German server default changes nothing', async () => {
  const columns = await t.db.session.query<{ table_name: string; column_name: string; collation_name: string | null }>(
    `SELECT table_name, column_name, collation_name FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type = 'character varying' AND table_name <> '_prisma_migrations'`,
  );
  expect(columns.length).toBeGreaterThanOrEqual(28);
  expect(columns.filter((c) => c.collation_name !== 'billing_c')).toEqual([]);
  if (!usingPostgres()) return;

  const base = new URL(process.env.DATABASE_URL!);
  const name = `test_de_${process.pid}_${Date.now()}`;
  const admin = new Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}" TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'de-DE' LOCALE 'C.UTF-8'`);
  const db = await openDatabase({ url: Object.assign(new URL(base.toString()), { pathname: `/${name}` }).toString(), poolMax: 2 });
  try {
    await db.prisma.customer.createMany({
      data: NAMES.map((lastName, i) => ({ id: randomUUID(), firstName: 'T', lastName, debtorNumber: `TO-${i}` })),
    });
    const services = servicesOf(db);
    const q = { orderBy: [{ field: 'lastName', direction: 'asc' as const }], limit: 100 };
    expect((await services.customers.list(q)).items.map((c) => c.lastName)).toEqual(CODE_POINT_ORDER);
    expect((await services.customers.list({ ...q, filter: { kind: 'const', value: true } })).items.map((c) => c.lastName)).toEqual(
      CODE_POINT_ORDER,
    );
    // tolower() folds by the database's own character classification, as before.
    expect(
      (
        await services.customers.list({
          ...q,
          filter: { kind: 'compare', field: 'lastName', op: 'eq', value: { type: 'string', value: 'äbel-to' }, ignoreCase: true },
        })
      ).items.map((c) => c.lastName),
    ).toEqual(['Äbel-TO']);
  } finally {
    await db.close();
    await admin.query(`DROP DATABASE "${name}"`);
    await admin.end();
  }
});
