import cluster from 'node:cluster';
import http from 'node:http';
import { ClusterMemoryStorePrimary } from '@express-rate-limit/cluster-memory-store';
import { resolveSecret } from './auth/keys';
import { createTokenVerifier } from './auth/tokens';
import { ConfigError, loadConfig, readEnvFile, type Config } from './config/config';
import { configuredDatabase, openDatabase, type Database } from './db/database';
import { DataDirBusyError, EXIT_DATA_DIR_BUSY } from './db/data-dir-lock';
import { databaseFailure } from './db/errors';
import { loadDemoDataIfEmpty } from './import/demo-data';
import { replicaReadsAllowed } from './http/read-scope';
import { createServices } from './domain/services';
import { useSealingKey } from './domain/common/sealing';
import { startEvents } from './events/events';
import { createApp, type App } from './app';
import { NATIVE_EXACT_JSON } from './http/json';
import { createLogger, type Logger } from './http/logger';
import { ReadRouting } from './http/read-routing';
import { connectRedis } from './http/redis';
import { MAX_FILTER_LENGTH } from './rest/odata/parser';

// Start-up: configuration, database (waited for, migrations applied), demo data on an
// empty embedded database, the app, and a graceful shutdown on SIGTERM/SIGINT. With
// WORKERS=N the process is the cluster's primary: it forks N workers that share the port
// (Node's cluster hands connections round robin), replaces a worker that dies, and on
// SIGTERM/SIGINT stops every worker gracefully before it exits.

async function main(): Promise<void> {
  const config = configOrExit();
  const logger = createLogger(config.logLevel);
  if (!NATIVE_EXACT_JSON && cluster.isPrimary) {
    logger.warn(
      { node: process.versions.node },
      'this Node.js has no JSON.rawJSON: responses go through a slower exact-decimal JSON writer; use Node.js 22.15+ or 24',
    );
  }
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config, logger);
  const started = Date.now();
  const db = await openServiceDatabase(config, logger);
  const { app, release } = await assembleApp(config, db, logger);
  const server = listen(config, app, logger, started, () => db.close());
  onSignals(
    stopServer(server, app, logger, async () => {
      await app.stop();
      await release();
      await db.close();
    }),
  );
}

/** The configuration (with the .env file); a bad one ends the process with exit code 2 and its message. */
function configOrExit(): Config {
  try {
    readEnvFile();
    return loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}

/** The database, waited for and migrated; an empty embedded one gets the demo data. */
async function openServiceDatabase(config: Config, logger: Logger): Promise<Database> {
  const d = config.database;
  const db = await openDatabase({
    ...configuredDatabase(d),
    poolMax: d.poolMax,
    role: 'service',
    statementTimeoutMs: d.statementTimeoutMs,
    connectTimeoutMs: d.connectTimeoutMs,
    startupTimeoutMs: d.startupTimeoutMs,
    onWait: ({ attempt, retryInMs, reason }) => logger.warn({ attempt, retryInMs, reason }, 'database not reachable yet; waiting'),
    replicaUrls: d.replicaUrls,
    replicaMaxLagMs: d.replicaMaxLagMs,
    replicaReadsAllowed,
    onReplicaChange: (h) =>
      logger[h.state === 'up' ? 'info' : 'warn']({ replica: h.name, state: h.state, lagMs: h.lagMs }, `read replica ${h.state}`),
  });
  logger.info(
    {
      database: db.kind,
      replicas: d.replicaUrls.length,
      pooler: d.pooler,
      namedStatements: db.kind === 'postgres' && d.namedStatements,
      timeLimits: db.timeLimits,
    },
    'database ready, migrations applied',
  );
  if (db.kind === 'pglite' && config.loadDemoData && (await loadDemoDataIfEmpty(db))) {
    logger.info('empty embedded database: demo dataset loaded');
  }
  return db;
}

/** The app over the database: keys, services, change events, Redis and read routing when configured. `release` stops the events and lets go of Redis. */
async function assembleApp(config: Config, db: Database, logger: Logger): Promise<{ app: App; release: () => Promise<void> }> {
  const secret = resolveSecret(config);
  const verify = createTokenVerifier({ ...config.auth, secret });
  // Shared by every instance and worker (ETags and cursors of one must hold at another); with
  // JWKS and no SEAL_KEY outside production each process keeps its own random key.
  const sealKey = config.sealKey ?? secret;
  if (sealKey) useSealingKey(sealKey);
  else logger.warn('no SEAL_KEY (nor JWT_SECRET): ETags and cursors hold only within this process');
  const services = createServices({ prisma: db.prisma, rows: db.rows });
  const redis = config.redis.url ? connectRedis(config.redis.url, logger) : undefined;
  const events = await startEvents({ config: config.events, db, services, logger });
  const readRouting = config.database.replicaUrls.length > 0 ? new ReadRouting(config.database.readYourWritesMs) : undefined;
  const stopSharing = redis && readRouting ? readRouting.share(redis, config.redis.keyPrefix, logger) : undefined;
  const app = await createApp({
    config,
    services,
    verify,
    logger,
    ping: () => db.ping(),
    databases: () => db.health(),
    classifyError: databaseFailure,
    readRouting,
    redis: redis ? { client: redis, keyPrefix: config.redis.keyPrefix } : undefined,
    poolStats: () => db.poolStats(),
    live: events,
    events: events.relayStatus,
  });
  const release = async () => {
    await events.stop();
    await stopSharing?.();
    redis?.disconnect();
  };
  return { app, release };
}

// A $filter may hold 8,000 characters; percent-encoded (3 bytes each) that is up to 24 KB of
// request line, more than Node's default 16 KB header limit; 8 KB more for the headers.
const MAX_HEADER_BYTES = MAX_FILTER_LENGTH * 3 + 8192;

/** The HTTP server on the configured port; a port it cannot take closes the database and ends the process. */
function listen(config: Config, app: App, logger: Logger, started: number, closeDatabase: () => Promise<void>): http.Server {
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, app.express);
  if (app.upgrade) server.on('upgrade', app.upgrade);
  server.keepAliveTimeout = 65_000;
  server.requestTimeout = 30_000;
  server.on('error', (e: NodeJS.ErrnoException) => {
    logger.fatal({ code: e.code }, `cannot listen on ${config.host}:${config.port}: ${e.message}`);
    void closeDatabase().finally(() => process.exit(1));
  });
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ port, ms: Date.now() - started }, `listening on http://localhost:${port} (REST /api/v1, GraphQL /graphql)`);
  });
  return server;
}

