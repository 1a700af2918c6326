// The assumptions of the inventory modules src/db/prisma-internals.ts, src/db/pg-internals.ts
// and src/graphql/ws-internals.ts, held to the installed packages: a failure here after an
// upgrade names the assumption that no longer holds. (src/graphql/apollo-internals.ts's are
// held by test/graphql/apollo-internals.test.ts.)
// Prisma's and pg's run against a real PostgreSQL: DATABASE_URL's server, or this machine's.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { AddressInfo } from 'node:net';
import { PrismaPg } from '@prisma/adapter-pg';
import express from 'express';
import pg from 'pg';
import { WebSocket, WebSocketServer } from 'ws';
import { PrismaClient } from '../../src/db/__generated__/prisma/client';
import { interceptProtocolErrors } from '../../src/graphql/ws-internals';
import { isAdapterStatement, isBareBegin, statementText } from '../../src/db/pg-internals';
import { hearTransactions, READ_METHODS, routeStatements, type AdapterTransaction, type PgAdapter } from '../../src/db/prisma-internals';
import { until } from '../support/until';
import { inject } from 'light-my-request';
import { injectable } from '../../src/rest/batch/inject-internals';

const SERVER_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

describe('Prisma Client and @prisma/adapter-pg (src/db/prisma-internals.ts)', () => {
  const pool = new pg.Pool({ connectionString: SERVER_URL, max: 2 });
  afterAll(() => pool.end());

  it("1. statements outside a transaction go through the connected adapter's own queryRaw, looked up at each call", async () => {
    const seen: string[] = [];
    class Watching extends PrismaPg {
      override async connect(): Promise<PgAdapter> {
        const adapter = await super.connect();
        routeStatements(adapter, (q, here) => {
          seen.push(q.sql);
          return here(q);
        });
        return adapter;
      }
    }
    const client = new PrismaClient({ adapter: new Watching(pool) });
    try {
      await client.$queryRawUnsafe('SELECT 41 + 1 AS answer');
      expect(seen.some((s) => /SELECT 41 \+ 1/.test(s))).toBe(true);
      // A transaction's statements do not (they go through the transaction's own object).
      seen.length = 0;
      await client.$transaction(async (tx) => tx.$queryRawUnsafe('SELECT 40 + 2 AS answer'));
      expect(seen.some((s) => /SELECT 40 \+ 2/.test(s))).toBe(false);
    } finally {
      await client.$disconnect();
    }
  });

  it('3. an interactive transaction starts through the adapter, in the async context of $transaction, and its statements go through the object it returned', async () => {
    const store = new AsyncLocalStorage<string>();
    const heard: Array<{ store: string | undefined; tx: AdapterTransaction }> = [];
    const client = new PrismaClient({
      adapter: hearTransactions(new PrismaPg(pool), (tx: AdapterTransaction) => heard.push({ store: store.getStore(), tx })),
    });
    try {
      const answer = await store.run('unit', () =>
        client.$transaction(async (db) => {
          await db.$executeRawUnsafe('CREATE TEMP TABLE heard_here (n int) ON COMMIT DROP');
          await db.$executeRawUnsafe('INSERT INTO heard_here VALUES (42)');
          // The transaction's own object sees what the transaction wrote.
          const rows = await heard[0]!.tx.queryRaw({ sql: 'SELECT n FROM heard_here', args: [], argTypes: [] });
          return rows.rows[0]?.[0];
        }),
      );
      expect(heard.map((h) => h.store)).toEqual(['unit']);
      expect(answer).toBe(42);
    } finally {
      await client.$disconnect();
    }
  });

  it('2. models are camelCase properties whose methods are READ_METHODS and writes, nothing else', () => {
    const client = new PrismaClient({ adapter: new PrismaPg(pool) });
    const WRITES = new Set([
      'create',
      'createMany',
      'createManyAndReturn',
      'update',
      'updateMany',
      'updateManyAndReturn',
      'upsert',
      'delete',
      'deleteMany',
    ]);
    // MongoDB's raw reads: on every model, answered by no SQL database.
    const MONGODB_ONLY = new Set(['findRaw', 'aggregateRaw']);
    const delegate: unknown = Reflect.get(client, 'paymentSource');
    expect(typeof delegate).toBe('object');
    const methods = Object.keys(delegate as object).filter(
      (k) => typeof Reflect.get(delegate as object, k) === 'function' && !k.startsWith('$') && !k.startsWith('_'),
    );
    for (const m of READ_METHODS) expect(methods).toContain(m);
    // A method neither reading nor writing as listed would escape the replica routing's choice.
    expect(methods.filter((m) => !READ_METHODS.has(m) && !WRITES.has(m) && !MONGODB_ONLY.has(m))).toEqual([]);
  });
});

