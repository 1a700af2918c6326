// Limits that hold before the work: a GraphQL document is refused while it is parsed when it
// has more tokens than any real query needs (so a 1,000-alias document costs a parse of the
// first few thousand tokens, not a parse, a validation and a walk of all of it), variables
// nested deeper than any input needs are refused before they are coerced, and every other
// limit (depth, root fields, aliases, cost) comes from one walk of the operation.

import request from 'supertest';
import { createTestApp, type TestApp, bearer } from '../support/app';
import { gql, gqlOk } from '../support/graphql';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demoData: false });
});
afterAll(async () => {
  await t.close();
});

/** The document of the attack: 1,000 aliased root fields, about 42 KB. */
const aliasBomb = (n = 1000): string =>
  `query { ${Array.from({ length: n }, (_, i) => `a${i}: accounts(first: 1) { nodes { id code name } }`).join(' ')} }`;

/** The JSON text of a where nested `depth` levels deep through OR lists (written as text: JSON.stringify recurses). */
const deepWhere = (depth: number): string => `${'{"OR":['.repeat(depth)}{"code":{"eq":"x"}}${']}'.repeat(depth)}`;
const WHERE_QUERY = 'query($w: PaymentSourceWhere) { paymentSources(where: $w) { totalCount } }';
const postWhere = (depth: number) =>
  request(t.http)
    .post('/graphql')
    .set(bearer(t.tokens.reader))
    .set('Content-Type', 'application/json')
    .send(`{"query":${JSON.stringify(WHERE_QUERY)},"variables":{"w":${deepWhere(depth)}}}`);

describe('refused while parsing', () => {
  it('a 1,000-alias document is QUERY_TOO_COMPLEX from the token limit of the parser: it was never validated', async () => {
    const doc = aliasBomb();
    expect(doc.length).toBeGreaterThan(40_000);
    const res = await gql(t, doc);
    expect(res.status).toBe(400);
    expect(res.errors).toHaveLength(1);
    expect(res.errors?.[0]?.extensions.code).toBe('QUERY_TOO_COMPLEX');
    // graphql-js's parser stops at maxTokens with exactly this message; a validation or a
    // walk of the whole document would have reported the aliases or the root fields instead.
    expect(res.errors?.[0]?.message).toMatch(/^Syntax Error: Document contains more th(?:an|at) 2000 tokens\. Parsing aborted\.$/);
  });

  it('the introspection query of the Sandbox stays well inside the token limit', async () => {
    const { getIntrospectionQuery } = await import('graphql');
    const data = await gqlOk(t, getIntrospectionQuery());
    expect(data.__schema.queryType.name).toBe('Query');
  });

  it('below the token limit, 51 aliases are still refused by the alias limit', async () => {
    const res = await gql(t, aliasBomb(51).replace(/ \{ nodes \{ id code name \} \}/g, ' { totalCount }'));
    expect(res.status).toBe(400);
    expect(res.errors?.[0]?.extensions.code).toBe('QUERY_TOO_COMPLEX');
    expect(res.errors?.[0]?.message).toMatch(/aliases|root fields/);
  });
});

describe('variables nested deeper than any input needs', () => {
  it.each([1000, 10_000])('a where nested %i deep in variables is a 400, never a stack overflow or INTERNAL', async (depth) => {
    const res = await postWhere(depth);
    expect(res.status).toBe(400);
    expect(['QUERY_TOO_COMPLEX', 'INVALID_QUERY']).toContain(res.body.errors?.[0]?.extensions.code);
  });

  it('a where nested 40 deep still works', async () => {
    const res = await postWhere(40);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { paymentSources: { totalCount: 0 } } });
  });
});
