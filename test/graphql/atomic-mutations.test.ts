// All mutation fields of one GraphQL operation are one unit of work: every one is kept or
// none. A failing field rolls back those before it: `data` is null, the failing field has its
// own error and every field that had succeeded a ROLLED_BACK error at its path; the tables and
// the change log are as they were.

import { createTestApp, token, WRITER_ID, type TestApp } from '../support/app';
import { activeAssetAccount, fixture } from '../support/fixture';
import { gql, gqlOk } from '../support/graphql';

let t: TestApp;
let both: string;

beforeAll(async () => {
  t = await createTestApp();
  both = await token('billing.read billing.write billing.maintain billing.pii billing.audit', WRITER_ID);
});
afterAll(() => t.close());

const unique = () => Math.random().toString(36).slice(2, 8).toUpperCase();

async function snapshot(): Promise<string> {
  const p = t.db.prisma;
  const [accounts, sources, articles, log] = await Promise.all([
    p.account.findMany({ orderBy: { id: 'asc' } }),
    p.paymentSource.findMany({ orderBy: { id: 'asc' } }),
    p.article.findMany({ orderBy: { id: 'asc' } }),
    p.changeLog.count(),
  ]);
  return JSON.stringify({ accounts, sources, articles, log });
}

const TWO_ACCOUNTS = `mutation($a: AccountInput!, $b: AccountInput!) {
  first: createAccount(input: $a) { id code etag }
  second: createAccount(input: $b) { id code }
}`;

it('keeps both mutation fields when both succeed, each with its change-log entry', async () => {
  const [a, b] = [`UA${unique()}`, `UB${unique()}`];
  const data = await gqlOk(
    t,
    TWO_ACCOUNTS,
    { a: { code: a, name: 'A', type: 'Expense' }, b: { code: b, name: 'B', type: 'Expense' } },
    both,
  );
  expect(data.first.code).toBe(a);
  expect(data.second.code).toBe(b);
  const kept = await t.db.prisma.account.findMany({ where: { code: { in: [a, b] } } });
  expect(kept).toHaveLength(2);
  const log = await t.db.prisma.changeLog.findMany({ where: { recordId: { in: kept.map((k) => k.id) } } });
  expect(log.map((e) => e.operation)).toEqual(['created', 'created']);
});

it('keeps nothing when the second field fails (a duplicate code): the first is reported ROLLED_BACK', async () => {
  const code = `UD${unique()}`;
  const before = await snapshot();
  const res = await gql(t, TWO_ACCOUNTS, { a: { code, name: 'A', type: 'Expense' }, b: { code, name: 'B', type: 'Expense' } }, both);
  expect(res.status).toBe(200);
  expect(res.data).toBeNull();
  expect(res.errors?.map((e) => [e.path, e.extensions.code])).toEqual([
    [['second'], 'DUPLICATE_CODE'],
    [['first'], 'ROLLED_BACK'],
  ]);
  expect(await snapshot()).toBe(before);
  expect(await t.db.prisma.account.count({ where: { code } })).toBe(0);
});

it('rolls back writes of both services (payment sources and the common write path) together', async () => {
  const before = await snapshot();
  const sourceCode = `US${unique()}`;
  const res = await gql(
    t,
    `mutation($s: CreatePaymentSourceInput!, $a: AccountInput!) {
      source: createPaymentSource(input: $s) { id code account { code } }
      account: createAccount(input: $a) { id }
    }`,
    {
      s: { code: sourceCode, name: 'Kasse', sourceType: 'Cash', accountId: activeAssetAccount().id },
      // A code another account has.
      a: { code: fixture.accounts[0]!.code, name: 'Dup', type: 'Expense' },
    },
    both,
  );
  expect(res.errors?.map((e) => [e.path, e.extensions.code])).toEqual([
    [['account'], 'DUPLICATE_CODE'],
    [['source'], 'ROLLED_BACK'],
  ]);
  expect(await snapshot()).toBe(before);
});

it('reads inside the unit see its writes: a later field sees what an earlier one changed', async () => {
  const code = `UR${unique()}`;
  const created = await gqlOk(
    t,
    'mutation($a: AccountInput!) { createAccount(input: $a) { id etag } }',
    { a: { code, name: 'R', type: 'Expense' } },
    both,
  );
  const res = await gql(
    t,
    `mutation($id: ID!, $etag: String!) {
      renamed: updateAccount(id: $id, input: { name: "Renamed" }, ifMatch: $etag) { id name etag }
      again: updateAccount(id: $id, input: { name: "Again" }, ifMatch: $etag) { id name }
    }`,
    { id: created.createAccount.id, etag: created.createAccount.etag },
    both,
  );
  // The second field saw the first's change (its etag is stale now): PRECONDITION_FAILED, and both are undone.
  expect(res.errors?.map((e) => [e.path, e.extensions.code])).toEqual([
    [['again'], 'PRECONDITION_FAILED'],
    [['renamed'], 'ROLLED_BACK'],
  ]);
  const row = await t.db.prisma.account.findUniqueOrThrow({ where: { id: created.createAccount.id } });
  expect(row.name).toBe('R');
});

it('a rolled-back operation leaves nothing in the change-log feed', async () => {
  const feed = async () => (await gqlOk(t, '{ changes(first: 1) { totalCount } }', undefined, both)).changes.totalCount as number;
  const before = await feed();
  const code = `UF${unique()}`;
  await gql(t, TWO_ACCOUNTS, { a: { code, name: 'A', type: 'Expense' }, b: { code, name: 'B', type: 'Expense' } }, both);
  expect(await feed()).toBe(before);
});

it('fields behind a fragment at the root are one unit too', async () => {
  const code = `UG${unique()}`;
  const before = await snapshot();
  const res = await gql(
    t,
    `mutation($a: AccountInput!, $b: AccountInput!) { ...Both }
     fragment Both on Mutation { first: createAccount(input: $a) { id } second: createAccount(input: $b) { id } }`,
    { a: { code, name: 'A', type: 'Expense' }, b: { code, name: 'B', type: 'Expense' } },
    both,
  );
  expect(res.errors?.map((e) => [e.path, e.extensions.code])).toEqual([
    [['second'], 'DUPLICATE_CODE'],
    [['first'], 'ROLLED_BACK'],
  ]);
  expect(await snapshot()).toBe(before);
});
