// The assumptions of src/graphql/apollo-internals.ts, held to the installed @apollo/server
// and graphql-js: a failure here after an upgrade names the assumption that no longer holds.

import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { buildSchema, GraphQLError } from 'graphql';
import { hasSuggestion, isTokenLimitMessage, isVariableFault, SUGGESTION, type Executor, type Gateway } from '../../src/graphql/apollo-internals';
import type { GraphqlContext } from '../../src/graphql/context';

const SDL = 'type Query { hello(times: Int): String, isActive: Boolean }';
const schema = buildSchema(SDL);
const contextValue = {} as GraphqlContext;

/** A single result's errors, from executeOperation. */
function errorsOf(res: Awaited<ReturnType<ApolloServer<GraphqlContext>['executeOperation']>>): readonly { message: string; extensions?: Record<string, unknown> }[] {
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
    expect(calls).toEqual(['first.didResolveOperation', 'last.didResolveOperation', 'first.responseForOperation', 'last.responseForOperation', 'executor']);
    expect(answerContexts[0]).toBe(answerContexts[1]);
    expect(executorContext).toBe(answerContexts[0]);
  } finally {
    await server.stop();
  }
});

describe('graphql-js messages, through Apollo', () => {
  let server: ApolloServer<GraphqlContext>;
  beforeAll(async () => {
    server = new ApolloServer<GraphqlContext>({ typeDefs: SDL, resolvers: { Query: { hello: () => 'hi' } }, parseOptions: { maxTokens: 30 } });
    await server.start();
  });
  afterAll(() => server.stop());

  it('2. a variable that does not fit its type: no path, `Variable "$...`, BAD_USER_INPUT', async () => {
    const [error] = errorsOf(await server.executeOperation({ query: 'query ($n: Int) { hello(times: $n) }', variables: { n: 'x' } }, { contextValue }));
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
