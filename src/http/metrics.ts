import type { Express, Request, RequestHandler, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EventsState } from './health';
import { propOf } from '../lib/unknown';

// Prometheus metrics (GET /metrics, no token). Labels are bounded and never carry what a
// client sent: routes are Express route templates (`/api/v1/payment-sources/:id`, never an
// id), GraphQL operations are the names of resolved operations (capped), no query strings,
// no user ids, no tokens.

/** One connection pool of the database (the embedded database has none). */
export interface PoolStats {
  readonly name: string;
  readonly max: number;
  readonly inUse: number;
  readonly idle: number;
  /** Queries waiting for a free connection. */
  readonly waiting: number;
}

export interface GraphqlObservation {
  /** The operation's name as the document declares it; undefined for an anonymous one. */
  readonly name: string | undefined;
  /** query, mutation, subscription; undefined when the document did not resolve to an operation. */
  readonly type: string | undefined;
  readonly seconds: number;
  readonly ok: boolean;
}

export interface Metrics {
  /** Times every request of the app (mount before the routes). */
  attach(app: Express): void;
  /** GET /metrics in the Prometheus text format. */
  readonly endpoint: RequestHandler;
  /** A request the rate limiter refused. */
  rateLimited(this: void, req: Request): void;
  graphqlOperation(this: void, o: GraphqlObservation): void;
}

export interface MetricsOptions {
  /** Path prefixes of the doors: REST base and the GraphQL path. */
  readonly doors: { readonly rest: string; readonly graphql: string };
  readonly poolStats?: () => readonly PoolStats[];
  /** The change relay's state (EVENTS_NATS_URL), read at each scrape. */
  readonly events?: (() => Promise<EventsState>) | undefined;
}

/** Distinct values a free-form label may take before the rest count as `(other)`. */
const MAX_LABEL_VALUES = 200;
const UNMATCHED = '(unmatched)';
const OTHER = '(other)';
// Ids in a mount path (e.g. `/customers/<uuid>/addresses`, an OData key in parentheses).
const ID_LIKE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\([^/)]*\)|\b\d+\b/gi;

class BoundedLabel {
  private readonly seen = new Set<string>();
  of(value: string): string {
    if (this.seen.has(value)) return value;
    if (this.seen.size >= MAX_LABEL_VALUES) return OTHER;
    this.seen.add(value);
    return value;
  }
}

const ROUTE = Symbol('route');
const TEMPLATE = Symbol('route template');
type Tracked = Request & { [ROUTE]?: unknown; [TEMPLATE]?: string };

/**
 * Records the route template of each request when Express matches a route: it assigns
 * `req.route` then, while `req.baseUrl` still holds the mount path (by the time the response
 * is finished an error may have unwound `baseUrl`). The accessor is defined once, on the
 * app's request prototype: defined on every request, it gave each request object a shape of
 * its own, which V8 keeps in old space (measured under load: 14 MB promoted per young
 * collection and 20 ms pauses, on every route).
 */
function recordRouteTemplates(requestPrototype: Request): void {
  Object.defineProperty(requestPrototype, 'route', {
    configurable: true,
    get(this: Tracked) {
      return this[ROUTE];
    },
    set(this: Tracked, value: unknown) {
      this[ROUTE] = value;
      const p = propOf(value, 'path');
      const base = this.baseUrl.replace(ID_LIKE, (m) => (m.startsWith('(') ? '(:key)' : ':id'));
      this[TEMPLATE] = typeof p === 'string' ? `${base}${p === '/' ? '' : p}` || '/' : `${base}/(pattern)`;
    },
  });
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The door a request path belongs to: rest, graphql or other. */
const doorFinder =
  (doors: MetricsOptions['doors']) =>
  (path: string): string =>
    path === doors.rest || path.startsWith(`${doors.rest}/`)
      ? 'rest'
      : path === doors.graphql || path.startsWith(`${doors.graphql}/`)
        ? 'graphql'
        : 'other';

/** The database pools' gauges, read at each scrape. */
function poolGauges(registry: Registry, poolStats: () => readonly PoolStats[]): void {
  const gauge = (name: string, help: string, pick: (s: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['pool'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const s of poolStats()) this.set({ pool: s.name }, pick(s));
      },
    });
  gauge('db_pool_connections_in_use', 'Database connections lent out to a query or transaction', (s) => s.inUse);
  gauge('db_pool_connections_idle', 'Open database connections waiting for work', (s) => s.idle);
  gauge('db_pool_waiting_requests', 'Queries waiting for a free database connection', (s) => s.waiting);
  gauge('db_pool_connections_max', 'Most connections the pool opens', (s) => s.max);
}

