// The service in a supergraph, with a real gateway: its SDL (`_service { sdl }`, read from the
// running service as a router's introspection does) composed by @apollo/composition with a
// small invoices subgraph of this test's own, and @apollo/gateway planning queries across
// both that join invoices to customers (by debtor number, with addresses) and articles (by
// id, with prices and tax code), the caller's token forwarded to the service. Composition
// failing fails this test: a change of schema.graphql that breaks composition fails CI.
// Everything is on 127.0.0.1; the gateway is given the composed supergraph (no managed
// federation, no uplink) and its telemetry is off, so nothing leaves the machine.

import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled, ApolloServerPluginUsageReportingDisabled } from '@apollo/server/plugin/disabled';
import { startStandaloneServer } from '@apollo/server/standalone';
import { composeServices } from '@apollo/composition';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, createVariantApp, TEST_SECRET, token, type TestApp } from '../support/app';
import { PRODUCTION_ENV } from '../support/browser-http';
import { listen } from '../support/live-app';
import { postGraphql, sha256 } from '../support/graphql';

// @apollo/gateway reports anonymous usage to Apollo unless told not to (read when it is constructed).
process.env.APOLLO_TELEMETRY_DISABLED = 'true';

const INVOICES_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.5", import: ["@key", "@shareable"])

  "An invoice of the invoices service."
  type Invoice @key(fields: "id") {
    id: ID!
    number: String!
    "The billing service's customer, by its natural key."
    customer: Customer!
    lines: [InvoiceLine!]!
  }
  type InvoiceLine {
    quantity: Int!
    "The billing service's article, by its id."
    article: Article!
  }
  type Customer @key(fields: "debtorNumber", resolvable: false) {
    debtorNumber: String!
  }
  type Article @key(fields: "id", resolvable: false) {
    id: UUID!
  }
  scalar UUID
  type Query {
    invoices: [Invoice!]!
  }
