// The GraphQL door: Apollo Server 5 on Express 5 over the one service layer.
//
//  - Schema-first: schema.graphql at the project root, resolvers in ./resolvers.
//  - Every request needs a bearer token (context creation): missing or bad → HTTP 401
//    UNAUTHENTICATED. Queries need billing.read, mutations billing.write → HTTP 403 FORBIDDEN.
//    The Sandbox landing page (a GET asking for HTML, outside production) needs none.
//  - Introspection and the Sandbox only outside production; never stack traces.
//  - Limits (./limits.ts): depth and breadth as validation rules, cost per request.
//  - Decimal values leave as exact JSON numbers (scalars.ts: ExactDecimal, stringifyResult),
//    never through a binary float.
//  - Speed: operations run compiled by graphql-jit (./jit.ts); Apollo's cache-control,
//    usage-reporting, inline-trace and schema-reporting plugins are off (they cost per field
//    or per request and are of no use here); parsed and validated documents are cached by
//    Apollo; DataLoaders are per request.

import fs from 'node:fs';
import path from 'node:path';
import { ApolloServer, type ApolloServerPlugin, type GraphQLRequestListener } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
  ApolloServerPluginSchemaReportingDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { expressMiddleware } from '@as-integrations/express5';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { RequestHandler } from 'express';
import { requireScope, SCOPES } from '../auth/principal';
import type { TokenVerifier } from '../auth/tokens';
import { PROJECT_ROOT } from '../config/paths';
import type { Services } from '../domain/services';
import { AppError, isAppError } from '../errors/catalogue';
import type { Logger } from '../http/logger';
import type { GraphqlObservation } from '../http/metrics';
import type { GraphqlContext } from './context';
import { createFormatError, httpGraphQLError } from './errors';
import { checkCost, limitRules } from './limits';
import { jitGateway } from './jit';
import { Loaders } from './loaders';
import { resolvers } from './resolvers';
import { stringifyResult } from './scalars';

export interface GraphqlDeps {
  readonly services: Services;
  readonly verify: TokenVerifier;
  readonly production: boolean;
  readonly logger: Logger;
  /** Execute with graphql-jit (./jit.ts); default true. False runs graphql-js's own executor. */
  readonly jit?: boolean;
  /** Told the name, type, duration and outcome of every operation (for /metrics). */
  readonly observe?: (o: GraphqlObservation) => void;
}

export const SCHEMA_FILE = path.join(PROJECT_ROOT, 'schema.graphql');

export function readSchema(): string {
  return fs.readFileSync(SCHEMA_FILE, 'utf8');
}

/** Scope and cost checks, once the operation is known (before anything runs). */
const guard: GraphQLRequestListener<GraphqlContext> = {
  async didResolveOperation({ operation, contextValue, document, schema, request }) {
    if (!operation) return;
    try {
      requireScope(contextValue.principal, operation.operation === 'mutation' ? SCOPES.write : SCOPES.read);
    } catch (e) {
      throw isAppError(e) ? httpGraphQLError(e) : e;
    }
    checkCost(schema, document, operation, request.variables);
  },
};

const guardPlugin: ApolloServerPlugin<GraphqlContext> = {
  async requestDidStart() {
    return guard;
  },
};

/** Times each operation; only names of operations that resolved are reported (bounded by the caller). */
function observePlugin(observe: (o: GraphqlObservation) => void): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart() {
      const started = process.hrtime.bigint();
      return {
        async willSendResponse({ response, operation }) {
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : response.body.initialResult.errors;
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          observe({ name: operation?.name?.value, type: operation?.operation, seconds, ok: !errors?.length });
        },
      };
    },
  };
}

export async function createGraphqlHandler(deps: GraphqlDeps): Promise<{ handler: RequestHandler; stop(): Promise<void> }> {
  const typeDefs = readSchema();
  const schema = makeExecutableSchema<GraphqlContext>({ typeDefs, resolvers });
  const server = new ApolloServer<GraphqlContext>({
    ...(deps.jit === false ? { schema } : { gateway: jitGateway(schema, typeDefs) }),
    introspection: !deps.production,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: deps.production,
    nodeEnv: deps.production ? 'production' : 'development',
    stringifyResult,
    formatError: createFormatError({ logger: deps.logger }),
    validationRules: limitRules,
    // Apollo's own guard against documents whose fragments multiply into millions of selections.
    maxRecursiveSelections: true,
    persistedQueries: false,
    // main.ts owns SIGTERM/SIGINT: stop accepting, finish requests in flight, then stop this.
    stopOnTerminationSignals: false,
    allowBatchedHttpRequests: false,
    logger: deps.logger,
    plugins: [
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginUsageReportingDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      ApolloServerPluginSchemaReportingDisabled(),
      deps.production ? ApolloServerPluginLandingPageDisabled() : ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }),
      guardPlugin,
      ...(deps.observe ? [observePlugin(deps.observe)] : []),
    ],
  });
  await server.start();

  const middleware = expressMiddleware(server, {
    context: async ({ req, res }): Promise<GraphqlContext> => {
      let principal;
      try {
        principal = await deps.verify(req.get('authorization'));
      } catch (e) {
        throw httpGraphQLError(isAppError(e) ? e : new AppError('UNAUTHENTICATED', 'The token is not valid'));
      }
      // For the request log line (src/http/request-context.ts).
      res.locals.principal = principal;
      return { principal, services: deps.services, loaders: new Loaders(deps.services) };
    },
  });

  const handler: RequestHandler = (req, res, next) => {
    // express.json leaves req.body unset on a GET; Apollo's integration wants it present.
    if (!('body' in req) || req.body === undefined) (req as { body?: unknown }).body = {};
    return middleware(req, res, next);
  };

  return { handler, stop: () => server.stop() };
}
