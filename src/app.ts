import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import type { TokenVerifier } from './auth/tokens';
import type { Config } from './config/config';
import type { Services } from './domain/services';
import { AppError } from './errors/catalogue';
import { createGraphqlHandler } from './graphql/server';
import { openApiDocument } from './rest/openapi';
import { restRouter } from './rest/router';
import { healthRoutes } from './http/health';
import type { Logger } from './http/logger';
import { sendProblem, toAppError } from './http/problem';
import { createMetrics, type PoolStats } from './http/metrics';
import { rateLimiter } from './http/rate-limit';
import { authenticate, requestContext } from './http/request-context';

export const BODY_LIMIT = '100kb';
export const REST_BASE = '/api/v1';

export interface AppDeps {
  readonly config: Config;
  readonly services: Services;
  readonly verify: TokenVerifier;
  readonly logger: Logger;
  readonly ping: () => Promise<void>;
  /** The database's connection pools, for /metrics. */
  readonly poolStats?: () => readonly PoolStats[];
}

export interface App {
  readonly express: express.Express;
  /** Stops the GraphQL server (drains its plugins); the HTTP server is closed by main. */
  stop(): Promise<void>;
}

/** The one Express app with its two front doors, REST and GraphQL, over one service layer. */
export async function createApp(deps: AppDeps): Promise<App> {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // records carry their own content ETag
  if (deps.config.trustProxy) app.set('trust proxy', deps.config.trustProxy);

  const production = deps.config.env === 'production';
  const withCsp = helmet();
  // Apollo Sandbox (outside production) loads its UI from Apollo's CDN: no CSP on /graphql there.
  const withoutCsp = helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false });
  app.use((req, res, next) => (!production && req.path === '/graphql' ? withoutCsp : withCsp)(req, res, next));
  const metrics = deps.config.metrics ? createMetrics({ doors: { rest: REST_BASE, graphql: '/graphql' }, ...(deps.poolStats ? { poolStats: deps.poolStats } : {}) }) : undefined;
  if (metrics) app.use(metrics.track);
  app.use(requestContext(deps.logger));

  app.use(healthRoutes(deps.ping));
  if (metrics) app.get('/metrics', metrics.endpoint);
  const openApi = JSON.stringify(openApiDocument());
  app.get(`${REST_BASE}/openapi.json`, (_req, res) => {
    res.type('application/json').send(openApi);
  });

  app.use(rateLimiter(deps.config.rateLimitPerMinute, metrics?.rateLimited));
  const json = express.json({ limit: BODY_LIMIT, strict: true });

  app.use(REST_BASE, json, authenticate(deps.verify), restRouter(deps.services));

  const graphql = await createGraphqlHandler({
    services: deps.services,
    verify: deps.verify,
    production,
    logger: deps.logger,
    ...(metrics ? { observe: metrics.graphqlOperation } : {}),
  });
  app.use('/graphql', json, graphql.handler);

  app.use(() => {
    throw new AppError('NOT_FOUND', 'No such path');
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const log = res.locals.log ?? deps.logger;
    const e = toAppError(err, log);
    if (res.headersSent) return;
    sendProblem(res, e, req.originalUrl.split('?')[0]);
  });

  return { express: app, stop: graphql.stop };
}
