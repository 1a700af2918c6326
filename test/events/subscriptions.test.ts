import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { token } from '../support/app';
import { fixture } from '../support/fixture';
import { startLiveApp, type LiveApp } from '../support/live-app';

// GraphQL subscriptions over graphql-ws on the HTTP server's port and path (/graphql): the
// token in connection_init, the scope billing.audit, changes made through REST delivered
// within a second, a reconnect with the last cursor missing nothing, the document limits,
// and hostile WebSocket input answered without harm to anyone else.

let live: LiveApp;
let auditor: string;
let writer: string;
const sourceId = fixture.paymentSources[0]!.id;

beforeAll(async () => {
  live = await startLiveApp();
  auditor = await token('billing.read billing.audit');
  writer = await token('billing.read billing.write');
});

afterAll(async () => {
  await live.close();
});

interface ChangeEvent {
  id: string;
  seq: string;
  resource: string;
  recordId: string;
  operation: string;
  changes: Array<{ field: string; old: string | null; new: string | null }>;
}

const SELECTION = 'id seq resource recordId operation changes { field old new }';

function client(authorization: string | undefined): Client {
  return createClient({
    url: live.wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: true,
    connectionParams: authorization === undefined ? {} : { Authorization: `Bearer ${authorization}` },
  });
}

/** A subscription's received events (with their arrival times) and its end. */
function subscribe(c: Client, query: string, variables: Record<string, unknown> = {}) {
  const received: Array<{
    at: number;
    data?: { changes: ChangeEvent } | null;
    errors?: Array<{ message: string; extensions?: { code?: string } }>;
  }> = [];
  let ended: unknown;
  let wake: (() => void) | undefined;
  const stop = c.subscribe<{ changes: ChangeEvent }>(
    { query, variables },
    {
      next: (r) => {
        received.push({ at: Date.now(), data: r.data ?? null, ...(r.errors ? { errors: r.errors as never } : {}) });
        wake?.();
      },
      error: (e) => {
        ended = e;
        wake?.();
      },
      complete: () => {
        ended ??= 'complete';
        wake?.();
      },
    },
  );
  return {
    received,
    ended: () => ended,
    stop,
    /** Waits until `test` holds on what arrived (or the subscription ended). */
    async until<T>(test: () => T | undefined, timeoutMs = 10_000): Promise<T> {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const v = test();
        if (v !== undefined) return v;
        if (ended !== undefined) throw new Error(`the subscription ended: ${JSON.stringify(ended, ['code', 'reason', 'message'])}`);
        if (Date.now() > end) throw new Error('timed out');
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 50);
        });
      }
    },
  };
}

