// What a unit of work rolled back never reaches the change log, so no subscriber hears of it:
// a GraphQL operation whose second mutation failed and a $batch change set that failed come
// and go; the first event a subscriber gets is the write after them that was kept.

import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { token } from '../support/app';
import { startLiveApp, type LiveApp } from '../support/live-app';
import { multipartBatch } from '../support/batch';

let live: LiveApp;
let auditor: string;
let maintainer: string;

beforeAll(async () => {
  live = await startLiveApp();
  auditor = await token('billing.read billing.audit');
  maintainer = await token('billing.read billing.maintain');
});
afterAll(() => live.close());

const unique = () => Math.random().toString(36).slice(2, 8).toUpperCase();

async function post(path: string, contentType: string, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${live.base}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${maintainer}`, 'Content-Type': contentType },
    body,
  });
  return { status: res.status, text: await res.text() };
}

it('a subscriber never hears of the writes of a rolled-back operation or change set', async () => {
  const client = createClient({
    url: live.wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { Authorization: `Bearer ${auditor}` },
  });
  try {
    const events = client.iterate<{ changes: { recordId: string; operation: string; resource: string } }>({
      query: 'subscription($after: String) { changes(resource: "account", after: $after) { recordId operation resource } }',
      variables: { after: await live.head() },
    });
    const code = `SUB${unique()}`;
    const account = (c: string) => ({ code: c, name: 'Rolled back', type: 'Expense' });

    // GraphQL: the second field fails (the same code), the first is undone.
    const gql = await post(
      '/graphql',
      'application/json',
      JSON.stringify({
        query: 'mutation($a: AccountInput!, $b: AccountInput!) { a: createAccount(input: $a) { id } b: createAccount(input: $b) { id } }',
        variables: { a: account(code), b: account(code) },
      }),
    );
    expect(JSON.parse(gql.text).errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual([
      'DUPLICATE_CODE',
      'ROLLED_BACK',
    ]);

    // $batch: a change set whose second write fails.
    const { contentType, body } = multipartBatch([
      [
        { method: 'POST', url: 'accounts', body: account(code) },
        { method: 'POST', url: 'accounts', body: account(code) },
      ],
    ]);
    const batch = await post('/api/v1/$batch', contentType, body);
    expect(batch.status).toBe(200);
    expect(batch.text).toContain('HTTP/1.1 409 Conflict');

    // Then a write that is kept: the first event the subscriber gets.
    const kept = await post('/api/v1/accounts', 'application/json', JSON.stringify(account(`${code}K`)));
    expect(kept.status).toBe(201);
    const first = await events.next();
    expect(first.done).toBe(false);
    expect(first.value?.data?.changes).toEqual({ recordId: JSON.parse(kept.text).id, operation: 'CREATED', resource: 'account' });
    await events.return?.();
  } finally {
    await client.dispose();
  }
});
