// The GraphQL door: Apollo Server 5 on Express 5 over the one service layer.
//
//  - Schema-first: schema.graphql at the project root, resolvers in ./resolvers.
//  - Every request needs a bearer token (context creation): missing or bad → HTTP 401
//    UNAUTHENTICATED. Queries need billing.read, mutations billing.write → HTTP 403 FORBIDDEN.
//    A browser's GET gets Apollo Sandbox outside production (./sandbox.ts), without a token.
//  - CSRF prevention: Apollo's, plus `Authorization` as a header that proves a request is not
//    a cross-site form or image (browsers send it only from scripts, after a CORS preflight),
//    so queries as GET with a token work (urql's default).
//  - Introspection and the Sandbox landing page only outside production; never stack traces.
//  - Limits (./limits.ts): tokens while parsing (graphql-js maxTokens), then variables
//    nesting, depth, breadth and cost once the operation is known, before anything runs.
//  - Decimal values leave as exact JSON numbers (the Decimal scalar gives an exactNumber, src/http/json.ts writes it),
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
import { expressMiddleware } from '@as-integrations/express5';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { Request, RequestHandler } from 'express';
import { OperationTypeNode } from 'graphql';
import { requireScope, SCOPES, seesPersonalData, type Principal } from '../auth/principal';
import type { TokenVerifier } from '../auth/tokens';
import { PROJECT_ROOT } from '../config/paths';
import type { Services } from '../domain/services';
import { AppError, ERRORS, isAppError, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors/catalogue';
import { jsonBody } from '../http/body';
import { stringifyExact } from '../http/json';
import type { Logger } from '../http/logger';
import type { ErrorClassifier } from '../http/problem';
import { wantsHtml } from '../http/tool-pages';
import type { ReadRouting } from '../http/read-routing';
import type { GraphqlObservation } from '../http/metrics';
import type { GraphqlContext, LiveChanges } from './context';
import { createFormatError, httpGraphQLError, logInternalErrors } from './errors';
import { checkLimits, checkVariables, LIMITS } from './limits';
import { variableFaults } from './variables';
import { jitExecution } from './jit';
import { checkPersonalFields } from './personal';
import { Loaders } from './loaders';
import { resolvers } from './resolvers';
import { sandboxLandingPage } from './sandbox';
import { subscriptionServer, type SubscriptionServer } from './subscriptions';

export interface GraphqlDeps {
  readonly services: Services;
  readonly verify: TokenVerifier;
  readonly production: boolean;
  readonly logger: Logger;
  /** Recognises database failures (down, stalled, timing out) as SERVICE_UNAVAILABLE. */
  readonly classifyError?: ErrorClassifier | undefined;
  /** With read replicas: a mutation and a recent writer's queries read from the primary. */
  readonly readRouting?: ReadRouting | undefined;
  /** Execute with graphql-jit (./jit.ts); default true. False runs graphql-js's own executor. */
  readonly jit?: boolean;
  /** Told the name, type, duration and outcome of every operation (for /metrics). */
  readonly observe?: (o: GraphqlObservation) => void;
  /** The change log, live: enables subscriptions over WebSocket (./subscriptions.ts). */
  readonly live?: LiveChanges | undefined;
}

/** Apollo's recommended CSRF-prevention headers (its default, which setting the option replaces). */
const APOLLO_CSRF_HEADERS = ['x-apollo-operation-name', 'apollo-require-preflight'];

export const SCHEMA_FILE = path.join(PROJECT_ROOT, 'schema.graphql');

export function readSchema(): string {
  return fs.readFileSync(SCHEMA_FILE, 'utf8');
}

/** Scope, limit and variable checks, once the operation is known (before graphql-js coerces variables or anything runs). */
const guard: GraphQLRequestListener<GraphqlContext> = {
  async didResolveOperation({ operation, contextValue, document, schema, request }) {
    if (!operation) return;
    if (operation.operation === OperationTypeNode.SUBSCRIPTION) {
      throw httpGraphQLError(new AppError('WRONG_TRANSPORT', 'Subscriptions are served over WebSocket (graphql-ws, subprotocol graphql-transport-ws) at this path'));
    }
    try {
      requireScope(contextValue.principal, operation.operation === OperationTypeNode.MUTATION ? SCOPES.write : SCOPES.read);
    } catch (e) {
      throw isAppError(e) ? httpGraphQLError(e) : e;
    }
    checkVariables(request.variables);
    checkLimits(schema, document, operation, request.variables);
    const faults = variableFaults(schema, operation, request.variables ?? {});
    if (faults) throw httpGraphQLError(faults);
    if (!seesPersonalData(contextValue.principal)) checkPersonalFields(schema, document, operation, request.variables);
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
/**
 * A retryable outage is told apart from a fault by HTTP status too: any SERVICE_UNAVAILABLE
 * error (the database down or timing out) makes the response a 503 with Retry-After.
 */
const unavailablePlugin: ApolloServerPlugin<GraphqlContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        const failed = response.body.singleResult.errors?.some((e) => e.extensions?.code === 'SERVICE_UNAVAILABLE');
        if (!failed) return;
        response.http.status = ERRORS.SERVICE_UNAVAILABLE.status;
        response.http.headers.set('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      },
    };
  },
};

/** A mutation writes: it and the caller's reads for a while go to the primary. */
const readRoutingPlugin = (routing: ReadRouting): ApolloServerPlugin<GraphqlContext> => ({
  async requestDidStart() {
    return {
      async didResolveOperation({ operation, contextValue }) {
        if (operation?.operation === OperationTypeNode.MUTATION) routing.wrote(contextValue.principal.userId);
      },
    };
  },
});

/** The service's own faults are logged with the request's logger, so with its request id. */
const logPlugin = (fallback: Logger, classify: ErrorClassifier | undefined): ApolloServerPlugin<GraphqlContext> => ({
  async requestDidStart() {
    return {
      async didEncounterErrors({ errors, contextValue }) {
        // The context exists for every request that reaches the pipeline; the fallback is a belt.
        logInternalErrors(errors, (contextValue as GraphqlContext | undefined)?.log ?? fallback, classify);
      },
    };
  },
});

export interface GraphqlDoor {
  readonly handler: RequestHandler;
  /** WebSocket upgrades at /graphql (undefined without GraphqlDeps.live). */
  readonly subscriptions: SubscriptionServer | undefined;
  readonly stop: () => Promise<void>;
}

export async function createGraphqlHandler(deps: GraphqlDeps): Promise<GraphqlDoor> {
  const typeDefs = readSchema();
  const schema = makeExecutableSchema<GraphqlContext>({ typeDefs, resolvers });
  const jit = deps.jit === false ? undefined : jitExecution(schema, typeDefs);
  const landing = deps.production ? undefined : sandboxLandingPage();
  const server = new ApolloServer<GraphqlContext>({
    ...(jit ? { gateway: jit.gateway } : { schema }),
    introspection: !deps.production,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: deps.production,
    nodeEnv: deps.production ? 'production' : 'development',
    stringifyResult: stringifyExact,
    formatError: createFormatError({ production: deps.production, classifyError: deps.classifyError }),
    // Refused while parsing: a document over the limit is never parsed whole, validated or walked.
    parseOptions: { maxTokens: LIMITS.tokens },
    // Apollo's own guard against documents whose fragments multiply into millions of selections.
    maxRecursiveSelections: true,
    persistedQueries: false,
    csrfPrevention: { requestHeaders: [...APOLLO_CSRF_HEADERS, 'authorization'] },
    // main.ts owns SIGTERM/SIGINT: stop accepting, finish requests in flight, then stop this.
    stopOnTerminationSignals: false,
    allowBatchedHttpRequests: false,
    logger: deps.logger,
    plugins: [
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginUsageReportingDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      ApolloServerPluginSchemaReportingDisabled(),
      landing ? landing.plugin : ApolloServerPluginLandingPageDisabled(),
      guardPlugin,
      ...(deps.observe ? [observePlugin(deps.observe)] : []),
      logPlugin(deps.logger, deps.classifyError),
      unavailablePlugin,
      ...(deps.readRouting ? [readRoutingPlugin(deps.readRouting)] : []),
      // Answers the operation: last, after every check (./apollo-internals.ts, assumption 1).
      ...(jit ? [jit.plugin] : []),
    ],
  });
  await server.start();

  // The outcome of the token check, made before the body is read (handler below).
  const verified = new WeakMap<Request, Principal | AppError>();

  const middleware = expressMiddleware(server, {
    context: async ({ req, res }): Promise<GraphqlContext> => {
      const principal = verified.get(req);
      if (principal === undefined || principal instanceof AppError) {
        throw httpGraphQLError(principal ?? new AppError('UNAUTHENTICATED', 'The token is not valid'));
      }
      // For the request log line (src/http/request-context.ts).
      res.locals.principal = principal;
      deps.readRouting?.caller(principal.userId);
      return { principal, services: deps.services, loaders: new Loaders(deps.services), log: res.locals.log ?? deps.logger, requestId: res.locals.requestId };
    },
  });

  const readBody = jsonBody();
  const readScope: RequestHandler = deps.readRouting ? deps.readRouting.scope() : (_req, _res, next) => next();
  const run: RequestHandler = (req, res, next) => {
    // The body reader leaves req.body unset on a GET; Apollo's integration wants it present.
    if (!('body' in req) || req.body === undefined) (req as { body?: unknown }).body = {};
    return middleware(req, res, next);
  };

  // The token is checked first; without a valid one the body is never read or parsed, and
  // Apollo answers 401 from the context function (the Sandbox page needs none: Apollo serves
  // it before the context exists).
  const handler: RequestHandler = async (req, res, next) => {
    if (landing && wantsHtml(req)) landing.headers(res);
    try {
      verified.set(req, await deps.verify(req.get('authorization')));
    } catch (e) {
      verified.set(req, isAppError(e) ? e : new AppError('UNAUTHENTICATED', 'The token is not valid'));
      (req as { body?: unknown }).body = {};
      return run(req, res, next);
    }
    // The read scope (replicas) opens once the body is read: stream callbacks run outside it.
    return readBody(req, res, (err?: unknown) => (err ? next(err) : readScope(req, res, () => run(req, res, next))));
  };

  const subscriptions = deps.live
    ? subscriptionServer({ schema, services: deps.services, verify: deps.verify, live: deps.live, logger: deps.logger, production: deps.production, classifyError: deps.classifyError, path: '/graphql' })
    : undefined;

  return {
    handler,
    subscriptions,
    async stop() {
      await subscriptions?.close();
      await server.stop();
    },
  };
}
