#!/usr/bin/env node
// The service for npm run bench:writes, composed from the build (dist/) like src/main.ts, with
// one difference the benchmark needs: `node test/bench/write-server.mjs off` leaves the change
// log out of every write: the one call that appends a write's entries (appendChanges, one
// statement) does nothing, replaced on the compiled module that every service calls it
// through, so the service itself has no switch for it (npm run bench:writes checks that an
// `off` round appended nothing). Configuration comes from the environment as for the
// service (DATABASE_URL, EVENTS_NATS_URL, ...). Prints {"port":N} once it listens; SIGTERM stops it.
import http from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const dist = (m) => require(`../../dist/src/${m}.js`);
const { loadConfig } = dist('config/config');
const { openDatabase } = dist('db/database');
const { databaseFailure } = dist('db/errors');
const { createServices } = dist('domain/services');
const append = dist('domain/change-log/append');
const { startEvents } = dist('events/events');
const { createLogger } = dist('http/logger');
const { loadDemoDataIfEmpty } = dist('import/demo-data');
const { createTokenVerifier } = dist('auth/tokens');
const { createApp } = dist('app');

const changeLog = process.argv[2] !== 'off';
const config = loadConfig(process.env);
const logger = createLogger(config.logLevel);
const d = config.database;
const db = await openDatabase({ url: d.url, dataDir: d.dataDir, poolMax: d.poolMax, statementTimeoutMs: d.statementTimeoutMs });
await loadDemoDataIfEmpty(db);
if (!changeLog) append.appendChanges = () => Promise.resolve();
const services = createServices({ prisma: db.prisma, rows: db.rows });
const events = await startEvents({ config: config.events, db, services, logger });
const app = await createApp({
  config,
  services,
  verify: createTokenVerifier({ secret: config.auth.secret }),
  logger,
  ping: () => db.ping(),
  classifyError: databaseFailure,
  live: events,
  events: events.relayStatus,
});
const server = http.createServer(app.express);
if (app.upgrade) server.on('upgrade', app.upgrade);
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.on('SIGTERM', () => {
  void app.closeSockets();
  server.close(async () => {
    await app.stop();
    await events.stop();
    await db.close();
    process.exit(0);
  });
  server.closeAllConnections();
});
