// The assumptions of src/graphql/apollo-internals.ts, held to the installed @apollo/server,
// @apollo/subgraph and graphql-js: a failure here after an upgrade names the assumption that no longer holds.

import { createHash } from 'node:crypto';
import { ApolloServer, HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { InMemoryLRUCache, PrefixingKeyValueCache } from '@apollo/utils.keyvaluecache';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { MapperKind, mapSchema } from '@graphql-tools/utils';
import { buildSchema, execute, GraphQLError, parse } from 'graphql';
import {
  hasSuggestion,
  isTokenLimitMessage,
  isVariableFault,
  SUGGESTION,
  type Executor,
  withReferenceResolver,
  type Gateway,
} from '../../src/graphql/apollo-internals';
import type { GraphqlContext } from '../../src/graphql/context';

const SDL = 'type Query { hello(times: Int): String, isActive: Boolean }';
const schema = buildSchema(SDL);
const contextValue = {} as GraphqlContext;

/** A single result's errors, from executeOperation. */
function errorsOf(
  res: Awaited<ReturnType<ApolloServer<GraphqlContext>['executeOperation']>>,
): readonly { message: string; extensions?: Record<string, unknown> }[] {
  if (res.body.kind !== 'single') throw new Error('expected a single result');
  return res.body.singleResult.errors ?? [];
}

it('1. hooks run in plugin order, every check before any answer, and the gateway executor last, with the context value the hooks had', async () => {
  const calls: string[] = [];
  // Apollo hands the hooks a copy of the context it was given: the same copy to each.
  const answerContexts: unknown[] = [];
  let executorContext: unknown;
  const executor: Executor = async (rc) => {
    calls.push('executor');
    executorContext = rc.context;
    return { data: { hello: 'from the executor' } };
  };
  const gateway: Gateway = {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: SDL });
      return () => undefined;
    },
    load: async () => ({ executor }),
    stop: async () => undefined,
  };
  const plugin = (name: string): ApolloServerPlugin<GraphqlContext> => ({
    async requestDidStart() {
      return {
        async didResolveOperation() {
          calls.push(`${name}.didResolveOperation`);
        },
        async responseForOperation(rc) {
          calls.push(`${name}.responseForOperation`);
          answerContexts.push(rc.contextValue);
          return null;
        },
      };
    },
  });
  const server = new ApolloServer<GraphqlContext>({ gateway, plugins: [plugin('first'), plugin('last')] });
  await server.start();
  try {
    const res = await server.executeOperation({ query: '{ hello }' }, { contextValue });
    expect(res.body.kind === 'single' && res.body.singleResult.data).toEqual({ hello: 'from the executor' });
    expect(calls).toEqual([
      'first.didResolveOperation',
      'last.didResolveOperation',
      'first.responseForOperation',
      'last.responseForOperation',
      'executor',
    ]);
    expect(answerContexts[0]).toBe(answerContexts[1]);
    expect(executorContext).toBe(answerContexts[0]);
  } finally {
    await server.stop();
  }
});