describe('node-postgres as @prisma/adapter-pg calls it (src/db/pg-internals.ts)', () => {
  it("1. an interactive transaction opens with a bare BEGIN through the client's query(); 2. single statements are pool.query(one QueryConfig); 3. the pool makes clients of config.Client", async () => {
    const clientTexts: string[] = [];
    const poolCalls: unknown[][] = [];
    class RecordingClient extends pg.Client {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one signature over all of query()'s overloads
      override query(...args: unknown[]): any {
        const text = statementText(args[0]);
        if (text !== undefined) clientTexts.push(text);
        return Reflect.apply(super.query.bind(this), undefined, args);
      }
    }
    class RecordingPool extends pg.Pool {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
      override query(...args: unknown[]): any {
        poolCalls.push(args);
        return Reflect.apply(super.query.bind(this), undefined, args);
      }
    }
    const pool = new RecordingPool({ connectionString: SERVER_URL, max: 2, Client: RecordingClient });
    const client = new PrismaClient({ adapter: new PrismaPg(pool) });
    try {
      await client.$transaction(async (tx) => tx.$queryRawUnsafe('SELECT 1'));
      expect(clientTexts.some(isBareBegin)).toBe(true);
      await client.$queryRawUnsafe('SELECT 2');
      expect(poolCalls.some((args) => isAdapterStatement(args) && /SELECT 2/.test(args[0].text))).toBe(true);
    } finally {
      await client.$disconnect();
      await pool.end();
    }
  });
});

describe('ws (src/graphql/ws-internals.ts)', () => {
  it('1. a client breaking the protocol gets the socket closed, then an "error" with a code that only the interceptor hears', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', maxPayload: 16 });
    const codes: (string | undefined)[] = [];
    let otherListenerHeard = false;
    wss.on('connection', (ws) => {
      interceptProtocolErrors(ws, (code) => codes.push(code));
      ws.on('error', () => (otherListenerHeard = true));
    });
    try {
      await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
      const { port } = wss.address() as AddressInfo;
      const client = new WebSocket(`ws://127.0.0.1:${port}`);
      const closed = new Promise<number>((resolve) => client.on('close', (code) => resolve(code)));
      await new Promise<void>((resolve) => client.on('open', () => resolve()));
      client.send('x'.repeat(64));
      expect(await closed).toBe(1009);
      await until('the interceptor heard the error', () => codes.length > 0);
      expect(codes).toEqual(['WS_ERR_UNSUPPORTED_MESSAGE_LENGTH']);
      expect(otherListenerHeard).toBe(false);
    } finally {
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    }
  });
});

describe('light-my-request and Express (src/rest/batch/inject-internals.ts)', () => {
  const echo = () => {
    const app = express();
    app.post('/echo', express.json(), (req, res) => {
      res.status(201).set('ETag', '"x"').json({ got: req.body });
    });
    return app;
  };

  it('1. handed an Express app, it rewrites the prototypes every Express app shares; handed injectable(app), it does not, and the app answers', async () => {
    const app = echo();
    const shared = Object.getPrototypeOf(app.response);
    const before = Object.getPrototypeOf(shared);
    const answer = await inject(injectable(app), {
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":1}',
    });
    expect([answer.statusCode, answer.headers.etag, answer.json()]).toEqual([201, '"x"', { got: { a: 1 } }]);
    expect(Object.getPrototypeOf(shared)).toBe(before);
    // The library's own way with an Express app changes what every app's responses inherit.
    await inject(echo(), { method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(Object.getPrototypeOf(shared)).not.toBe(before);
  });
});
