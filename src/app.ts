import express, { type NextFunction, type Request, type Response } from 'express';
import { SCOPES } from './auth/principal';
import helmet from 'helmet';
import type { TokenVerifier } from './auth/tokens';
import type { Config } from './config/config';
import type { Services } from './domain/services';
import { AppError } from './errors/catalogue';
import { graphiql, GRAPHIQL_PATH } from './pages/graphiql';
import { SANDBOX_ASSETS } from './pages/sandbox';
import { createGraphqlHandler } from './graphql/server';
import { openApiDocument } from './rest/openapi';
import { restReference } from './pages/rest-reference';
import { restRouter } from './rest/router';
import { batchHandler } from './rest/batch/route';
import { jsonBody } from './http/body';
import { toolAssets } from './pages/serve';
import { allowsAnyOrigin, corsPolicy } from './http/cors';
import { healthRoutes, primaryOnly, type DatabaseState, type EventsState } from './http/health';
import type { Logger } from './http/logger';
import { errorStyle, sendProblem, setAuthChallenge, toAppError, type ErrorClassifier } from './http/problem';
import { createMetrics, type PoolStats } from './http/metrics';
import { rateLimiter } from './http/rate-limit';
import type { ReadRouting } from './http/read-routing';
import type { Redis } from 'ioredis';
import type { KeyValueCache } from '@apollo/utils.keyvaluecache';
import { authenticate, requestContext } from './http/request-context';
import type { LiveChanges } from './graphql/context';
import type { SubscriptionServer } from './graphql/subscriptions';
import { inFlight } from './http/in-flight';

export const REST_BASE = '/api/v1';

export interface AppDeps {
  readonly config: Config;
  readonly services: Services;
  readonly verify: TokenVerifier;
  readonly logger: Logger;
  readonly ping: () => Promise<void>;
  /** Each database for /readyz (primary and replicas); default: the primary through ping. */
  readonly databases?: () => Promise<readonly DatabaseState[]>;
  /** Recognises database failures (down, stalled, timing out) as SERVICE_UNAVAILABLE. */
  readonly classifyError?: ErrorClassifier;
  /** With read replicas: opens each request's read scope (read-your-writes). */
  readonly readRouting?: ReadRouting | undefined;
  /** Shared state across instances (the rate-limit budget, the persisted-query store). */
  readonly redis?: { readonly client: Redis; readonly keyPrefix: string } | undefined;
  /** The database's connection pools, for /metrics. */
  readonly poolStats?: () => readonly PoolStats[];
  /** The change log, live: GraphQL subscriptions over WebSocket at /graphql (src/events). */
  readonly live?: LiveChanges | undefined;
  /** The change relay's state for /readyz and /metrics (with EVENTS_NATS_URL). */
  readonly events?: (() => Promise<EventsState>) | undefined;
  /** The GraphQL persisted-query store instead of the one built from `redis` (tests look into it). */
  readonly apqStore?: KeyValueCache;
}

export interface App {
  readonly express: express.Express;
  /** The HTTP server's 'upgrade' handler (WebSocket subscriptions at /graphql); undefined without AppDeps.live. */
  readonly upgrade: SubscriptionServer['upgrade'] | undefined;
  /** Closes every WebSocket (1001) and ends its subscriptions; the HTTP server waits for them to close. */
  closeSockets(): Promise<void>;
  /**
   * Waits (at most STOP_WAIT_MS) for every request's handler to finish its response, those
   * whose client has gone included, then stops the GraphQL server. Main closes the HTTP
   * server first and the database after this.
   */
  stop(): Promise<void>;
}

/** Longest wait in stop() for handlers still at work. */
const STOP_WAIT_MS = 10_000;