/** Makes the change; resolves with the time its 200 arrived (the write committed before). */
async function patch(id: string, description: string): Promise<number> {
  const r = await fetch(`${live.base}/api/v1/payment-sources/${id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
    body: JSON.stringify({ description }),
  });
  expect(r.status).toBe(200);
  return Date.now();
}

const described = (e: ChangeEvent): string | null | undefined => e.changes.find((c) => c.field === 'description')?.new;

it('delivers a change made through REST within a second, with its fields old and new', async () => {
  const c = client(auditor);
  const s = subscribe(c, `subscription($after: String) { changes(resource: "payment-source", after: $after) { ${SELECTION} } }`, {
    after: await live.head(),
  });
  const value = `live ${Date.now()}`;
  const committed = await patch(sourceId, value);
  const got = await s.until(() => s.received.find((r) => r.data && described(r.data.changes) === value));
  // From the write's acknowledgement (the event may even come first).
  expect(got.at - committed).toBeLessThan(1000);
  expect(got.data!.changes).toMatchObject({ resource: 'payment-source', recordId: sourceId, operation: 'UPDATED' });
  expect(got.data!.changes.changes).toContainEqual(expect.objectContaining({ field: 'description', new: value }));
  s.stop();
  await c.dispose();
});

it('a subscriber that reconnects with the last seq it received gets what it missed, in order, then live changes', async () => {
  const first = client(auditor);
  const s1 = subscribe(first, `subscription($after: String) { changes(after: $after) { ${SELECTION} } }`, { after: await live.head() });
  await patch(sourceId, 'before the break');
  const last = await s1.until(() => s1.received.find((r) => r.data && described(r.data.changes) === 'before the break'));
  s1.stop();
  await first.dispose();

  const missed = ['missed 1', 'missed 2', 'missed 3'];
  for (const m of missed) await patch(sourceId, m);

  const second = client(auditor);
  const s2 = subscribe(second, `subscription($after: String) { changes(after: $after) { ${SELECTION} } }`, {
    after: last.data!.changes.seq,
  });
  await s2.until(() => (s2.received.length >= 3 ? true : undefined));
  await patch(sourceId, 'after the break');
  await s2.until(() => (s2.received.length >= 4 ? true : undefined));
  expect(s2.received.map((r) => described(r.data!.changes))).toEqual([...missed, 'after the break']);
  const seqs = s2.received.map((r) => BigInt(r.data!.changes.seq));
  expect([...seqs].sort((a, b) => (a < b ? -1 : 1))).toEqual(seqs);
  s2.stop();
  await second.dispose();
});

/** Opens a raw graphql-ws connection and sends connection_init; resolves with the close or the ack. */
function rawConnect(payload: unknown): Promise<{ socket: WebSocket; acked: boolean; close?: { code: number; reason: string } }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(live.wsUrl, 'graphql-transport-ws');
    socket.on('error', reject);
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload })));
    socket.on('message', (m) => {
      if (JSON.parse((m as Buffer).toString('utf8')).type === 'connection_ack') resolve({ socket, acked: true });
    });
    socket.on('close', (code, reason) => resolve({ socket, acked: false, close: { code, reason: reason.toString() } }));
  });
}

it('refuses a token without billing.audit (4403 FORBIDDEN), a missing or bad token (4401 UNAUTHENTICATED), and closes the connection when its token expires', async () => {
  const noAudit = await rawConnect({ Authorization: `Bearer ${writer}` });
  expect(noAudit).toMatchObject({ acked: false, close: { code: 4403 } });
  expect(noAudit.close!.reason).toMatch(/^FORBIDDEN: .*billing\.audit/);

  const missing = await rawConnect({});
  expect(missing).toMatchObject({ acked: false, close: { code: 4401 } });
  expect(missing.close!.reason).toMatch(/^UNAUTHENTICATED: /);

  const bad = await rawConnect({ authorization: 'Bearer not.a.token' });
  expect(bad).toMatchObject({ acked: false, close: { code: 4401 } });

  // A connection lives no longer than its token.
  const shortLived = await rawConnect({ Authorization: `Bearer ${await token('billing.audit', undefined, { expiresIn: '2s' })}` });
  expect(shortLived.acked).toBe(true);
  const expired = await new Promise<{ code: number; reason: string }>((r) =>
    shortLived.socket.on('close', (code, why) => r({ code, reason: why.toString() })),
  );
  expect(expired).toEqual({ code: 4401, reason: 'UNAUTHENTICATED: The token has expired' });

  // The lower-case key works too.
  const ok = await rawConnect({ authorization: `Bearer ${auditor}` });
  expect(ok.acked).toBe(true);
  ok.socket.close();
});

/** Subscribes on a raw acknowledged connection and resolves with the first message about that id, or the close. */
async function rawSubscribe(payload: unknown): Promise<{ type?: string; payload?: unknown; close?: number }> {
  const { socket } = await rawConnect({ Authorization: `Bearer ${auditor}` });
  return new Promise((resolve) => {
    socket.on('message', (m) => {
      const msg = JSON.parse((m as Buffer).toString('utf8')) as { type: string; id?: string; payload?: unknown };
      if (msg.id === '1') {
        socket.close();
        resolve({ type: msg.type, payload: msg.payload });
      }
    });
    socket.on('close', (code) => resolve({ close: code }));
    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload }));
  });
}

const codeOf = (r: { payload?: unknown }): unknown => {
  const p = r.payload as Array<{ extensions?: { code?: string } }> | { errors?: Array<{ extensions?: { code?: string } }> };
  return Array.isArray(p) ? p[0]?.extensions?.code : p?.errors?.[0]?.extensions?.code;
};

it('applies the document limits, GraphQL validation and argument checks with catalogue codes', async () => {
  const aliases = Array.from({ length: 51 }, (_, i) => `a${i}: id`).join(' ');
  expect(codeOf(await rawSubscribe({ query: `subscription { changes { ${aliases} } }` }))).toBe('QUERY_TOO_COMPLEX');
  const long = `subscription { changes { ${Array.from({ length: 2100 }, () => 'id').join(' ')} } }`;
  expect(codeOf(await rawSubscribe({ query: long }))).toBe('QUERY_TOO_COMPLEX');
  expect(codeOf(await rawSubscribe({ query: 'subscription { changes { nope } }' }))).toBe('GRAPHQL_VALIDATION_FAILED');
  expect(codeOf(await rawSubscribe({ query: 'subscription {' }))).toBe('GRAPHQL_PARSE_FAILED');
  expect(codeOf(await rawSubscribe({ query: '{ paymentSources { nodes { id } } }' }))).toBe('WRONG_TRANSPORT');
  expect(codeOf(await rawSubscribe({ query: 'subscription { changes(resource: "nope") { id } }' }))).toBe('VALIDATION_FAILED');
  expect(codeOf(await rawSubscribe({ query: 'subscription { changes(after: "-1") { id } }' }))).toBe('INVALID_QUERY');
  expect(
    codeOf(await rawSubscribe({ query: 'subscription($a: String) { changes(after: $a) { id } }', variables: { a: { deep: [1] } } })),
  ).toBe('VALIDATION_FAILED');
});

it('closes a socket that sends something other than the protocol, and serves everyone else as before', async () => {
  const garbage = await rawConnect({ Authorization: `Bearer ${auditor}` });
  const closed = new Promise<number>((r) => garbage.socket.on('close', (code) => r(code)));
  garbage.socket.send('not json at all');
  expect(await closed).toBe(4400);

  const huge = await rawConnect({ Authorization: `Bearer ${auditor}` });
  const closedHuge = new Promise<number>((r) => huge.socket.on('close', (code) => r(code)));
  huge.socket.send(
    JSON.stringify({ id: '1', type: 'subscribe', payload: { query: `subscription { changes { id } } #${'x'.repeat(70_000)}` } }),
  );
  expect(await closedHuge).toBe(1009);

  // Another subprotocol: the handshake names none, and the client gives up.
  const wrongProtocol = await new Promise<number>((resolve) => {
    const s = new WebSocket(live.wsUrl, 'something-else');
    s.on('error', () => undefined);
    s.on('close', (code) => resolve(code));
  });
  expect([1006, 4406]).toContain(wrongProtocol);

  // A subscription over plain HTTP is a client error, not a server fault.
  const http = await fetch(`${live.base}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${auditor}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'subscription { changes { id } }' }),
  });
  expect(http.status).toBe(400);
  expect(((await http.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe('WRONG_TRANSPORT');

  // Others are unaffected.
  const c = client(auditor);
  const s = subscribe(c, `subscription($after: String) { changes(after: $after) { ${SELECTION} } }`, { after: await live.head() });
  await patch(sourceId, 'still served');
  await s.until(() => s.received.find((r) => r.data && described(r.data.changes) === 'still served'));
  s.stop();
  await c.dispose();
});

it('closes open sockets with 1001 when the app shuts its sockets', async () => {
  const other = await startLiveApp();
  try {
    const socket = new WebSocket(other.wsUrl, 'graphql-transport-ws');
    await new Promise((r) => socket.on('open', r));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${auditor}` } }));
    await new Promise((r) => socket.on('message', r));
    const closed = new Promise<number>((r) => socket.on('close', (code) => r(code)));
    await other.app.closeSockets();
    expect(await closed).toBe(1001);
  } finally {
    await other.close();
  }
});
