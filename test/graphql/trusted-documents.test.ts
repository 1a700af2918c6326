// Trusted documents: the manifest graphql-codegen's client preset writes for an app
// (test/fixtures/trusted-app, generated here by the command README.md shows), loaded from a
// file or a URL. With GRAPHQL_DOCUMENTS=trusted under NODE_ENV=production only its documents
// run, named by `documentId` or by the APQ hash (Apollo Client's persisted-query link);
// anything else is refused with a catalogue error before it is parsed. Without it any
// document runs (test/graphql/front-end-traps.test.ts: trusted mode outside production).

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { createPersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { getOperationAST } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { AppDeps } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import { startEvents, type Events } from '../../src/events/events';
import { createLogger } from '../../src/http/logger';
import { createVariantApp, TEST_SECRET, token, type TestApp } from '../support/app';
import { PRODUCTION_ENV } from '../support/browser-http';
import { fixture } from '../support/fixture';
import { firstCode, getGraphql, postGraphql } from '../support/graphql';
import { trustedAppSuite, trustedSourcesData } from '../support/trusted-app';

const suite = trustedAppSuite('trusted-documents-');
let t: TestApp;
let dir: string;
let manifestFile: string;
/** The generated manifest: id (`sha256:<hex>`) → document. */
let manifest: Record<string, string>;

/** Operation name → the manifest's id of its document. */
const idOf = (name: string): string => {
  const entry = Object.entries(manifest).find(([, body]) => new RegExp(`^(query|subscription) ${name}\\b`).test(body));
  if (!entry) throw new Error(`${name} is not in the manifest`);
  return entry[0];
};

beforeAll(() => {
  ({ t, manifestFile, manifest, dir } = suite.current());
});

const serve = (env: Readonly<Record<string, string>>, extra?: Partial<AppDeps>) => suite.serve(env, extra);

const TRUSTED_ONLY = () => ({
  ...PRODUCTION_ENV,
  JWT_SECRET: TEST_SECRET,
  GRAPHQL_TRUSTED_DOCUMENTS: manifestFile,
  GRAPHQL_DOCUMENTS: 'trusted',
});
const auth = () => ({ Authorization: `Bearer ${t.tokens.reader}` });
const codeOf = firstCode;
const post = (url: string, body: unknown) => postGraphql(url, body, t.tokens.reader);
const get = (url: string, params: Record<string, unknown>) => getGraphql(url, params, t.tokens.reader);

const SOURCES_DATA = trustedSourcesData;

describe('production, only trusted documents', () => {
  let url: string;
  beforeAll(async () => {
    url = await serve(TRUSTED_ONLY());
  });

  it('the codegen manifest holds the app`s three operations, under sha256: ids', () => {
    expect(Object.keys(manifest)).toHaveLength(3);
    for (const id of Object.keys(manifest)) expect(id).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('a document of the manifest, named by documentId, is answered (POST and GET)', async () => {
    const byPost = await post(url, { documentId: idOf('TrustedSources') });
    expect(byPost.status).toBe(200);
    expect(byPost.json).toEqual({ data: SOURCES_DATA() });
    const account = fixture.accounts[0]!;
    const byGet = await get(url, { documentId: idOf('TrustedAccount'), variables: { id: account.id } });
    expect(byGet.json).toEqual({ data: { account: { code: account.code, id: account.id, type: account.type } } });
  });

  it('Apollo Client with the persisted-query link and the manifest`s hashes is answered by GET', async () => {
    const sent: string[] = [];
    const recording: typeof fetch = (input, init) => {
      sent.push(init?.method ?? 'GET');
      return fetch(input, init);
    };
    const link = createPersistedQueryLink({
      // The app's build knows each operation's id (codegen puts it in the typed document too).
      generateHash: (document) => idOf(getOperationAST(document)?.name?.value ?? '').slice('sha256:'.length),
      useGETForHashedQueries: true,
    }).concat(new HttpLink({ uri: url, fetch: recording, headers: auth() }));
    const client = new ApolloClient({ link, cache: new InMemoryCache() });
    const result = await client.query({ query: gql(manifest[idOf('TrustedSources')]!), fetchPolicy: 'no-cache' });
    expect(result.data).toEqual(SOURCES_DATA());
    expect(sent).toEqual(['GET']);
  });

  it('a document not in the manifest is refused with DOCUMENT_NOT_TRUSTED, before it is parsed', async () => {
    for (const query of ['{ accounts(first: 1) { totalCount } }', '{ this is not GraphQL', manifest[idOf('TrustedSources')]!]) {
      const res = await post(url, { query });
      expect([res.status, codeOf(res.json)]).toEqual([400, 'DOCUMENT_NOT_TRUSTED']);
    }
    const byGet = await get(url, { query: '{ accounts(first: 1) { totalCount } }' });
    expect([byGet.status, codeOf(byGet.json)]).toEqual([400, 'DOCUMENT_NOT_TRUSTED']);
  });

  it('Apollo Client sending a document not in the manifest gets DOCUMENT_NOT_TRUSTED', async () => {
    const client = new ApolloClient({ link: new HttpLink({ uri: url, headers: auth() }), cache: new InMemoryCache() });
    await expect(
      client.query({
        query: gql`
          query Crafted {
            customers(first: 1000) {
              nodes {
                id
                email
              }
            }
          }
        `,
      }),
    ).rejects.toThrow(/trusted-documents manifest/);
  });

  it('an APQ registration is refused too: nothing gets into the store', async () => {
    const query = '{ accounts(first: 1) { totalCount } }';
    const hash = 'a'.repeat(64);
    const register = await post(url, { query, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    expect(codeOf(register.json)).toBe('DOCUMENT_NOT_TRUSTED');
    expect(codeOf((await get(url, { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } })).json)).toBe(
      'DOCUMENT_NOT_TRUSTED',
    );
  });

  it('an unknown documentId is PERSISTED_DOCUMENT_NOT_FOUND', async () => {
    const res = await post(url, { documentId: `sha256:${'0'.repeat(64)}` });
    expect([res.status, codeOf(res.json)]).toEqual([400, 'PERSISTED_DOCUMENT_NOT_FOUND']);
  });

  it('a batch with one document outside the manifest: that one refused, the trusted one answered', async () => {
    const refused = await post(url, [{ documentId: idOf('TrustedSources') }, { query: '{ __typename }' }]);
    expect(refused.status).toBe(200);
    expect(refused.json).toEqual([
      { data: SOURCES_DATA() },
      { errors: [expect.objectContaining({ extensions: { code: 'DOCUMENT_NOT_TRUSTED' } })] },
    ]);
    const answered = await post(url, [{ documentId: idOf('TrustedSources') }, { documentId: idOf('TrustedSources') }]);
    expect(answered.json).toEqual([{ data: SOURCES_DATA() }, { data: SOURCES_DATA() }]);
  });

  it('a trusted document`s variables are still checked', async () => {
    const res = await post(url, { documentId: idOf('TrustedAccount'), variables: { id: 'not-a-uuid' } });
    expect(codeOf(res.json)).toBe('VALIDATION_FAILED');
  });
});

describe('production, only trusted documents, over WebSocket', () => {
  let events: Events;
  let wsUrl: string;
  beforeAll(async () => {
    events = await startEvents({ config: loadConfig({}).events, db: t.db, services: t.services, logger: createLogger('silent') });
    wsUrl = (await serve(TRUSTED_ONLY(), { live: events })).replace(/^http/, 'ws');
  });
  afterAll(() => events.stop());

  /** The first thing a subscription gets: its first event's data, or its error's code. */
  async function firstOf(payload: {
    query: string;
    variables?: Record<string, unknown>;
    extensions?: Record<string, unknown>;
  }): Promise<unknown> {
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { Authorization: `Bearer ${await token('billing.read billing.audit')}` },
    });
    try {
      return await new Promise((resolve) => {
        client.subscribe(payload, {
          next: (r) => resolve(r.data ?? r.errors),
          error: (e) => resolve((e as Array<{ extensions?: { code?: string } }>)[0]?.extensions?.code ?? e),
          complete: () => resolve('complete'),
        });
      });
    } finally {
      await client.dispose();
    }
  }

  it('a subscription named by its hash runs; one sent as text is refused with DOCUMENT_NOT_TRUSTED', async () => {
    const hash = idOf('TrustedChanges').slice('sha256:'.length);
    const named = await firstOf({ query: '', variables: { after: '0' }, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    expect(named).toEqual({ changes: { seq: expect.any(String), operation: expect.any(String) } });
    const inline = await firstOf({ query: 'subscription { changes(after: "0") { seq } }' });
    expect(inline).toBe('DOCUMENT_NOT_TRUSTED');
  });
});

describe('without GRAPHQL_DOCUMENTS=trusted any document runs', () => {
  it('with a manifest, an inline document and a documentId are both answered', async () => {
    const url = await serve({ GRAPHQL_TRUSTED_DOCUMENTS: manifestFile });
    const inline = await post(url, { query: '{ accounts(first: 1) { totalCount } }' });
    expect(inline.json).toEqual({ data: { accounts: { totalCount: fixture.accounts.length } } });
    expect((await post(url, { documentId: idOf('TrustedSources') })).json).toEqual({ data: SOURCES_DATA() });
    // The manifest's documents answer an APQ hash without registration.
    const hash = idOf('TrustedSources').slice('sha256:'.length);
    expect((await get(url, { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } })).json).toEqual({ data: SOURCES_DATA() });
  });
});

describe('where the manifest comes from', () => {
  it('an http URL, read at start', async () => {
    const body = fs.readFileSync(manifestFile);
    const host = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(body));
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = host.address() as AddressInfo;
      const url = await serve({ ...TRUSTED_ONLY(), GRAPHQL_TRUSTED_DOCUMENTS: `http://127.0.0.1:${port}/persisted-documents.json` });
      expect((await post(url, { documentId: idOf('TrustedSources') })).json).toEqual({ data: SOURCES_DATA() });
    } finally {
      await new Promise<void>((resolve) => host.close(() => resolve()));
    }
  });

  it('Apollo`s manifest format (generate-persisted-query-manifest)', async () => {
    const file = path.join(dir, 'apollo-manifest.json');
    const body = manifest[idOf('TrustedSources')]!;
    const id = idOf('TrustedSources').slice('sha256:'.length);
    fs.writeFileSync(
      file,
      JSON.stringify({
        format: 'apollo-persisted-query-manifest',
        version: 1,
        operations: [{ id, name: 'TrustedSources', type: 'query', body }],
      }),
    );
    const url = await serve({ ...TRUSTED_ONLY(), GRAPHQL_TRUSTED_DOCUMENTS: file });
    expect((await get(url, { extensions: { persistedQuery: { version: 1, sha256Hash: id } } })).json).toEqual({ data: SOURCES_DATA() });
  });

  it('a manifest that is missing or not a manifest stops start-up, naming the setting', async () => {
    await expect(createVariantApp(t, { GRAPHQL_TRUSTED_DOCUMENTS: path.join(dir, 'missing.json') })).rejects.toThrow(
      /GRAPHQL_TRUSTED_DOCUMENTS .*missing\.json does not exist/,
    );
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ operations: ['no'] }));
    await expect(createVariantApp(t, { GRAPHQL_TRUSTED_DOCUMENTS: bad })).rejects.toThrow(/GRAPHQL_TRUSTED_DOCUMENTS .*neither/);
    fs.writeFileSync(bad, JSON.stringify({ 'sha256:abc': 'query { unfinished' }));
    await expect(createVariantApp(t, { GRAPHQL_TRUSTED_DOCUMENTS: bad })).rejects.toThrow(
      /GRAPHQL_TRUSTED_DOCUMENTS .*not GraphQL \(id sha256:abc\)/,
    );
  });

  it('GRAPHQL_DOCUMENTS=trusted without a manifest is a configuration error', () => {
    expect(() => loadConfig({ GRAPHQL_DOCUMENTS: 'trusted' })).toThrow(/GRAPHQL_DOCUMENTS trusted needs GRAPHQL_TRUSTED_DOCUMENTS/);
  });
});