/** SIGTERM and SIGINT start `shutdown`, once. */
function onSignals(shutdown: (signal: NodeJS.Signals) => void): void {
  let stopping = false;
  const once = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    shutdown(signal);
  };
  process.on('SIGTERM', () => once('SIGTERM'));
  process.on('SIGINT', () => once('SIGINT'));
}

/**
 * A graceful stop: no new connections, WebSockets closed, the requests in flight finish (for at most 10 s),
 * then `release` (the app, Redis, the database), and the process exits.
 */
function stopServer(server: http.Server, app: App, logger: Logger, release: () => Promise<void>): (signal: NodeJS.Signals) => void {
  return (signal) => {
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    const force = setTimeout(() => {
      logger.warn('requests still in flight after 10 s; closing anyway');
      server.closeAllConnections();
    }, 10_000);
    force.unref();
    // WebSockets first: an open one would keep server.close() waiting.
    void app.closeSockets();
    // Node does not wait on the close callback: the steps run on their own and end in exit.
    server.close(
      () =>
        void (async () => {
          try {
            await release();
            logger.info('stopped');
          } finally {
            process.exit(0);
          }
        })(),
    );
    server.closeIdleConnections();
  };
}

/** The cluster's primary: forks the workers, replaces one that dies, stops them all on a signal. */
function runPrimary(config: Config, logger: Logger): void {
  // The rate-limit count of all workers when there is no Redis (src/http/rate-limit.ts).
  new ClusterMemoryStorePrimary().init();
  let stopping = false;
  const fork = () => cluster.fork();
  for (let i = 0; i < config.workers; i++) fork();
  logger.info({ workers: config.workers }, 'cluster primary: workers forked');
  let restarts = 0;
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        logger.info('stopped');
        process.exit(0);
      }
      return;
    }
    // A worker that cannot start (bad database, port taken) would die again at once.
    if (++restarts > config.workers * 5) {
      logger.fatal({ code, signal }, 'workers keep dying; giving up');
      process.exit(1);
    }
    logger.error({ pid: worker.process.pid, code, signal }, 'worker died; starting another');
    fork();
  });
  onSignals((signal) => {
    stopping = true;
    logger.info({ signal }, 'shutting down every worker');
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  });
}

main().catch((e: unknown) => {
  if (e instanceof DataDirBusyError) {
    process.stderr.write(`cannot start: ${e.message}\n`);
    process.exit(EXIT_DATA_DIR_BUSY);
  }
  process.stderr.write(`failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
