// What a front-end team meets on /graphql, driven through the libraries it uses (Apollo
// Client's HttpLink, BatchHttpLink, persisted-query link and error link) against the app on a
// real HTTP server:
//
//  - graphql-codegen's document ids (`sha256:<hex>`) taken unmodified wherever a document id
//    or a persisted-query hash is, in production's trusted mode and in development;
//  - a persisted-query hash that does not match its text: a client error with its own code,
//    not logged as an error;
//  - a batch answered 200 when every operation got its own answer, so the results that ran
//    are kept (a mutation's included);
//  - every answer of /graphql, whatever layer refuses the request, in the GraphQL shape with
//    `extensions.code` and the right HTTP status (and `WWW-Authenticate: Bearer` on 401);
//  - GRAPHQL_DOCUMENTS=trusted honoured outside production too, and said at start.

import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { ErrorLink } from '@apollo/client/link/error';
import { createPersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { getOperationAST, print, type DocumentNode } from 'graphql';
import pino from 'pino';
import request from 'supertest';
import type { AppDeps } from '../../src/app';
import { activeAssetAccount, fixture } from '../support/fixture';
import { TEST_SECRET, type TestApp } from '../support/app';
import { PRODUCTION_ENV } from '../support/browser-http';
import { apqExtension, firstCode, postGraphql, sha256 } from '../support/graphql';
import { trustedAppSuite, trustedSourcesData } from '../support/trusted-app';

const suite = trustedAppSuite('front-end-traps-');
let t: TestApp;
let manifestFile: string;
/** graphql-codegen's manifest of test/fixtures/trusted-app: id (`sha256:<hex>`) → document. */
let manifest: Record<string, string>;

beforeAll(() => {
  ({ t, manifestFile, manifest } = suite.current());
});

/** Every log line of a variant app, parsed. */
function capturingLogger(): { logger: AppDeps['logger']; lines: Array<{ level: number; msg: string } & Record<string, unknown>> } {
  const lines: Array<{ level: number; msg: string } & Record<string, unknown>> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as (typeof lines)[number]) });
  return { logger, lines };
}

const serve = (env: Readonly<Record<string, string>>, extra?: Partial<AppDeps>) => suite.serve(env, extra);

const TRUSTED = () => ({ GRAPHQL_TRUSTED_DOCUMENTS: manifestFile, GRAPHQL_DOCUMENTS: 'trusted' });
const auth = (token = t.tokens.writer) => ({ Authorization: `Bearer ${token}` });

/** The manifest's id of the operation named so, exactly as codegen wrote it (`sha256:<hex>`). */
const codegenId = (document: DocumentNode): string => {
  const name = getOperationAST(document)?.name?.value ?? '';
  const entry = Object.entries(manifest).find(([, body]) => new RegExp(`^(query|subscription) ${name}\\b`).test(body));
  if (!entry) throw new Error(`${name} is not in the manifest`);
  return entry[0];
};

const SOURCES_DATA = trustedSourcesData;

/** A fetch that records what went out and what came back. */
function recordingFetch(): { fetch: typeof fetch; sent: Array<{ method: string }>; answers: Response[] } {
  const sent: Array<{ method: string }> = [];
  const answers: Response[] = [];
  return {
    sent,
    answers,
    fetch: async (input, init) => {
      sent.push({ method: init?.method ?? 'GET' });
      const res = await fetch(input, init);
      answers.push(res.clone());
      return res;
    },
  };
}