describe('graphql-js messages, through Apollo', () => {
  let server: ApolloServer<GraphqlContext>;
  beforeAll(async () => {
    server = new ApolloServer<GraphqlContext>({
      typeDefs: SDL,
      resolvers: { Query: { hello: () => 'hi' } },
      parseOptions: { maxTokens: 30 },
    });
    await server.start();
  });
  afterAll(() => server.stop());

  it('2. a variable that does not fit its type: no path, `Variable "$...`, BAD_USER_INPUT', async () => {
    const [error] = errorsOf(
      await server.executeOperation({ query: 'query ($n: Int) { hello(times: $n) }', variables: { n: 'x' } }, { contextValue }),
    );
    expect(error?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(isVariableFault(new GraphQLError(error!.message))).toBe(true);
  });

  it('3. the parser stops at maxTokens with the message recognised, as GRAPHQL_PARSE_FAILED', async () => {
    const [error] = errorsOf(await server.executeOperation({ query: `{ ${'hello '.repeat(40)}}` }, { contextValue }));
    expect(error?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(isTokenLimitMessage(error!.message)).toBe(true);
  });

  it('4. name suggestions are found and cut', async () => {
    const [error] = errorsOf(await server.executeOperation({ query: '{ isActiv }' }, { contextValue }));
    expect(hasSuggestion(error!.message)).toBe(true);
    expect(error!.message.replace(SUGGESTION, '')).toBe('Cannot query field "isActiv" on type "Query".');
  });
});

describe('persisted queries and batches', () => {
  const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
  const refuseIsActive: ApolloServerPlugin<GraphqlContext> = {
    async requestDidStart() {
      return {
        async didResolveOperation({ request }) {
          if (request.query?.includes('isActive')) throw new GraphQLError('refused by a check');
        },
      };
    },
  };

  it('5. a persisted query is registered only once every didResolveOperation hook has passed', async () => {
    const cache = new InMemoryLRUCache();
    const server = new ApolloServer<GraphqlContext>({
      typeDefs: SDL,
      resolvers: { Query: { hello: () => 'hi', isActive: () => true } },
      persistedQueries: { cache: PrefixingKeyValueCache.cacheDangerouslyDoesNotNeedPrefixesForIsolation(cache) },
      plugins: [refuseIsActive],
    });
    await server.start();
    try {
      for (const query of ['{ isActive }', '{ hello }']) {
        await server.executeOperation(
          { query, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } } },
          { contextValue },
        );
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(cache.keys()).toEqual([sha256('{ hello }')]);
    } finally {
      await server.stop();
    }
  });

  it('6. one context per call, made before parsing; copies of one value share their members; a thrown error answers alone', async () => {
    const seen: unknown[] = [];
    const server = new ApolloServer<GraphqlContext>({
      typeDefs: SDL,
      resolvers: { Query: { hello: () => 'hi' } },
      plugins: [
        {
          async requestDidStart({ contextValue: c }) {
            seen.push(c);
          },
        },
      ],
    });
    await server.start();
    try {
      const headers = new HeaderMap([['content-type', 'application/json']]);
      let made = 0;
      const shared = { ...contextValue, budget: { spent: 0 } };
      const context = async () => {
        made += 1;
        return { ...shared };
      };
      for (const body of [{ query: '{ hello }' }, { query: '{ hello }' }])
        await server.executeHTTPGraphQLRequest({ httpGraphQLRequest: { method: 'POST', headers, search: '', body }, context });
      expect(made).toBe(2);
      expect(seen).toHaveLength(2);
      // Each operation has its own context object; the objects inside are the same.
      expect(seen[0]).not.toBe(seen[1]);
      const budgets = seen.map((c) => (c as GraphqlContext).budget);
      expect(budgets[0]).toEqual({ spent: 0 });
      expect(budgets[0]).toBe(budgets[1]);
      const refused = await server.executeHTTPGraphQLRequest({
        httpGraphQLRequest: { method: 'POST', headers, search: '', body: { query: '{ not graphql' } },
        context: async () => {
          throw new GraphQLError('refused before parsing', { extensions: { code: 'REFUSED', http: { status: 400 } } });
        },
      });
      expect(refused.status).toBe(400);
      const text = refused.body.kind === 'complete' ? refused.body.string : '';
      expect(JSON.parse(text)).toEqual({ errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'REFUSED' }) })] });
    } finally {
      await server.stop();
    }
  });
});

it("7. @apollo/subgraph's _entities calls the reference resolver set in the type's extensions, with the representation, context and info", async () => {
  const calls: unknown[][] = [];
  const subgraph = mapSchema(
    buildSubgraphSchema(
      parse(
        'extend schema @link(url: "https://specs.apollo.dev/federation/v2.5", import: ["@key"]) type Thing @key(fields: "id") { id: ID! name: String } type Query { thing: Thing }',
      ),
    ),
    {
      [MapperKind.OBJECT_TYPE]: (type) =>
        type.name === 'Thing'
          ? withReferenceResolver(type, (reference, context, info) => {
              calls.push([reference, context, info.fieldName]);
              return { id: 'x', name: 'resolved' };
            })
          : type,
    },
  );
  const result = await execute({
    schema: subgraph,
    document: parse('{ _entities(representations: [{ __typename: "Thing", id: "x" }]) { ... on Thing { name } } }'),
    contextValue,
  });
  expect(result).toEqual({ data: { _entities: [{ name: 'resolved' }] } });
  expect(calls).toEqual([[{ __typename: 'Thing', id: 'x' }, contextValue, '_entities']]);
});
