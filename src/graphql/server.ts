// The GraphQL door: Apollo Server 5 on Express 5 over the one service layer.
//
//  - Schema-first: schema.graphql at the project root, resolvers in ./resolvers; an Apollo
//    Federation 2 subgraph (`_service`, `_entities`: ./federation.ts).
//  - Every request needs a bearer token, checked first: missing or bad → HTTP 401
//    UNAUTHENTICATED (with WWW-Authenticate), answered before the body is read or Apollo
//    runs. Queries need billing.read, mutations billing.write → HTTP 403 FORBIDDEN.
//    A browser's GET gets Apollo Sandbox outside production (./sandbox.ts), without a token.
//  - CSRF prevention: Apollo's, plus `Authorization` as a header that proves a request is not
//    a cross-site form or image (browsers send it only from scripts, after a CORS preflight),
//    so queries as GET with a token work (urql's default). A form or image carries no token,
//    so the token check refuses it first (401, not a CSRF message); Apollo's stays as a belt.
//  - Introspection and the Sandbox landing page only outside production; never stack traces.
//  - Limits (./limits.ts): tokens while parsing (graphql-js maxTokens), then variables
//    nesting, depth, breadth and cost once the operation is known, before anything runs.
//  - Decimal values leave as exact JSON numbers (the Decimal scalar gives an exactNumber, src/http/json.ts writes it),
//    never through a binary float.
//  - Persisted documents (./persisted): automatic persisted queries (Apollo's protocol, its
//    store bounded in process or shared through Redis) and the trusted-documents manifest
//    (`documentId`; with GRAPHQL_DOCUMENTS=trusted, in any mode, nothing else runs). A
//    stored or named document is parsed and checked like one sent whole, every time.
//  - Batches (a JSON array of operations, Apollo's BatchHttpLink): at most
//    LIMITS.batchOperations, each answered on its own (HTTP 200, ./http.ts), their costs
//    within one limit.
//  - Every refusal, whichever layer makes it (token, rate limit, body, documents), leaves
//    in the GraphQL shape with extensions.code (./http.ts sendGraphqlError, `errors` below).
//  - GET answers carry `Cache-Control: private, no-store`: they depend on the token.
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
import { PrefixingKeyValueCache, type KeyValueCache } from '@apollo/utils.keyvaluecache';
import { notingMutations } from './atomic';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { OperationTypeNode } from 'graphql';
import { requireScope, SCOPES, seesPersonalData, type Principal } from '../auth/principal';
import type { TokenVerifier } from '../auth/tokens';
import { PROJECT_ROOT } from '../config/paths';
import type { Services } from '../domain/services';
import { AppError, ERRORS, isAppError, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors/catalogue';
import { jsonBody } from '../http/body';
import { stringifyExact } from '../http/json';
import type { Logger } from '../http/logger';
import { toAppError, type ErrorClassifier } from '../http/problem';
import { wantsHtml } from '../pages/serve';
import type { ReadRouting } from '../http/read-routing';
import type { GraphqlObservation } from '../http/metrics';
import type { GraphqlContext, LiveChanges } from './context';
import { createFormatError, httpGraphQLError, logInternalErrors } from './errors';
import { chargeCost, checkLimits, checkVariables, LIMITS } from './limits';
import { admitDocuments, type DocumentPolicy } from './persisted/documents';
import { loadManifest } from './persisted/manifest';
import { APQ_LIMITS, apqStore, withManifest } from './persisted/store';
import { variableFaults } from './variables';
import { apolloHandler, sendGraphqlError, type HttpContextArgument } from './http';
import { subgraphSchema } from './federation';
import { jitExecution } from './jit';
import { checkPersonalFields } from './personal';
import { Loaders } from './loaders';
import { resolvers } from './resolvers';
import { mutationScopes } from './resolvers/mutation';
import { sandboxLandingPage } from '../pages/sandbox';
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
  /** Execute with graphql-jit (./jit.ts); default true. False runs every operation on graphql-js, through the same executor. */
  readonly jit?: boolean;
  /** Told the name, type, duration and outcome of every operation (for /metrics). */
  readonly observe?: (o: GraphqlObservation) => void;
  /** The change log, live: enables subscriptions over WebSocket (./subscriptions.ts). */
  readonly live?: LiveChanges | undefined;
  /** Shared state across instances: the persisted-query store lives there when given. */
  readonly redis?: { readonly client: Redis; readonly keyPrefix: string } | undefined;
  /** The trusted-documents manifest (a path or URL, read at start) and whether only its documents run. */
  readonly documents?: { readonly manifest: string | undefined; readonly trustedOnly: boolean };
  /** The persisted-query store to use instead of the one built from `redis` (tests look into it). */
  readonly apqStore?: KeyValueCache;
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
      throw httpGraphQLError(
        new AppError(
          'WRONG_TRANSPORT',
          'Subscriptions are served over WebSocket (graphql-ws, subprotocol graphql-transport-ws) at this path',
        ),
      );
    }
    try {
      for (const scope of operation.operation === OperationTypeNode.MUTATION ? mutationScopes(operation) : [SCOPES.read])
        requireScope(contextValue.principal, scope);
    } catch (e) {
      throw isAppError(e) ? httpGraphQLError(e) : e;
    }
    checkVariables(request.variables);
    const cost = checkLimits(schema, document, operation, request.variables);
    if (contextValue.budget) chargeCost(contextValue.budget, cost);
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

