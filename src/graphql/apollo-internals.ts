// What the GraphQL door assumes of @apollo/server 5, @apollo/subgraph 2 and graphql-js 16 beyond their
// documented API, in one place. test/graphql/apollo-internals.test.ts holds each assumption
// to the installed packages, so an upgrade that breaks one fails that test; the versions the
// code depends on are pinned exactly in package.json.

import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import { GraphQLObjectType, type GraphQLError, type GraphQLResolveInfo } from 'graphql';
import type { GraphqlContext } from './context';

/**
 * 1. Apollo runs a custom executor only through its gateway interface (src/graphql/jit.ts
 *    poses as a gateway that hands over the local schema). It calls the plugins'
 *    didResolveOperation hooks, in plugin order, then their responseForOperation hooks, and
 *    only when none answered the gateway's executor, handing it the request's context value
 *    itself (jit.ts keys a WeakMap by it). So the plugin that answers operations comes last
 *    in server.ts, after the checks.
 */
export type Gateway = ApolloServerOptionsWithGateway<GraphqlContext>['gateway'];
export type Executor = Awaited<ReturnType<Gateway['load']>>['executor'];
export type ExecutorResult = Awaited<ReturnType<NonNullable<Executor>>>;

/**
 * 2. A variable value that does not fit its type, as graphql-js reports it: no path, a
 *    message starting `Variable "$`. Apollo gives such errors BAD_USER_INPUT.
 */
export const isVariableFault = (e: GraphQLError): boolean => e.path === undefined && e.message.startsWith('Variable "$');

/**
 * 3. The message graphql-js's parser stops with at maxTokens, which Apollo reports as
 *    GRAPHQL_PARSE_FAILED (errors.ts makes it QUERY_TOO_COMPLEX). graphql 16 writes "more
 *    that"; later versions may fix the typo.
 */
export const isTokenLimitMessage = (message: string): boolean =>
  /Document contains more th(?:an|at) \d+ tokens\. Parsing aborted\./.test(message);

/** 4. graphql-js's name suggestions in messages: `Did you mean "isActive"?`, `Did you mean the enum value "Cash"?`. */
export const SUGGESTION = /\s*Did you mean [^?]*\?/g;
export const hasSuggestion = (text: string): boolean => text.includes('Did you mean');

/**
 * 5. Apollo registers an automatic persisted query (hash and text) in its store only after
 *    every plugin's didResolveOperation hook has returned: one that throws (server.ts's guard:
 *    scope, limits, variables) leaves the store as it was, so nothing over a limit is ever
 *    registered. A stored text is parsed and goes through the same hooks at each use.
 *
 * 6. The context function runs once per call of executeHTTPGraphQLRequest, before the
 *    operation is parsed, and the operation runs with the value it returns (or a shallow
 *    copy): server.ts runs a batch's operations through one call each and returns copies of
 *    one value made per HTTP request, so an object in it (the cost budget) is shared by the
 *    batch. A context function that throws answers the call with that error alone.
 */

/**
 * 7. @apollo/subgraph's `_entities` calls an entity type's reference resolver from
 *    `extensions.apollo.subgraph.resolveReference` of the object type (where its own resolver
 *    map puts `__resolveReference` since apollographql/federation#1746), with the
 *    representation, the context value and the `_entities` field's info. Set there, the
 *    resolver keeps its type (the map types `__resolveReference` as a field resolver) and
 *    survives graphql-tools' schema mapping.
 */
export function withReferenceResolver(
  type: GraphQLObjectType,
  resolveReference: (reference: object, context: GraphqlContext, info: GraphQLResolveInfo) => unknown,
): GraphQLObjectType {
  const config = type.toConfig();
  return new GraphQLObjectType({ ...config, extensions: { ...config.extensions, apollo: { subgraph: { resolveReference } } } });
}