describe('graphql-codegen`s `sha256:` ids, unmodified', () => {
  it('production, trusted documents only: Apollo Client`s persisted-query link with codegen`s ids as hashes, by GET and by POST', async () => {
    const url = await serve({ ...PRODUCTION_ENV, JWT_SECRET: TEST_SECRET, ...TRUSTED() });
    for (const useGETForHashedQueries of [true, false]) {
      const rec = recordingFetch();
      const link = createPersistedQueryLink({ generateHash: codegenId, useGETForHashedQueries }).concat(
        new HttpLink({ uri: url, fetch: rec.fetch, headers: auth() }),
      );
      const client = new ApolloClient({ link, cache: new InMemoryCache() });
      const query = gql(Object.values(manifest).find((d) => d.startsWith('query TrustedSources'))!);
      const result = await client.query({ query, fetchPolicy: 'no-cache' });
      expect(result.data).toEqual(SOURCES_DATA());
      expect(rec.sent.map((s) => s.method)).toEqual([useGETForHashedQueries ? 'GET' : 'POST']);
    }
  });

  it('development: a `sha256:` APQ hash registers and is answered by the hash alone; a manifest`s id answers at once', async () => {
    const url = await serve({ GRAPHQL_TRUSTED_DOCUMENTS: manifestFile });
    const rec = recordingFetch();
    const link = createPersistedQueryLink({ generateHash: (doc) => `sha256:${sha256(print(doc))}`, useGETForHashedQueries: true }).concat(
      new HttpLink({ uri: url, fetch: rec.fetch, headers: auth() }),
    );
    const client = new ApolloClient({ link, cache: new InMemoryCache() });
    const query = gql`
      query CodegenStyleAccounts {
        accounts(first: 1) {
          totalCount
        }
      }
    `;
    const first = await client.query({ query, fetchPolicy: 'no-cache' });
    expect(first.data).toMatchObject({ accounts: { totalCount: fixture.accounts.length } });
    const second = await client.query({ query, fetchPolicy: 'no-cache' });
    expect(second.data).toEqual(first.data);
    // Not found by hash, registered by POST, then the hash alone.
    expect(rec.sent.map((s) => s.method)).toEqual(['GET', 'POST', 'GET']);

    const trusted = new ApolloClient({
      link: createPersistedQueryLink({ generateHash: codegenId, useGETForHashedQueries: true }).concat(
        new HttpLink({ uri: url, headers: auth() }),
      ),
      cache: new InMemoryCache(),
    });
    const sources = gql(Object.values(manifest).find((d) => d.startsWith('query TrustedSources'))!);
    expect((await trusted.query({ query: sources, fetchPolicy: 'no-cache' })).data).toEqual(SOURCES_DATA());
  });
});

describe('an APQ hash that does not match its text', () => {
  it('is 400 PERSISTED_QUERY_HASH_MISMATCH, logged below error level', async () => {
    const { logger, lines } = capturingLogger();
    const url = await serve({}, { logger });
    const query = '{ accounts(first: 1) { totalCount } }';
    for (const hash of ['f'.repeat(64), `sha256:${'f'.repeat(64)}`]) {
      const res = await postGraphql(url, { query, extensions: apqExtension(hash) }, t.tokens.reader);
      expect([res.status, firstCode(res.json)]).toEqual([400, 'PERSISTED_QUERY_HASH_MISMATCH']);
      expect(res.json.errors[0].message).toMatch(/SHA-256/);
    }
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });
});