const NO_STORE = 'private, no-store';

/** A GET's answer depends on the token: no cache, shared or the browser's, may keep it (Apollo's own APQ answers included). */
const noStorePlugin: ApolloServerPlugin<GraphqlContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ request, response }) {
        if (request.http?.method === 'GET') response.http.headers.set('cache-control', NO_STORE);
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
  /** Every error of a request to /graphql (the rate limit's, the body reader's) as a GraphQL answer. */
  readonly errors: ErrorRequestHandler;
  /** WebSocket upgrades at /graphql (undefined without GraphqlDeps.live). */
  readonly subscriptions: SubscriptionServer | undefined;
  readonly stop: () => Promise<void>;
}

export async function createGraphqlHandler(deps: GraphqlDeps): Promise<GraphqlDoor> {
  const typeDefs = readSchema();
  // An Apollo Federation 2 subgraph (./federation.ts); mutation fields tell their operation which succeeded (./atomic.ts).
  const schema = notingMutations(subgraphSchema(typeDefs, resolvers));
  // Always this executor: it also makes a mutation's fields one unit of work (./atomic.ts).
  const jit = jitExecution(schema, typeDefs, { compile: deps.jit !== false });
  const landing = deps.production ? undefined : sandboxLandingPage();
  const manifest = deps.documents?.manifest === undefined ? undefined : await loadManifest(deps.documents.manifest);
  const policy: DocumentPolicy = { manifest, trustedOnly: deps.documents?.trustedOnly === true };
  // Which documents run is said once at start: a restriction that is off by mistake shows.
  if (policy.trustedOnly)
    deps.logger.info(
      { graphqlDocuments: 'trusted', trustedDocuments: manifest?.size ?? 0 },
      `GraphQL documents: trusted (only the ${manifest?.size ?? 0} documents of the trusted-documents manifest run)`,
    );
  else
    deps.logger.info(
      { graphqlDocuments: 'any', trustedDocuments: manifest?.size ?? 0 },
      "GraphQL documents: any (every document runs; GRAPHQL_DOCUMENTS=trusted allows only the manifest's)",
    );
  const server = apolloServer(deps, jit, landing, withManifest(deps.apqStore ?? apqStore(deps.redis, deps.logger), manifest));
  await server.start();

  // The outcome of the token check, made before the body is read, or the refusal of the
  // request's documents (before Apollo parses anything).
  const verified = new WeakMap<Request, Principal | AppError>();
  // The operations of a batch refused before Apollo (their documents), each answered with its error.
  const refusals = new WeakMap<Request, ReadonlyMap<number, AppError>>();
  const middleware = apolloHandler(server, operationContext(deps, verified), (req) => refusals.get(req));
  const handler = requestPipeline(deps, { verified, refusals, middleware, policy, landing });
  const subscriptions = deps.live
    ? subscriptionServer({
        schema,
        services: deps.services,
        verify: deps.verify,
        live: deps.live,
        logger: deps.logger,
        production: deps.production,
        classifyError: deps.classifyError,
        path: '/graphql',
        documents: policy,
      })
    : undefined;

  const errors: ErrorRequestHandler = (err: unknown, req, res, _next) => {
    const e = toAppError(err, res.locals.log ?? deps.logger, deps.classifyError);
    if (!res.headersSent) sendGraphqlError(req, res, e);
  };
  return {
    handler,
    errors,
    subscriptions,
    async stop() {
      await subscriptions?.close();
      await server.stop();
    },
  };
}

