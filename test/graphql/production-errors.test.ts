// Under NODE_ENV=production no GraphQL error suggests a field, type or value name, variable
// coercion errors included; and the service's own faults are logged with the request id.

import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import { createTokenVerifier } from '../../src/auth/tokens';
import type { Services } from '../../src/domain/services';
import { createGraphqlHandler } from '../../src/graphql/server';
import { requestContext } from '../../src/http/request-context';
import { createTestApp, TEST_SECRET, type TestApp } from '../support/app';
import { activeAssetAccount } from '../support/fixture';
import { gqlRequest } from '../support/graphql';

let t: TestApp;
let prod: express.Express;
let stop: () => Promise<void>;
const lines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  t = await createTestApp({ demoData: false });
  // A service whose account list fails as a fault of the service would (the message holds SQL).
  const accounts = Object.create(t.services.accounts) as Services['accounts'];
  accounts.listSelected = () => Promise.reject(new Error('boom: SELECT * FROM "Account"'));
  const services: Services = { ...t.services, accounts, readers: { ...t.services.readers, Account: accounts } };
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  const door = await createGraphqlHandler({ services, verify: createTokenVerifier({ secret: TEST_SECRET }), production: true, logger });
  stop = door.stop;
  prod = express();
  prod.use(requestContext(logger));
  // express.json first, as in a setup that parses bodies itself (the handler then reads none).
  prod.use('/graphql', express.json(), door.handler);
});
afterAll(async () => {
  await stop();
  await t.close();
});

const post = (query: string, variables?: Record<string, unknown>) => gqlRequest(prod, { query, variables }, t.tokens.writer);

describe('production: no name suggestions', () => {
  const cases: Array<[string, string, Record<string, unknown> | undefined, RegExp]> = [
    [
      'an enum value in a variable',
      'mutation($i: CreatePaymentSourceInput!) { createPaymentSource(input: $i) { id } }',
      {
        i: { code: 'P-1', name: 'P', accountId: activeAssetAccount().id, sourceType: 'Cas' },
      },
      /"Cas"/,
    ],
    [
      'an input field in a variable',
      'query($w: PaymentSourceWhere) { paymentSources(where: $w) { totalCount } }',
      { w: { isActiv: { eq: true } } },
      /isActiv/,
    ],
    [
      'an enum value in a variable list',
      'query($w: PaymentSourceWhere) { paymentSources(where: $w) { totalCount } }',
      { w: { sourceType: { in: ['Cash', 'Chek'] } } },
      /Chek/,
    ],
    ['a field in the document', '{ paymentSources { totalCont } }', undefined, /totalCont/],
    ['an argument in the document', '{ paymentSources(frist: 1) { totalCount } }', undefined, /frist/],
    ['an enum literal', '{ paymentSources(where: { sourceType: { eq: Cas } }) { totalCount } }', undefined, /Cas/],
  ];
  it.each(cases)('%s: refused without "Did you mean"', async (_what, query, variables, names) => {
    const res = await post(query, variables);
    expect(res.status).toBe(400);
    // The error is about the misspelt name (it is named), without suggesting the right one.
    expect(res.body.errors[0].message).toMatch(names);
    expect(res.text).not.toMatch(/Did you mean/i);
    expect(res.text).not.toMatch(/"Cash"|"isActive"|totalCount"\?|"first"/);
  });
});

describe('production: internal errors', () => {
  it('answers INTERNAL with a fixed message and logs the fault with the request id', async () => {
    lines.length = 0;
    const res = await post('{ accounts(first: 1) { nodes { id } } }');
    expect(res.body.errors[0].extensions.code).toBe('INTERNAL');
    expect(res.text).not.toMatch(/boom|SELECT/);
    const requestId = res.headers['x-request-id'];
    expect(requestId).toBeTruthy();
    const logged = lines.find((l) => l.msg === 'internal error in a GraphQL operation');
    expect(logged).toMatchObject({ requestId, error: { message: 'boom: SELECT * FROM "Account"'.split(/\bSELECT/)[0]!.trim() } });
  });
});
