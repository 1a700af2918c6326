// Batched requests as Apollo Client's BatchHttpLink sends them (a JSON array of operations in
// one POST): each operation answered on its own, at most LIMITS.batchOperations of them, and
// their costs together within one cost limit.

import { ApolloClient, InMemoryCache, gql } from '@apollo/client';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { Kind, parse } from 'graphql';
import { LIMITS, measure } from '../../src/graphql/limits';
import { readSchema } from '../../src/graphql/server';
import { subgraphSchema } from '../../src/graphql/federation';
import { resolvers } from '../../src/graphql/resolvers';
import { fixture } from '../support/fixture';
import { postGraphql, type Json } from '../support/graphql';
import { listeningTestApp } from '../support/live-app';

const live = listeningTestApp();
const reader = () => live.app().tokens.reader;

const auth = () => ({ Authorization: `Bearer ${reader()}` });

const post = (body: unknown) => postGraphql(live.url(), body, reader());

/** Apollo Client over BatchHttpLink, counting the HTTP requests it makes. */
function batchingClient(): { client: ApolloClient; requests: () => number } {
  let requests = 0;
  const counting: typeof fetch = (input, init) => {
    requests += 1;
    return fetch(input, init);
  };
  const link = new BatchHttpLink({
    uri: live.url(),
    fetch: counting,
    headers: auth(),
    batchMax: LIMITS.batchOperations,
    batchInterval: 20,
  });
  return { client: new ApolloClient({ link, cache: new InMemoryCache() }), requests: () => requests };
}

it('BatchHttpLink: three queries in one POST, each with its own result', async () => {
  const { client, requests } = batchingClient();
  const source = fixture.paymentSources[0]!;
  const [one, accounts, terms] = await Promise.all([
    client.query({
      query: gql`
        query One($id: ID!) {
          paymentSource(id: $id) {
            id
            code
          }
        }
      `,
      variables: { id: source.id },
    }),
    client.query({
      query: gql`
        query Accounts {
          accounts(first: 2) {
            totalCount
          }
        }
      `,
    }),
    client.query({
      query: gql`
        query Terms {
          academicTerms(first: 1) {
            totalCount
          }
        }
      `,
    }),
  ]);
  expect(requests()).toBe(1);
  expect(one.data).toMatchObject({ paymentSource: { id: source.id, code: source.code } });
  expect(accounts.data).toMatchObject({ accounts: { totalCount: fixture.accounts.length } });
  expect(terms.data).toMatchObject({ academicTerms: { totalCount: fixture.academicTerms.length } });
});

it('BatchHttpLink: an operation that fails gets its own error; the others their data', async () => {
  const { client, requests } = batchingClient();
  const [bad, good] = await Promise.all([
    client.query({
      query: gql`
        query Bad {
          paymentSource(id: "not-a-uuid") {
            id
          }
        }
      `,
      errorPolicy: 'all',
    }),
    client.query({
      query: gql`
        query Good {
          taxCodes(first: 1) {
            totalCount
          }
        }
      `,
      errorPolicy: 'all',
    }),
  ]);
  expect(requests()).toBe(1);
  expect(bad.error?.message).toMatch(/UUID|uuid/);
  expect(good.error).toBeUndefined();
  expect(good.data).toMatchObject({ taxCodes: { totalCount: fixture.taxCodes.length } });
});

it('a raw batch: each answer in order, errors with catalogue codes, HTTP 200 (each operation got its answer)', async () => {
  const { status, json } = await post([
    { query: '{ accounts(first: 1) { totalCount } }' },
    { query: '{ nope }' },
    { query: '{ taxCodes(first: 1) { totalCount } }' },
  ]);
  expect(status).toBe(200);
  expect(json).toHaveLength(3);
  expect(json[0].data.accounts.totalCount).toBe(fixture.accounts.length);
  expect(json[1].errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  expect(json[2].data.taxCodes.totalCount).toBe(fixture.taxCodes.length);
});

it(`more than ${LIMITS.batchOperations} operations are refused whole, before any is parsed`, async () => {
  const ops = Array.from({ length: LIMITS.batchOperations + 1 }, () => ({ query: '{ __typename }' }));
  const { status, json } = await post(ops);
  expect(status).toBe(400);
  expect(json.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  expect(json.errors[0].message).toMatch(`at most ${LIMITS.batchOperations}`);
  expect((await post(ops.slice(1))).json).toHaveLength(LIMITS.batchOperations);
});

it('a batch cannot multiply the cost limit: operations each within it, together over it, are refused once the sum is', async () => {
  const query =
    '{ a: customers(first: 1000) { nodes { id addresses { id } } } b: customers(first: 1000) { nodes { id addresses { id } } } c: customers(first: 1000) { nodes { id } } }';
  const document = parse(query);
  const schema = subgraphSchema(readSchema(), resolvers);
  const operation = document.definitions[0]!;
  if (operation.kind !== Kind.OPERATION_DEFINITION) throw new Error('an operation');
  const { cost } = measure(schema, document, operation, undefined);
  expect(cost).toBeLessThanOrEqual(LIMITS.cost);
  expect(cost * 2).toBeGreaterThan(LIMITS.cost);

  const alone = await post({ query });
  expect(alone.json.errors).toBeUndefined();
  const { json } = await post([{ query }, { query }]);
  const codes = (json as Array<{ data?: unknown; errors?: Array<{ extensions: { code: string } }> }>).map(
    (r) => r.errors?.[0]?.extensions.code ?? 'ok',
  );
  expect(codes.sort()).toEqual(['QUERY_TOO_COMPLEX', 'ok']);
  const refused = (json as Json[]).find((r: Json) => r.errors);
  expect(refused.errors[0].message).toMatch(/together/);
});