describe('batches keep the results that ran', () => {
  let url: string;
  beforeAll(async () => {
    url = await serve({});
  });

  it('BatchHttpLink: a good query, a good mutation and a refused query in one POST; the two results are kept', async () => {
    const rec = recordingFetch();
    const link = new BatchHttpLink({ uri: url, fetch: rec.fetch, headers: auth(), batchMax: 10, batchInterval: 20 });
    const client = new ApolloClient({ link, cache: new InMemoryCache() });
    const code = `BATCH-${Date.now() % 100000}`;
    const [query, mutation, refused] = await Promise.all([
      client.query({
        query: gql`
          query GoodAccounts {
            accounts(first: 1) {
              totalCount
            }
          }
        `,
        fetchPolicy: 'no-cache',
      }),
      client.mutate({
        mutation: gql`
          mutation GoodCreate($input: CreatePaymentSourceInput!) {
            createPaymentSource(input: $input) {
              code
            }
          }
        `,
        variables: { input: { code, name: 'Batched', accountId: activeAssetAccount().id, sourceType: 'Cash' } },
      }),
      client.query({
        query: gql`
          query Refused {
            accounts(first: 1) {
              noSuchField
            }
          }
        `,
        fetchPolicy: 'no-cache',
        errorPolicy: 'all',
      }),
    ]);
    expect(rec.sent).toHaveLength(1);
    expect(rec.answers[0]!.status).toBe(200);
    expect(query.data).toMatchObject({ accounts: { totalCount: fixture.accounts.length } });
    expect(mutation.data).toMatchObject({ createPaymentSource: { code } });
    expect(CombinedGraphQLErrors.is(refused.error) && refused.error.errors[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    // The write that ran is kept, as its answer said.
    const stored = await postGraphql(
      url,
      { query: `{ paymentSources(where: { code: { eq: "${code}" } }) { nodes { id } } }` },
      t.tokens.reader,
    );
    expect(stored.json.data.paymentSources.nodes).toHaveLength(1);
    // The other tests of this file count the demo data's payment sources.
    const removed = await postGraphql(
      url,
      { query: `mutation { deletePaymentSource(id: "${stored.json.data.paymentSources.nodes[0].id}") }` },
      t.tokens.writer,
    );
    expect(removed.json.errors).toBeUndefined();
  });

  it('a document refused by the trusted list, a mismatched hash, a syntax error: each operation answered on its own, 200', async () => {
    const trustedUrl = await serve(TRUSTED());
    const res = await postGraphql(
      trustedUrl,
      [{ documentId: Object.keys(manifest).find((id) => manifest[id]!.startsWith('query TrustedSources')) }, { query: '{ __typename }' }],
      t.tokens.reader,
    );
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      { data: SOURCES_DATA() },
      { errors: [expect.objectContaining({ extensions: { code: 'DOCUMENT_NOT_TRUSTED' } })] },
    ]);

    const mixed = await postGraphql(
      url,
      [
        { query: '{ accounts(first: 1) { totalCount } }' },
        { query: '{ accounts(first: 1) { totalCount } }', extensions: apqExtension('0'.repeat(64)) },
        { query: '{ nope' },
      ],
      t.tokens.reader,
    );
    expect(mixed.status).toBe(200);
    expect(mixed.json.map((r: { errors?: unknown }) => (r.errors ? firstCode(r) : 'ok'))).toEqual([
      'ok',
      'PERSISTED_QUERY_HASH_MISMATCH',
      'GRAPHQL_PARSE_FAILED',
    ]);
  });

  it('only a batch that cannot be read is a 4xx, with one GraphQL error', async () => {
    for (const body of ['[', '[]', JSON.stringify(Array.from({ length: 11 }, () => ({ query: '{ __typename }' })))]) {
      const res = await fetch(url, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body });
      expect(res.status).toBe(400);
      const json = (await res.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
      expect(json.errors).toEqual([{ message: expect.any(String), extensions: expect.objectContaining({ code: expect.any(String) }) }]);
    }
  });
});

