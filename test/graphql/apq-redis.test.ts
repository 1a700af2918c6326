// The APQ store shared by instances through Redis (127.0.0.1:6379 here; a key prefix of this
// run's own, its keys deleted after, never a flush): a query registered through one instance
// answers by its hash alone on another. With Redis unreachable a hash is a miss and the
// client's text is answered, never an error of the service.

import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { createPersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { Redis } from 'ioredis';
import type { App } from '../../src/app';
import { connectRedis } from '../../src/http/redis';
import { createLogger } from '../../src/http/logger';
import { APQ_LIMITS } from '../../src/graphql/persisted/store';
import { createTestApp, createVariantApp, type TestApp } from '../support/app';
import { fixture } from '../support/fixture';
import { apqExtension, getGraphql, sha256, type Json } from '../support/graphql';
import { listen } from '../support/live-app';
import { deleteKeys, REDIS_URL, testKeyPrefix } from '../support/redis';
import { until } from '../support/until';

const prefix = testKeyPrefix('apq');

let t: TestApp;
const clients: Redis[] = [];
const running: Array<{ app: App; close(): Promise<void> }> = [];

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  for (const r of running) {
    await r.close();
    await r.app.stop();
  }
  await deleteKeys(prefix);
  for (const c of clients) c.disconnect();
  await t.close();
});

/** An instance of the service over the test's database with its own Redis connection; its /graphql URL. */
async function instance(redisUrl = REDIS_URL): Promise<string> {
  const client = connectRedis(redisUrl, createLogger('silent'), { commandTimeoutMs: 10_000 });
  clients.push(client);
  if (redisUrl === REDIS_URL) await new Promise((resolve) => client.once('ready', resolve));
  const app = await createVariantApp(t, { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix }, { redis: { client, keyPrefix: prefix } });
  const server = await listen(app);
  running.push({ app, close: () => server.close() });
  return `${server.base}/graphql`;
}

const auth = () => ({ Authorization: `Bearer ${t.tokens.reader}` });

const byHash = async (url: string, hash: string): Promise<Json> =>
  (await getGraphql(url, { extensions: apqExtension(hash) }, t.tokens.reader)).json;

const QUERY = gql`
  query SharedTerms {
    academicTerms(first: 2, orderBy: { code: ASC }) {
      totalCount
      nodes {
        id
        code
      }
    }
  }
`;

it('a query registered through one instance (Apollo Client) answers by hash alone on another', async () => {
  const a = await instance();
  const b = await instance();
  const link = createPersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(new HttpLink({ uri: a, headers: auth() }));
  const client = new ApolloClient({ link, cache: new InMemoryCache() });
  const first = await client.query({ query: QUERY });
  expect(first.data).toMatchObject({ academicTerms: { totalCount: fixture.academicTerms.length } });

  // The text Apollo Client sent, and its hash, as Redis holds them.
  const redis = new Redis(REDIS_URL);
  try {
    const keys = await until('the registration in Redis', async () => {
      const found = await redis.keys(`${prefix}apq:*`);
      return found.length > 0 ? found : undefined;
    });
    expect(keys).toHaveLength(1);
    const key = keys[0]!;
    const hash = key.slice(`${prefix}apq:`.length);
    const text = (await redis.get(key))!;
    expect(sha256(text)).toBe(hash);
    const ttl = await redis.ttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(APQ_LIMITS.ttlSeconds);

    const onB = await byHash(b, hash);
    expect(onB.errors).toBeUndefined();
    expect(onB.data.academicTerms.totalCount).toBe(fixture.academicTerms.length);
    const codes = (page: Json): string[] => page.academicTerms.nodes.map((n: { code: string }) => n.code);
    expect(codes(onB.data)).toEqual(codes(first.data));

    // A second Apollo Client, on the other instance: one GET with the hash, answered.
    const methods: string[] = [];
    const recording: typeof fetch = (input, init) => {
      methods.push(
        `${init?.method ?? 'GET'} ${new URL(String(input instanceof Request ? input.url : input)).searchParams.has('query') ? 'text' : 'hash'}`,
      );
      return fetch(input, init);
    };
    const other = new ApolloClient({
      link: createPersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(
        new HttpLink({ uri: b, fetch: recording, headers: auth() }),
      ),
      cache: new InMemoryCache(),
    });
    expect((await other.query({ query: QUERY })).data).toEqual(first.data);
    expect(methods).toEqual(['GET hash']);
  } finally {
    redis.disconnect();
  }
});

it(`a document over ${APQ_LIMITS.entryBytes} bytes is answered and not written to Redis`, async () => {
  const a = await instance();
  const big = `# ${'z'.repeat(APQ_LIMITS.entryBytes)}\nquery BigShared { __typename }`;
  const hash = sha256(big);
  const res = await fetch(a, {
    method: 'POST',
    headers: { ...auth(), 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: big, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }),
  });
  expect(await res.json()).toEqual({ data: { __typename: 'Query' } });
  const redis = new Redis(REDIS_URL);
  try {
    // Registration is written after the answer: a small one sent after it lands first (one
    // connection, in order), and the big one is not there.
    const small = '{ __typename }';
    const smallHash = sha256(small);
    await fetch(a, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: small, extensions: { persistedQuery: { version: 1, sha256Hash: smallHash } } }),
    });
    await until('the small registration in Redis', async () => (await redis.exists(`${prefix}apq:${smallHash}`)) === 1);
    expect(await redis.exists(`${prefix}apq:${hash}`)).toBe(0);
  } finally {
    redis.disconnect();
  }
});

it('with Redis unreachable a hash is a miss and the text is answered', async () => {
  const down = await instance('redis://127.0.0.1:1');
  const query = '{ accounts(first: 1) { totalCount } }';
  const hash = sha256(query);
  expect((await byHash(down, hash)).errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  const res = await fetch(down, {
    method: 'POST',
    headers: { ...auth(), 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }),
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ data: { accounts: { totalCount: fixture.accounts.length } } });
});