/** The one Express app with its two front doors, REST and GraphQL, over one service layer. */
export async function createApp(deps: AppDeps): Promise<App> {
  const app = express();
  const handling = inFlight();
  app.use(handling.track);
  app.disable('x-powered-by');
  app.set('etag', false); // records carry their own content ETag
  if (deps.config.trustProxy) app.set('trust proxy', deps.config.trustProxy);

  const production = deps.config.env === 'production';
  const browsers = allowsAnyOrigin(deps.config.corsOrigins);
  // Strict headers everywhere; the tool pages below replace the CSP with their own. Browser
  // apps on the CORS origins must be able to read responses: CORP then allows cross-origin.
  app.use(helmet({ crossOriginResourcePolicy: { policy: browsers ? 'cross-origin' : 'same-origin' } }));
  const metrics = deps.config.metrics
    ? createMetrics({
        doors: { rest: REST_BASE, graphql: '/graphql' },
        ...(deps.poolStats ? { poolStats: deps.poolStats } : {}),
        events: deps.events,
      })
    : undefined;
  metrics?.attach(app);
  app.use(requestContext(deps.logger));
  if (browsers) app.use(corsPolicy(deps.config.corsOrigins));

  app.use(healthRoutes(deps.databases ?? primaryOnly(deps.ping), deps.events));
  if (metrics) app.get('/metrics', metrics.endpoint);
  const openApi = JSON.stringify(openApiDocument());
  app.get(`${REST_BASE}/openapi.json`, (_req, res) => {
    res.type('application/json').send(openApi);
  });
  if (!production) toolPages(app);

  app.use(rateLimiter(deps.config.rateLimitPerMinute, { redis: deps.redis, logger: deps.logger, onRefusal: metrics?.rateLimited }));
  restDoor(app, deps);

  const graphql = await createGraphqlHandler({
    services: deps.services,
    verify: deps.verify,
    production,
    logger: deps.logger,
    classifyError: deps.classifyError,
    readRouting: deps.readRouting,
    ...(metrics ? { observe: metrics.graphqlOperation } : {}),
    live: deps.live,
    redis: deps.redis,
    documents: deps.config.graphqlDocuments,
    ...(deps.apqStore ? { apqStore: deps.apqStore } : {}),
  });
  // The GraphQL handler checks the token before it reads the body, then opens the read scope
  // (./graphql/server.ts); every error of /graphql, the rate limit's above included, leaves
  // as a GraphQL answer.
  app.use('/graphql', graphql.handler, graphql.errors);

  answerErrors(app, deps);

  const subscriptions = graphql.subscriptions;
  return {
    express: app,
    upgrade: subscriptions ? (req, socket, head) => subscriptions.upgrade(req, socket, head) : undefined,
    closeSockets: async () => subscriptions?.close(),
    async stop() {
      // A request whose client went away still runs to its end: the database must outlive it.
      await handling.drained(STOP_WAIT_MS);
      await graphql.stop();
    },
  };
}

/**
 * Outside production: GraphiQL at /graphiql and the REST reference at /api/v1/docs, with
 * their assets, all from the service itself, and the assets of the Sandbox page (the page
 * itself is Apollo's, at /graphql: ./pages/sandbox.ts).
 */
function toolPages(app: express.Express): void {
  const ide = graphiql();
  app.use(ide.assets, toolAssets(SANDBOX_ASSETS));
  app.get(GRAPHIQL_PATH, ide.page);
  app.use(restReference(REST_BASE));
}

/**
 * The REST door. The token first: an unauthenticated request never costs a body read or a
 * JSON parse. The read scope (replicas) opens after the body is read: stream callbacks run
 * outside it. Every REST answer, errors included, says which OData version it speaks.
 */
function restDoor(app: express.Express, deps: AppDeps): void {
  const readScope = deps.readRouting ? [deps.readRouting.scope()] : [];
  const odataVersion = (_req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('OData-Version', '4.0');
    next();
  };
  // OData $batch: its body is multipart or JSON of its own size; each request inside comes
  // back through this app (./rest/batch/route.ts).
  app.all(
    `${REST_BASE}/\\$batch`,
    odataVersion,
    authenticate(deps.verify),
    ...batchHandler({ services: deps.services, base: REST_BASE, app: () => app }),
  );
  // A bulk upsert (PATCH of a collection) by a maintainer may be larger than other bodies.
  const bulk = (req: Request, res: Response) =>
    req.method === 'PATCH' && /^\/[^/()?]+\/?(\?|$)/.test(req.url) && res.locals.principal?.scopes.has(SCOPES.maintain) === true;
  app.use(REST_BASE, odataVersion, authenticate(deps.verify), jsonBody(bulk), ...readScope, restRouter(deps.services));
}

/** Any other path is 404; every error leaves as the catalogue's problem (or OData error). */
function answerErrors(app: express.Express, deps: AppDeps): void {
  app.use(() => {
    throw new AppError('NOT_FOUND', 'No such path');
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const log = res.locals.log ?? deps.logger;
    const e = toAppError(err, log, deps.classifyError);
    if (res.headersSent) return;
    setAuthChallenge(res, e, req.get('authorization'));
    sendProblem(
      res,
      e,
      req.originalUrl.split('?')[0],
      errorStyle((name) => req.get(name)),
    );
  });
}
