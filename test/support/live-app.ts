import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTokenVerifier } from '../../src/auth/tokens';
import { loadConfig } from '../../src/config/config';
import { DEMO_DATA_FILE } from '../../src/config/paths';
import { databaseFailure } from '../../src/db/errors';
import type { Services } from '../../src/domain/services';
import { startEvents, type Events } from '../../src/events/events';
import { createLogger } from '../../src/http/logger';
import { importReferenceData } from '../../src/import/import-service';
import { createApp, type App } from '../../src/app';
import { createTestApp, TEST_SECRET, type TestApp } from './app';
import { createTestDatabase, type TestDatabase, servicesOf } from './database';

// The app on a real HTTP server with the change events of src/events (no broker): what
// GraphQL subscriptions over WebSocket need, which supertest cannot give.

export interface LiveApp {
  readonly app: App;
  readonly db: TestDatabase;
  readonly services: Services;
  readonly events: Events;
  /** http://127.0.0.1:<port> */
  readonly base: string;
  /** ws://127.0.0.1:<port>/graphql */
  readonly wsUrl: string;
  /** The newest seq in the change log now (the cursor to subscribe after). */
  head(): Promise<string>;
  close(): Promise<void>;
}

export async function startLiveApp(): Promise<LiveApp> {
  const db = await createTestDatabase();
  await importReferenceData(db, DEMO_DATA_FILE);
  const services = servicesOf(db);
  const config = loadConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_SECRET, RATE_LIMIT_PER_MINUTE: '0', DATA_DIR: '/nonexistent' });
  const logger = createLogger('silent');
  const events = await startEvents({ config: config.events, db, services, logger });
  const app = await createApp({
    config,
    services,
    verify: createTokenVerifier({ secret: TEST_SECRET }),
    logger,
    ping: () => db.ping(),
    databases: () => db.health(),
    classifyError: databaseFailure,
    live: events,
  });
  const server = http.createServer(app.express);
  if (app.upgrade) server.on('upgrade', app.upgrade);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    app,
    db,
    services,
    events,
    base: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/graphql`,
    async head() {
      let seq = '0';
      for (;;) {
        const page = await services.changeLog.changesAfter(seq, 1000);
        if (page.length === 0) return seq;
        seq = page.at(-1)!.seq;
      }
    },
    async close() {
      await app.closeSockets();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.stop();
      await events.stop();
      await db.close();
    },
  };
}

/** An app on a real HTTP server on 127.0.0.1 (WebSocket subscriptions too, when it has them), for clients that speak HTTP themselves (Apollo Client, urql, graphql-ws). `close` stops the server, not the app. */
export async function listen(app: App): Promise<{ readonly base: string; close(): Promise<void> }> {
  const server = http.createServer(app.express);
  if (app.upgrade) server.on('upgrade', app.upgrade);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    // Clients' fetch keeps connections alive: they close with the server.
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A test app (createTestApp, demo data) on a real HTTP server for the calling file: started in
 * beforeAll, stopped after the file. `url()` is its /graphql address.
 */
export function listeningTestApp(): { app: () => TestApp; url: () => string } {
  let t: TestApp | undefined;
  let server: Awaited<ReturnType<typeof listen>> | undefined;
  beforeAll(async () => {
    t = await createTestApp();
    server = await listen(t.app);
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });
  const started = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('the app starts in beforeAll');
    return v;
  };
  return { app: () => started(t), url: () => `${started(server).base}/graphql` };
}
