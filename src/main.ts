import http from 'node:http';
import { resolveSecret } from './auth/keys';
import { createTokenVerifier } from './auth/tokens';
import { ConfigError, loadConfig, readEnvFile, type Config } from './config/config';
import { openDatabase } from './db/database';
import { loadDemoDataIfEmpty } from './import/demo-data';
import { createServices } from './domain/services';
import { createApp } from './app';
import { createLogger } from './http/logger';

// Start-up: configuration, database (migrations applied), demo data on an empty embedded
// database, the app, and a graceful shutdown on SIGTERM/SIGINT.

async function main(): Promise<void> {
  let config: Config;
  try {
    readEnvFile();
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const logger = createLogger(config.logLevel);
  const started = Date.now();
  const db = await openDatabase({ url: config.database.url, dataDir: config.database.dataDir, poolMax: config.database.poolMax });
  logger.info({ database: db.kind }, 'database ready, migrations applied');
  if (db.kind === 'pglite' && config.loadDemoData && (await loadDemoDataIfEmpty(db))) {
    logger.info('empty embedded database: demo dataset loaded');
  }
  const secret = resolveSecret(config);
  const verify = createTokenVerifier({ ...config.auth, secret });
  const services = createServices({ prisma: db.prisma });
  const app = await createApp({ config, services, verify, logger, ping: () => db.ping(), poolStats: () => db.poolStats() });

  const server = http.createServer(app.express);
  server.keepAliveTimeout = 65_000;
  server.requestTimeout = 30_000;
  server.on('error', (e: NodeJS.ErrnoException) => {
    logger.fatal({ code: e.code }, `cannot listen on ${config.host}:${config.port}: ${e.message}`);
    void db.close().finally(() => process.exit(1));
  });
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ port, ms: Date.now() - started }, `listening on http://localhost:${port} (REST /api/v1, GraphQL /graphql)`);
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    const force = setTimeout(() => {
      logger.warn('requests still in flight after 10 s; closing anyway');
      server.closeAllConnections();
    }, 10_000);
    force.unref();
    server.close(async () => {
      try {
        await app.stop();
        await db.close();
        logger.info('stopped');
      } finally {
        process.exit(0);
      }
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((e: unknown) => {
  process.stderr.write(`failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
