// Automatic persisted queries (APQ) as front-end apps use them, through the real client
// libraries over HTTP: Apollo Client's persisted-query link (given the SHA-256 it asks for, hashed
// queries as GET) and urql's persistedExchange; the protocol's answers; every limit and
// check of an inline document holding at registration and at use; the in-process store's
// bound under 10,000 distinct registrations. The APQ store shared through Redis:
// apq-redis.test.ts; trusted documents: trusted-documents.test.ts.

import { ApolloClient, HttpLink, InMemoryCache, gql as apolloGql } from '@apollo/client';
import { createPersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { Client, fetchExchange } from '@urql/core';
import { persistedExchange } from '@urql/exchange-persisted';
import type { App } from '../../src/app';
import { LIMITS } from '../../src/graphql/limits';
import { APQ_LIMITS, apqEntrySize, memoryApqStore } from '../../src/graphql/persisted/store';
import { createVariantApp, type TestApp } from '../support/app';
import { fixture } from '../support/fixture';
import { apqExtension, firstCode, getGraphql, postGraphql, sha256 } from '../support/graphql';
import { listen, listeningTestApp } from '../support/live-app';

const live = listeningTestApp();
let t: TestApp;
let base: string;
beforeAll(() => {
  t = live.app();
  base = live.url();
});

/** What went over the wire: each request's method, whether it carried the text, and the answer's status and Cache-Control. */
interface Sent {
  method: string;
  withText: boolean;
  status: number;
  cacheControl: string | null;
}

/** fetch that records what each request carried. */
function recording(): { fetch: typeof fetch; sent: Sent[] } {
  const sent: Sent[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const method = init?.method ?? 'GET';
    const withText =
      method === 'GET' ? new URL(url).searchParams.has('query') : typeof init?.body === 'string' && init.body.includes('"query"');
    const res = await fetch(input, init);
    sent.push({ method, withText, status: res.status, cacheControl: res.headers.get('cache-control') });
    return res;
  };
  return { fetch: wrapped, sent };
}

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

const post = (body: unknown, token = t.tokens.reader) => postGraphql(base, body, token);
const get = (params: Record<string, unknown>, token = t.tokens.reader) => getGraphql(base, params, token);
const apq = (query: string) => apqExtension(sha256(query));
const codeOf = firstCode;

function apolloClient(f: typeof fetch): ApolloClient {
  const link = createPersistedQueryLink({ sha256, useGETForHashedQueries: true }).concat(
    new HttpLink({ uri: base, fetch: f, headers: auth(t.tokens.reader) }),
  );
  return new ApolloClient({ link, cache: new InMemoryCache() });
}

const SOURCES = apolloGql`
  query ApqSources {
    paymentSources(first: 5, orderBy: { code: ASC }) {
      totalCount
      nodes { id code name }
    }
  }
`;

describe('Apollo Client with createPersistedQueryLink, hashed queries as GET', () => {
  it('registers once (hash only → not found → hash and text), then every client asks with the hash alone, by GET, and gets the same data', async () => {
    const first = recording();
    const a = await apolloClient(first.fetch).query({ query: SOURCES });
    expect(first.sent.map((s) => [s.method, s.withText])).toEqual([
      ['GET', false],
      ['POST', true],
    ]);
    const inline = await post({ query: '{ paymentSources(first: 5, orderBy: { code: ASC }) { totalCount nodes { id code name } } }' });
    const expected = inline.json.data.paymentSources;
    expect(expected.nodes).toHaveLength(Math.min(5, fixture.paymentSources.length));
    expect(a.data).toMatchObject({
      paymentSources: { totalCount: expected.totalCount, nodes: expected.nodes.map((n: object) => expect.objectContaining(n)) },
    });

    const second = recording();
    const b = await apolloClient(second.fetch).query({ query: SOURCES });
    expect(second.sent).toEqual([{ method: 'GET', withText: false, status: 200, cacheControl: 'private, no-store' }]);
    expect(b.data).toEqual(a.data);
  });
});

describe('urql with persistedExchange', () => {
  const urql = (f: typeof fetch) =>
    new Client({
      url: base,
      exchanges: [persistedExchange({ preferGetForPersistedQueries: true }), fetchExchange],
      fetch: f,
      fetchOptions: { headers: auth(t.tokens.reader) },
      requestPolicy: 'network-only',
    });
  const QUERY = 'query UrqlAccounts { accounts(first: 3, orderBy: { code: ASC }) { nodes { id code type } } }';

  it('registers, then asks by hash with GET and gets the data', async () => {
    const first = recording();
    const a = await urql(first.fetch).query(QUERY, {}).toPromise();
    expect(a.error).toBeUndefined();
    // urql sends the registration by GET as well (preferGetForPersistedQueries).
    expect(first.sent.map((s) => [s.method, s.withText])).toEqual([
      ['GET', false],
      ['GET', true],
    ]);
    const second = recording();
    const b = await urql(second.fetch).query(QUERY, {}).toPromise();
    expect(second.sent.map((s) => [s.method, s.withText, s.status])).toEqual([['GET', false, 200]]);
    expect(b.data).toEqual(a.data);
    expect(b.data.accounts.nodes.length).toBeGreaterThan(0);
  });
});

describe('the protocol', () => {
  it('an unknown hash is PERSISTED_QUERY_NOT_FOUND, by GET and by POST', async () => {
    const query = '{ accounts(first: 1) { totalCount } }';
    const byGet = await get({ extensions: apq(query) });
    expect([byGet.status, codeOf(byGet.json)]).toEqual([200, 'PERSISTED_QUERY_NOT_FOUND']);
    expect(byGet.headers.get('cache-control')).toBe('private, no-store');
    const byPost = await post({ extensions: apq(query) });
    expect(codeOf(byPost.json)).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  it('a text that does not match its hash is refused, and nothing is registered', async () => {
    const query = '{ taxCodes(first: 1) { totalCount } }';
    const wrong = await post({ query, extensions: { persistedQuery: { version: 1, sha256Hash: sha256('something else') } } });
    expect(wrong.status).toBe(400);
    expect(codeOf((await post({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256('something else') } } })).json)).toBe(
      'PERSISTED_QUERY_NOT_FOUND',
    );
  });

  it('a registration by POST answers by GET, and a GraphQL GET says private, no-store', async () => {
    const query = '{ academicTerms(first: 2) { totalCount } }';
    const registered = await post({ query, extensions: apq(query) });
    expect(registered.json.errors).toBeUndefined();
    const used = await get({ extensions: apq(query) });
    expect(used.json).toEqual(registered.json);
    expect(used.headers.get('cache-control')).toBe('private, no-store');
    const inline = await get({ query });
    expect(inline.headers.get('cache-control')).toBe('private, no-store');
  });
});

describe('a registered document passes every check an inline one does', () => {
  /** Five pages of customers with their addresses: about 12,000 objects each at 1000 a page, together over the cost limit. */
  const pages = (first: string) =>
    ['a', 'b', 'c', 'd', 'e'].map((alias) => `${alias}: customers(first: ${first}) { nodes { id addresses { id } } }`).join(' ');
  const COSTLY = `{ ${pages('1000')} }`;

  it('a document over the cost limit is refused at registration and never stored', async () => {
    const registered = await post({ query: COSTLY, extensions: apq(COSTLY) });
    expect([registered.status, codeOf(registered.json)]).toEqual([400, 'QUERY_TOO_COMPLEX']);
    expect(registered.json.errors[0].message).toMatch(/at most 50000/);
    expect(codeOf((await get({ extensions: apq(COSTLY) })).json)).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  it('a document over the breadth limit is refused at registration', async () => {
    const wide = `{ ${Array.from({ length: LIMITS.aliases + 1 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    const refused = await post({ query: wide, extensions: apq(wide) });
    expect(codeOf(refused.json)).toBe('QUERY_TOO_COMPLEX');
    expect(codeOf((await get({ extensions: apq(wide) })).json)).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  it('at use: the cost its variables give, and the token`s scope, are checked again', async () => {
    const query = `query Pages($n: Int) { ${pages('$n')} }`;
    const small = await post({ query, variables: { n: 2 }, extensions: apq(query) });
    expect(small.json.errors).toBeUndefined();
    const big = await get({ variables: { n: 1000 }, extensions: apq(query) });
    expect([big.status, codeOf(big.json)]).toEqual([400, 'QUERY_TOO_COMPLEX']);
    const writeOnly = await get({ variables: { n: 2 }, extensions: apq(query) }, t.tokens.writeOnly);
    expect([writeOnly.status, codeOf(writeOnly.json)]).toEqual([403, 'FORBIDDEN']);
    const again = await get({ variables: { n: 2 }, extensions: apq(query) });
    expect(again.json).toEqual(small.json);
  });

  it('a mutation registered by POST is refused as GET, as an inline one is', async () => {
    const query = 'mutation { deletePaymentSource(id: "7e57a7e5-0000-4000-8000-00000000abcd") }';
    await post({ query, extensions: apq(query) }, t.tokens.writer);
    const byGet = await get({ extensions: apq(query) }, t.tokens.writer);
    expect(byGet.status).toBe(405);
  });

  it('without a token, a hash is answered 401 before anything is looked up', async () => {
    // The header that passes CSRF prevention without a token (a GET with neither is refused as a possible cross-site request).
    const res = await fetch(`${base}?extensions=${encodeURIComponent(JSON.stringify(apq('{ __typename }')))}`, {
      headers: { 'Apollo-Require-Preflight': 'true' },
    });
    expect(res.status).toBe(401);
    expect(codeOf(await res.json())).toBe('UNAUTHENTICATED');
  });
});

describe('the in-process store is bounded', () => {
  let variant: App;
  const store = memoryApqStore();
  beforeAll(async () => {
    variant = await createVariantApp(t, {}, { apqStore: store });
  });
  afterAll(() => variant.stop());

  /** Bytes the store holds now, as its bound counts them. */
  const held = async (): Promise<number> => {
    let total = 0;
    for (const key of store.keys()) total += apqEntrySize((await store.get(key)) ?? '', key);
    return total;
  };

  it(`10,000 distinct registrations never hold more than ${APQ_LIMITS.memoryBytes} bytes, and the newest answer by hash`, async () => {
    const local = await listen(variant);
    try {
      const padding = `# ${'x'.repeat(600)}\n`;
      const doc = (i: number) => `${padding}query Registration${i} { __typename }`;
      // 10,000 documents of over 600 bytes: about 1.5 times the bound. Sent as batches (10 a request).
      let most = 0;
      for (let i = 0; i < 10_000; i += LIMITS.batchOperations) {
        const batch = Array.from({ length: LIMITS.batchOperations }, (_, k) => ({ query: doc(i + k), extensions: apq(doc(i + k)) }));
        const res = await fetch(`${local.base}/graphql`, {
          method: 'POST',
          headers: { ...auth(t.tokens.reader), 'Content-Type': 'application/json' },
          body: JSON.stringify(batch),
        });
        const answers = (await res.json()) as Array<{ data?: unknown }>;
        expect(answers.every((a) => a.data !== undefined)).toBe(true);
        if (i % 1000 === 0) most = Math.max(most, await held());
      }
      most = Math.max(most, await held());
      expect(store.keys().length).toBeLessThan(10_000);
      expect(most).toBeLessThanOrEqual(APQ_LIMITS.memoryBytes);
      expect(most).toBeGreaterThan(APQ_LIMITS.memoryBytes * 0.9);
      const newest = await fetch(`${local.base}/graphql?extensions=${encodeURIComponent(JSON.stringify(apq(doc(9_999))))}`, {
        headers: auth(t.tokens.reader),
      });
      expect(await newest.json()).toEqual({ data: { __typename: 'Query' } });
    } finally {
      await local.close();
    }
  });

  it(`a document over ${APQ_LIMITS.entryBytes} bytes is answered but not kept`, async () => {
    const local = await listen(variant);
    try {
      const big = `# ${'y'.repeat(APQ_LIMITS.entryBytes)}\nquery Big { __typename }`;
      const res = await fetch(`${local.base}/graphql`, {
        method: 'POST',
        headers: { ...auth(t.tokens.reader), 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: big, extensions: apq(big) }),
      });
      expect(await res.json()).toEqual({ data: { __typename: 'Query' } });
      expect(await store.get(sha256(big))).toBeUndefined();
    } finally {
      await local.close();
    }
  });
});
