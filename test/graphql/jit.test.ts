// graphql-jit (src/graphql/jit.ts) answers exactly what graphql-js answers: the same
// operations on two doors over one service layer, one compiled, one interpreted.

import express from 'express';
import { getIntrospectionQuery } from 'graphql';
import { createTokenVerifier } from '../../src/auth/tokens';
import { createGraphqlHandler } from '../../src/graphql/server';
import { createLogger } from '../../src/http/logger';
import { createTestApp, TEST_SECRET, type TestApp } from '../support/app';
import { defaultSource, fixture } from '../support/fixture';
import { gqlRequest } from '../support/graphql';

let t: TestApp;
const doors: Record<'jit' | 'js', { app: express.Express; stop(): Promise<void> }> = {} as never;

beforeAll(async () => {
  t = await createTestApp();
  for (const jit of [true, false]) {
    const door = await createGraphqlHandler({
      services: t.services,
      verify: createTokenVerifier({ secret: TEST_SECRET }),
      production: false,
      logger: createLogger('silent'),
      jit,
    });
    const app = express();
    app.use('/graphql', express.json(), door.handler);
    doors[jit ? 'jit' : 'js'] = { app, stop: door.stop };
  }
  await t.services.payments.create(
    { customerId: fixture.customers[0]!.id, amount: '12.3456' },
    { userId: fixture.customers[0]!.id, personalData: true },
  );
});
afterAll(async () => {
  await doors.jit?.stop();
  await doors.js?.stop();
  await t.close();
});

const post = (door: 'jit' | 'js', query: string, variables?: Record<string, unknown>) =>
  gqlRequest(doors[door].app, { query, variables }, t.tokens.writer);

const CASES: Array<[string, string, Record<string, unknown>?]> = [
  [
    'the benchmark page',
    '{ customers(first: 100) { nodes { id firstName lastName email debtorNumber addresses { id addressType street city postalCode country isDefault } } } }',
  ],
  [
    'relations, decimals, enums, dates',
    `{ taxCodes { totalCount nodes { code rate taxType validFrom validTo taxAccount { code type } } }
     articles(first: 5, orderBy: [{ code: DESC }]) { edges { cursor node { code prices { amount validFrom } priceAt(date: "2025-06-01") { amount } defaultTaxCode { rate } } } pageInfo { hasNextPage endCursor } }
     payments { nodes { amount receivedAt paymentSource { code } customer { lastName defaultAddress { city } } } } }`,
  ],
  [
    'scalar variables',
    'query($id: ID!, $n: Int, $after: String) { paymentSource(id: $id) { code account { code } } accounts(first: $n, after: $after) { nodes { code } } }',
    { id: defaultSource().id.toUpperCase(), n: 3 },
  ],
  [
    'a literal where',
    '{ customers(where: { OR: [{ lastName: { startsWith: "M" } }, { email: { isNull: true } }] }, orderBy: [{ lastName: ASC }]) { totalCount nodes { lastName } } }',
  ],
  [
    'fragments and aliases',
    'query { a: accounts(first: 2) { ...A } b: accounts(first: 2, offset: 2) { ...A } } fragment A on AccountConnection { nodes { code paymentSources { code } } }',
  ],
  ['an unknown id', '{ customer(id: "7e57a7e5-0000-4000-8000-00000000abcd") { id } }'],
  ['a bad UUID variable', 'query($id: ID!) { customer(id: $id) { id } }', { id: 'nope' }],
  ['a missing variable', 'query($id: ID!) { customer(id: $id) { id } }', {}],
  ['a bad cursor', '{ customers(after: "zzz") { nodes { id } } }'],
  ['first out of range', 'query($n: Int) { accounts(first: $n) { nodes { id } } }', { n: 5000 }],
  ['an invalid where value', '{ paymentSources(where: { code: { gt: "A", ignoreCase: true } }) { nodes { id } } }'],
  ['introspection', getIntrospectionQuery()],
];

// One argument: a test function with more parameters than a row has values gets a `done` callback.
it.each(CASES.map(([name, query, variables]) => ({ name, query, variables })))('$name', async ({ query, variables }) => {
  const [jit, js] = await Promise.all([post('jit', query, variables), post('js', query, variables)]);
  expect(jit.status).toBe(js.status);
  expect(jit.text).toBe(js.text);
});

it('a mutation with a scalar variable, and one with an input object', async () => {
  const create = 'mutation($input: CreatePaymentSourceInput!) { createPaymentSource(input: $input) { id code isActive isDefault } }';
  const input = (code: string) => ({ code, name: 'J', accountId: defaultSource().accountId, sourceType: 'Cash' });
  const a = await post('jit', create, { input: input('JIT-A') });
  const b = await post('js', create, { input: input('JIT-B') });
  expect(a.body.data.createPaymentSource).toMatchObject({ code: 'JIT-A', isActive: true, isDefault: false });
  expect(b.body.data.createPaymentSource).toMatchObject({ code: 'JIT-B', isActive: true, isDefault: false });
  const del = 'mutation($id: ID!) { deletePaymentSource(id: $id) }';
  expect((await post('jit', del, { id: a.body.data.createPaymentSource.id })).body).toEqual({ data: { deletePaymentSource: true } });
  const again = await Promise.all([
    post('jit', del, { id: a.body.data.createPaymentSource.id }),
    post('js', del, { id: a.body.data.createPaymentSource.id }),
  ]);
  expect(again[0].text).toBe(again[1].text);
});
