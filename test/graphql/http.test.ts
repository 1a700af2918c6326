// The GraphQL door's Express handler over Apollo's integration API (src/graphql/http.ts), on a
// schema of its own: what reaches Apollo (method, query string, headers, body) and what comes
// back (status, headers, body). The door's own behaviour is tested through the service's app.

import { ApolloServer } from '@apollo/server';
import express from 'express';
import request from 'supertest';
import { apolloHandler } from '../../src/graphql/http';

interface Context {
  readonly caller: string;
}
const server = new ApolloServer<Context>({
  typeDefs: 'type Query { hello(name: String): String, caller: String }',
  resolvers: {
    Query: {
      hello: (_: unknown, a: { name?: string }) => `hello ${a.name ?? 'world'}`,
      caller: (_: unknown, _a: unknown, c: Context) => c.caller,
    },
  },
});
beforeAll(() => server.start());
afterAll(() => server.stop());

function app(readBody: boolean): express.Express {
  const a = express();
  const handler = apolloHandler(server, ({ req }) => Promise.resolve({ caller: `${req.method} ${req.get('x-caller') ?? ''}` }));
  a.use('/graphql', ...(readBody ? [express.json()] : []), handler);
  return a;
}
const preflight = { 'apollo-require-preflight': 'true' };

it('a GET reads its operation and variables from the query string', async () => {
  const res = await request(app(false))
    .get('/graphql')
    .query({ query: 'query($n: String) { hello(name: $n) }', variables: JSON.stringify({ n: 'Ada' }) })
    .set(preflight);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/graphql-response\+json|^application\/json/);
  expect(res.body).toEqual({ data: { hello: 'hello Ada' } });
});

it('a POST its JSON body; the context function is given the request', async () => {
  const res = await request(app(true)).post('/graphql').set('x-caller', 'billing').send({ query: '{ caller hello }' });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ data: { caller: 'POST billing', hello: 'hello world' } });
});

it("a body the door never read is an empty one: Apollo's 400, not a 500", async () => {
  const res = await request(app(false)).post('/graphql').set('content-type', 'application/json').send('{"query":"{ hello }"}');
  expect(res.status).toBe(400);
  expect(res.text).toMatch(/POST body missing/);
});

it("Apollo's status and headers come back: a query that does not parse is a 400, CSRF prevention refuses a simple GET", async () => {
  const bad = await request(app(true)).post('/graphql').send({ query: '{ hello' });
  expect(bad.status).toBe(400);
  expect(bad.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
  const simple = await request(app(false)).get('/graphql').query({ query: '{ hello }' });
  expect(simple.status).toBe(400);
  expect(simple.text).toMatch(/CSRF/);
});