/** The Apollo server: its limits, error form, APQ store, and plugins in the order they must run. */
function apolloServer(
  deps: GraphqlDeps,
  jit: ReturnType<typeof jitExecution>,
  landing: ReturnType<typeof sandboxLandingPage> | undefined,
  store: KeyValueCache<string>,
): ApolloServer<GraphqlContext> {
  return new ApolloServer<GraphqlContext>({
    gateway: jit.gateway,
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
    // Apollo's APQ protocol over ./persisted/store.ts; registration happens only after the
    // guard's checks passed (./apollo-internals.ts, assumption 5).
    persistedQueries: { cache: PrefixingKeyValueCache.cacheDangerouslyDoesNotNeedPrefixesForIsolation(store), ttl: APQ_LIMITS.ttlSeconds },
    csrfPrevention: { requestHeaders: [...APOLLO_CSRF_HEADERS, 'authorization'] },
    // main.ts owns SIGTERM/SIGINT: stop accepting, finish requests in flight, then stop this.
    stopOnTerminationSignals: false,
    allowBatchedHttpRequests: true,
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
      noStorePlugin,
      ...(deps.readRouting ? [readRoutingPlugin(deps.readRouting)] : []),
      // Answers the operation: last, after every check (./apollo-internals.ts, assumption 1).
      jit.plugin,
    ],
  });
}

/**
 * The context of an operation: the principal the handler verified, the services and
 * per-request loaders. Made once per HTTP request (the token checked once, one cost budget
 * and one set of loaders for every operation of a batch); each operation gets its own
 * shallow copy, as the executor tells operations apart by their context object (./jit.ts).
 */
function operationContext(deps: GraphqlDeps, verified: WeakMap<Request, Principal | AppError>) {
  const made = new WeakMap<Request, Promise<GraphqlContext>>();
  const make = async ({ req, res }: HttpContextArgument): Promise<GraphqlContext> => {
    const principal = verified.get(req);
    // The pipeline answers a refused token before Apollo; this is a belt.
    if (principal === undefined || principal instanceof AppError) {
      throw httpGraphQLError(principal ?? new AppError('UNAUTHENTICATED', 'The token is not valid'));
    }
    // For the request log line (src/http/request-context.ts).
    res.locals.principal = principal;
    deps.readRouting?.caller(principal.userId);
    return {
      principal,
      services: deps.services,
      loaders: new Loaders(deps.services),
      log: res.locals.log ?? deps.logger,
      requestId: res.locals.requestId,
      budget: { spent: 0 },
    };
  };
  return async (a: HttpContextArgument): Promise<GraphqlContext> => {
    let context = made.get(a.req);
    if (!context) {
      context = make(a);
      made.set(a.req, context);
    }
    return { ...(await context) };
  };
}

/**
 * The HTTP handler in front of Apollo's: the token first (without a valid one the body is
 * never read or parsed, and the answer is 401 UNAUTHENTICATED, before Apollo's CSRF check
 * could name anything else; the Sandbox page needs none: Apollo serves it), then the body,
 * the read scope and which documents run.
 */
function requestPipeline(
  deps: GraphqlDeps,
  o: {
    readonly verified: WeakMap<Request, Principal | AppError>;
    readonly refusals: WeakMap<Request, ReadonlyMap<number, AppError>>;
    readonly middleware: RequestHandler;
    readonly policy: DocumentPolicy;
    readonly landing: ReturnType<typeof sandboxLandingPage> | undefined;
  },
): RequestHandler {
  const { verified, refusals, middleware, policy, landing } = o;
  // A maintainer's request may carry a bulk upsert's records in its variables (the document itself is held to LIMITS.tokens).
  const readBody = jsonBody((req) => {
    const principal = verified.get(req);
    return principal !== undefined && !isAppError(principal) && principal.scopes.has(SCOPES.maintain);
  });
  const readScope: RequestHandler = deps.readRouting ? deps.readRouting.scope() : (_req, _res, next) => next();
  // Which documents run (./persisted/documents.ts), settled before Apollo parses anything.
  const admit: RequestHandler = (req, res, next) => {
    const admitted = admitDocuments(req.method, req.url, req.body, policy);
    if (admitted.error) return sendGraphqlError(req, res, admitted.error);
    if (admitted.url !== undefined) req.url = admitted.url;
    if (admitted.refusals && admitted.refusals.size > 0) refusals.set(req, admitted.refusals);
    return middleware(req, res, next);
  };

  return async (req, res, next) => {
    const page = landing !== undefined && wantsHtml(req);
    if (page) landing.headers(res);
    else if (req.method === 'GET') res.setHeader('Cache-Control', NO_STORE);
    try {
      verified.set(req, await deps.verify(req.get('authorization')));
    } catch (e) {
      const refusal = isAppError(e) ? e : new AppError('UNAUTHENTICATED', 'The token is not valid');
      verified.set(req, refusal);
      return page ? middleware(req, res, next) : sendGraphqlError(req, res, refusal);
    }
    // The read scope (replicas) opens once the body is read: stream callbacks run outside it.
    return readBody(req, res, (err?: unknown) => (err ? next(err) : readScope(req, res, () => admit(req, res, next))));
  };
}