describe('every refusal of /graphql in the GraphQL shape, through Apollo Client`s error link', () => {
  /** What the error link saw of one operation, and the HTTP status and WWW-Authenticate of its answer. */
  async function refusal(
    url: string,
    o: {
      headers?: Record<string, string>;
      get?: boolean;
      query?: DocumentNode;
      variables?: Record<string, unknown>;
      body?: (b: string) => string;
    },
  ): Promise<{
    code: unknown;
    status: number | undefined;
    challenge: string | null | undefined;
    type: string | null | undefined;
    retryAfter: string | null | undefined;
  }> {
    const rec = recordingFetch();
    let code: unknown = 'none';
    const errors = new ErrorLink(({ error }) => {
      code = CombinedGraphQLErrors.is(error) ? error.errors[0]?.extensions?.code : `not a GraphQL error: ${error.message}`;
    });
    const rewrite: typeof fetch = (input, init) =>
      rec.fetch(input, o.body && typeof init?.body === 'string' ? { ...init, body: o.body(init.body) } : init);
    const http = new HttpLink({ uri: url, fetch: rewrite, headers: o.headers ?? {}, useGETForQueries: o.get === true });
    const client = new ApolloClient({ link: ApolloLink.from([errors, http]), cache: new InMemoryCache() });
    await client
      .query({
        query:
          o.query ??
          gql`
            query Accounts {
              accounts(first: 1) {
                totalCount
              }
            }
          `,
        variables: o.variables,
        fetchPolicy: 'no-cache',
      })
      .catch(() => undefined);
    const answer = rec.answers.at(-1);
    return {
      code,
      status: answer?.status,
      challenge: answer?.headers.get('www-authenticate'),
      type: answer?.headers.get('content-type'),
      retryAfter: answer?.headers.get('retry-after'),
    };
  }

  it('authentication (no token, a bad token; POST and GET): 401 UNAUTHENTICATED with WWW-Authenticate: Bearer', async () => {
    const url = await serve({});
    for (const get of [false, true]) {
      const none = await refusal(url, { get });
      expect(none).toMatchObject({ code: 'UNAUTHENTICATED', status: 401, challenge: expect.stringMatching(/^Bearer\b/) });
      const bad = await refusal(url, { get, headers: { Authorization: 'Bearer not.a.token' } });
      expect(bad).toMatchObject({ code: 'UNAUTHENTICATED', status: 401, challenge: expect.stringMatching(/^Bearer\b.*invalid_token/) });
    }
  });

  it('a GET without a token and without any header a script adds (what CSRF prevention guards against) is UNAUTHENTICATED', async () => {
    const url = await serve({});
    const res = await fetch(`${url}?query=${encodeURIComponent('{ accounts(first: 1) { totalCount } }')}`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    expect(((await res.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe('UNAUTHENTICATED');
  });

  it('the rate limit: 429 RATE_LIMITED with Retry-After', async () => {
    const url = await serve({ RATE_LIMIT_PER_MINUTE: '2' });
    let last: Awaited<ReturnType<typeof refusal>> | undefined;
    for (let i = 0; i < 3; i += 1) last = await refusal(url, { headers: auth() });
    expect(last).toMatchObject({
      code: 'RATE_LIMITED',
      status: 429,
      type: expect.stringMatching(/^application\/graphql-response\+json/),
      retryAfter: expect.stringMatching(/^\d+$/),
    });
  });

  it('a body over the limit: 413 PAYLOAD_TOO_LARGE', async () => {
    const url = await serve({});
    const big = await refusal(url, {
      headers: auth(),
      query: gql`
        query Big($w: AccountWhere) {
          accounts(where: $w) {
            totalCount
          }
        }
      `,
      variables: { w: { name: { eq: 'x'.repeat(120 * 1024) } } },
    });
    expect(big).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
  });

  it('a body that is not JSON: 400 in the GraphQL shape', async () => {
    const url = await serve({});
    const broken = await refusal(url, { headers: auth(), body: (b) => b.slice(0, -3) });
    expect(broken).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
  });

  it('a token without the scope: 403 FORBIDDEN; a document outside the trusted list: 400 DOCUMENT_NOT_TRUSTED', async () => {
    const url = await serve({ ...TRUSTED() });
    expect(await refusal(url, { headers: auth(t.tokens.writeOnly) })).toMatchObject({ code: 'DOCUMENT_NOT_TRUSTED', status: 400 });
    const open = await serve({});
    expect(await refusal(open, { headers: auth(t.tokens.writeOnly) })).toMatchObject({ code: 'FORBIDDEN', status: 403 });
  });

  it('REST`s 401 carries WWW-Authenticate: Bearer too', async () => {
    const none = await request(t.http).get('/api/v1/accounts').expect(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer\b/);
    const bad = await request(t.http).get('/api/v1/accounts').set('Authorization', 'Bearer nope').expect(401);
    expect(bad.headers['www-authenticate']).toMatch(/^Bearer\b.*invalid_token/);
  });
});

describe('GRAPHQL_DOCUMENTS=trusted in every mode, said at start', () => {
  it('outside production only the manifest`s documents run, and the start-up log names the mode', async () => {
    const { logger, lines } = capturingLogger();
    const url = await serve(TRUSTED(), { logger });
    const inline = await postGraphql(url, { query: '{ accounts(first: 1) { totalCount } }' }, t.tokens.reader);
    expect([inline.status, firstCode(inline.json)]).toEqual([400, 'DOCUMENT_NOT_TRUSTED']);
    const id = Object.keys(manifest).find((k) => manifest[k]!.startsWith('query TrustedSources'))!;
    expect((await postGraphql(url, { documentId: id }, t.tokens.reader)).json).toEqual({ data: SOURCES_DATA() });
    expect(lines.find((l) => l.graphqlDocuments === 'trusted')?.msg).toMatch(/trusted/);

    const open = capturingLogger();
    await serve({ GRAPHQL_TRUSTED_DOCUMENTS: manifestFile }, { logger: open.logger });
    expect(open.lines.find((l) => l.graphqlDocuments === 'any')?.msg).toMatch(/any/);
  });

  it('CORS exposes RateLimit and RateLimit-Policy to browser scripts', async () => {
    const url = await serve({ RATE_LIMIT_PER_MINUTE: '100' });
    const res = await fetch(url, {
      method: 'POST',
      headers: { Origin: 'http://localhost:5173', ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ accounts(first: 1) { totalCount } }' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit')).toMatch(/remaining=\d+/);
    const exposed = String(res.headers.get('access-control-expose-headers'))
      .split(/\s*,\s*/)
      .map((h) => h.toLowerCase());
    expect(exposed).toEqual(expect.arrayContaining(['ratelimit', 'ratelimit-policy', 'www-authenticate']));
  });
});