`;

interface Invoice {
  readonly id: string;
  readonly number: string;
  readonly debtorNumber: string;
  readonly lines: ReadonlyArray<{ quantity: number; articleId: string }>;
}

let t: TestApp;
let statements: string[] = [];
const servers: Array<{ close(): Promise<void> }> = [];
let gatewayUrl: string;
let billingUrl: string;
let invoices: Invoice[];
let invoicesUrl: string;
let billingSdl: string;
/** The operations the first gateway sent the service, as it sent them. */
const fetched = new Set<string>();

/**
 * @apollo/gateway over the service at `billing` (its SDL composed with the invoices
 * subgraph; composition failing fails the test), forwarding the caller's token; its URL.
 * `apq`: subgraph operations go by their hash first, as a service that runs only trusted
 * documents needs; `record`: the operations sent to the service are kept in `fetched`.
 */
async function gatewayOver(billing: string, o: { apq?: boolean; record?: boolean } = {}): Promise<string> {
  const composed = composeServices([
    { name: 'billing', url: billing, typeDefs: parse(billingSdl) },
    { name: 'invoices', url: invoicesUrl, typeDefs: parse(INVOICES_SDL) },
  ]);
  expect(composed.errors ?? []).toEqual([]);
  if (!composed.supergraphSdl) throw new Error('no supergraph');
  const gateway = new ApolloGateway({
    supergraphSdl: composed.supergraphSdl,
    // The caller's token travels to each subgraph, which decides what the caller may see.
    buildService: ({ url }) =>
      new RemoteGraphQLDataSource<{ authorization?: string }>({
        url,
        apq: o.apq === true,
        willSendRequest({ request, context }) {
          if (context.authorization) request.http?.headers.set('authorization', context.authorization);
          if (o.record && url === billing && request.query) fetched.add(request.query);
        },
      }),
  });
  const server = new ApolloServer<{ authorization?: string }>({ gateway, plugins: [ApolloServerPluginUsageReportingDisabled()] });
  return serve(server, (authorization) => (authorization ? { authorization } : {}));
}

/** An Apollo server listening on 127.0.0.1 (a free port), stopped after the file; its URL. */
async function serve<C extends object>(server: ApolloServer<C>, context: (authorization: string | undefined) => C): Promise<string> {
  const { url } = await startStandaloneServer(server, {
    listen: { port: 0, host: '127.0.0.1' },
    context: ({ req }) => Promise.resolve(context(req.headers.authorization)),
  });
  servers.push({ close: () => server.stop() });
  return url;
}

beforeAll(async () => {
  t = await createTestApp({ onQuery: (sql) => statements.push(sql) });
  const billing = await listen(t.app);
  servers.push(billing);
  billingUrl = `${billing.base}/graphql`;

  // Invoices of three customers (the third also twice), each with articles of the demo data.
  const customers = await t.db.prisma.customer.findMany({ orderBy: { debtorNumber: 'asc' }, take: 3 });
  const articles = await t.db.prisma.article.findMany({ orderBy: { code: 'asc' }, take: 4 });
  invoices = [0, 1, 2, 2].map((c, i) => ({
    id: `inv-${i}`,
    number: `2026-${1000 + i}`,
    debtorNumber: customers[c]!.debtorNumber,
    lines: [articles[i]!, articles[(i + 1) % 4]!].map((a, j) => ({ quantity: j + 1, articleId: a.id })),
  }));
  const invoicesServer = new ApolloServer({
    schema: buildSubgraphSchema({
      typeDefs: parse(INVOICES_SDL),
      resolvers: {
        Query: { invoices: () => invoices },
        Invoice: { customer: (i: Invoice) => ({ debtorNumber: i.debtorNumber }) },
        InvoiceLine: { article: (l: { articleId: string }) => ({ id: l.articleId }) },
      },
    }),
    plugins: [ApolloServerPluginUsageReportingDisabled(), ApolloServerPluginInlineTraceDisabled()],
  });
  invoicesUrl = await serve(invoicesServer, () => ({}));

  // The service's SDL as a router reads it.
  const sdl = await postGraphql(billingUrl, { query: '{ _service { sdl } }' }, t.tokens.reader);
  billingSdl = sdl.json.data._service.sdl;
  gatewayUrl = await gatewayOver(billingUrl, { record: true });
}, 60_000);
afterAll(async () => {
  for (const s of servers.reverse()) await s.close();
  await t.close();
});

const JOIN = `{
  invoices {
    number
    customer { debtorNumber id lastName addresses { addressType street city country isDefault } }
    lines { quantity article { id code name prices { amount validFrom } defaultTaxCode { code rate } } }
  }
}`;

it('a query joining invoices to customers with addresses and articles with prices and tax code: the service answers as it answers directly', async () => {
  statements = [];
  const res = await postGraphql(gatewayUrl, { query: JOIN }, t.tokens.reader);
  expect(res.json.errors).toBeUndefined();
  const got = res.json.data.invoices;
  expect(got.map((i: { number: string }) => i.number)).toEqual(invoices.map((i) => i.number));
  // The customers (three, one of them twice) in one statement with their addresses in a second;
  // the articles in one with their prices inside and the tax code joined, and their prices in one more.
  expect(statements.filter((s) => /FROM "Customer" t/.test(s))).toHaveLength(1);
  expect(statements.filter((s) => /FROM "Address" r WHERE r\."customerId" = ANY\(/.test(s))).toHaveLength(1);
  expect(statements.filter((s) => /FROM "Article" t/.test(s))).toHaveLength(1);
  expect(statements.length).toBeLessThanOrEqual(4);

  for (const [k, invoice] of invoices.entries()) {
    const direct = await postGraphql(
      billingUrl,
      {
        query: `query($d: String!) { customers(where: { debtorNumber: { eq: $d } }) { nodes { debtorNumber id lastName addresses { addressType street city country isDefault } } } }`,
        variables: { d: invoice.debtorNumber },
      },
      t.tokens.reader,
    );
    expect(got[k].customer).toEqual(direct.json.data.customers.nodes[0]);
    expect(got[k].customer.addresses.length).toBeGreaterThan(0);
    for (const [j, line] of invoice.lines.entries()) {
      const article = await postGraphql(
        billingUrl,
        { query: `{ article(id: "${line.articleId}") { id code name prices { amount validFrom } defaultTaxCode { code rate } } }` },
        t.tokens.reader,
      );
      expect(got[k].lines[j]).toEqual({ quantity: line.quantity, article: article.json.data.article });
    }
  }
});

it("the caller's token decides: without billing.pii a customer's name through the gateway is FORBIDDEN, without it the rest is answered", async () => {
  const noPii = await token('billing.read');
  const refused = await postGraphql(gatewayUrl, { query: JOIN }, noPii);
  expect(refused.json.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  expect(JSON.stringify(refused.json)).not.toMatch(/"lastName":"/);
  const allowed = await postGraphql(
    gatewayUrl,
    { query: '{ invoices { number customer { debtorNumber id addresses { country } } } }' },
    noPii,
  );
  expect(allowed.json.errors).toBeUndefined();
  expect(allowed.json.data.invoices[0].customer.addresses[0]).toEqual({ country: expect.any(String) });
  // No token: the service refuses the gateway's fetch.
  const anonymous = await postGraphql(gatewayUrl, { query: '{ invoices { customer { id } } }' }, 'not-a-token');
  expect(anonymous.json.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
});

it("a service that runs only trusted documents answers the gateway's operations its manifest lists, sent by their hash, and no other", async () => {
  // The operations the gateway plans for JOIN (the test above ran it): the manifest of a service behind that gateway.
  const reader = t.tokens.reader;
  expect((await postGraphql(gatewayUrl, { query: JOIN }, reader)).json.errors).toBeUndefined();
  expect([...fetched].some((q) => q.includes('_entities(representations:'))).toBe(true);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-manifest-'));
  const manifest = path.join(dir, 'manifest.json');
  fs.writeFileSync(manifest, JSON.stringify(Object.fromEntries([...fetched].map((q) => [`sha256:${sha256(q)}`, q]))));
  try {
    const trusted = await createVariantApp(t, {
      ...PRODUCTION_ENV,
      JWT_SECRET: TEST_SECRET,
      GRAPHQL_DOCUMENTS: 'trusted',
      GRAPHQL_TRUSTED_DOCUMENTS: manifest,
    });
    const server = await listen(trusted);
    servers.push({ close: async () => (await server.close(), await trusted.stop()) });
    const trustedGateway = await gatewayOver(`${server.base}/graphql`, { apq: true });
    const answered = await postGraphql(trustedGateway, { query: JOIN }, reader);
    expect(answered.json).toEqual(await postGraphql(gatewayUrl, { query: JOIN }, reader).then((r) => r.json));
    // Another shape plans another operation for the service: not in the manifest, refused.
    const other = await postGraphql(
      trustedGateway,
      { query: '{ invoices { customer { debtorNumber receivableAccount { code } } } }' },
      reader,
    );
    // @apollo/gateway passes a subgraph's 400 on as its own error, with the subgraph's answer inside.
    expect(other.json.errors?.[0]?.extensions?.response?.body?.errors?.[0]?.extensions?.code).toBe('DOCUMENT_NOT_TRUSTED');
    expect(JSON.stringify(other.json)).not.toContain('receivableAccount":{');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