/** GET /metrics: the registry in Prometheus' text format. */
const metricsEndpoint =
  (registry: Registry): RequestHandler =>
  async (_req, res, next) => {
    try {
      const text = await registry.metrics();
      res.type(registry.contentType).send(text);
    } catch (e) {
      next(e);
    }
  };

export function createMetrics(o: MetricsOptions): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const routes = new BoundedLabel();
  const operations = new BoundedLabel();
  const doorOf = doorFinder(o.doors);

  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by door (rest, graphql, other), method, route template and status',
    labelNames: ['door', 'method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const refused = new Counter({
    name: 'http_rate_limited_total',
    help: 'Requests refused by the rate limit (429 RATE_LIMITED), by door',
    labelNames: ['door'] as const,
    registers: [registry],
  });
  const graphql = new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'GraphQL operations by operation name, type and outcome (ok, error)',
    labelNames: ['operation', 'type', 'outcome'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  if (o.poolStats) poolGauges(registry, o.poolStats);
  if (o.events) relayGauges(registry, o.events);

  const track: RequestHandler = (req: Tracked, res: Response, next) => {
    const end = requests.startTimer();
    res.once('finish', () => {
      const door = doorOf(req.originalUrl.split('?')[0]!);
      const route = req[TEMPLATE] ?? (door === 'graphql' ? o.doors.graphql : UNMATCHED);
      end({ door, method: req.method, route: routes.of(route), status: String(res.statusCode) });
    });
    next();
  };

  return {
    attach(app) {
      recordRouteTemplates(app.request);
      app.use(track);
    },
    endpoint: metricsEndpoint(registry),
    rateLimited(req) {
      refused.inc({ door: doorOf(req.originalUrl.split('?')[0]!) });
    },
    graphqlOperation({ name, type, seconds, ok }) {
      graphql.observe(
        {
          operation: type === undefined ? UNMATCHED : name === undefined ? '(anonymous)' : operations.of(name),
          type: type ?? UNMATCHED,
          outcome: ok ? 'ok' : 'error',
        },
        seconds,
      );
    },
  };
}

/** The relay's lag and state, read once per scrape (one small query, src/events/progress.ts). */
function relayGauges(registry: Registry, events: () => Promise<EventsState>): void {
  let scrape: Promise<EventsState | undefined> | undefined;
  // Four gauges, one read: the first collect of a scrape starts it, the others share it.
  const state = (): Promise<EventsState | undefined> => {
    scrape ??= events()
      .catch(() => undefined)
      .finally(() => setImmediate(() => (scrape = undefined)));
    return scrape;
  };
  const gauge = (name: string, help: string, pick: (s: EventsState) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const s = await state();
        if (s) this.set(pick(s));
        else this.reset();
      },
    });
  gauge('change_relay_lag_entries', 'Change-log entries not yet published to NATS JetStream', (s) => s.lagEntries);
  gauge('change_relay_lag_seconds', 'Age in seconds of the oldest change-log entry not yet published (0 when none)', (s) => s.lagSeconds);
  gauge('change_relay_broker_up', 'Whether NATS accepted the last publish and the connection is up (1) or not (0)', (s) =>
    s.broker === 'up' ? 1 : 0,
  );
  gauge('change_relay_publishing', 'Whether this instance holds the relay lock and publishes (1) or stands by (0)', (s) =>
    s.relay === 'publishing' ? 1 : 0,
  );
}
