import request from 'supertest';
import { bearer, createTestApp, token, type TestApp } from './support/app';
import { gql, type Json } from './support/graphql';

// Every route of the REST door (its OpenAPI document) and every query and mutation field of
// the GraphQL door, called by a caller with every scope but billing.pii, REST routes also
// inside a $batch: no answer, header or cursor carries a personal value of the demo data, and
// none is a 5xx. The tables below must name every route and field: one added without an entry
// here fails the first two tests, so no new path escapes the sweep.

const ROOT = '/api/v1';
const PERSONAL = ['firstName', 'lastName', 'email', 'matriculationId', 'cmsStudentId', 'street', 'city', 'postalCode'];

let t: TestApp;
let plain: string;
let full: string;
/** Ids and keys of the demo data the calls name. */
let ids: Record<string, string>;
/** Every personal value of the demo data, as it would stand in JSON (quoted). */
let personal: string[];

beforeAll(async () => {
  t = await createTestApp();
  plain = await token('billing.read billing.write billing.maintain billing.audit');
  full = await token('billing.read billing.write billing.maintain billing.audit billing.pii');
  const first = async (path: string): Promise<Json> =>
    (await request(t.http).get(`${ROOT}${path}`).set(bearer(full)).expect(200)).body.value[0];
  const customers = (await request(t.http).get(`${ROOT}/customers?$top=1000`).set(bearer(full)).expect(200)).body.value as Json[];
  const customer = customers.find((c) => c.addresses.length > 0)!;
  const article = await first('/articles?$top=1&$orderby=code');
  const price = (await request(t.http).get(`${ROOT}/article-prices?articleId=${article.id}`).set(bearer(full)).expect(200)).body[0];
  const source = await first('/payment-sources?$filter=isDefault%20eq%20true');
  const payment = await request(t.http).post(`${ROOT}/payments`).set(bearer(full)).send({ customerId: customer.id, amount: 5 }).expect(201);
  const change = await first('/changes?$top=1');
  ids = {
    customer: customer.id,
    debtorNumber: customer.debtorNumber,
    address: customer.addresses[0].id,
    article: article.id,
    articleCode: article.code,
    price: price.id,
    source: source.id,
    payment: payment.body.id,
    change: change.id,
    account: (await first(`/accounts?$filter=code%20eq%20'1200'`)).id,
    accountCode: '1200',
    taxCode: (await first(`/tax-codes?$filter=code%20eq%20'V19'`)).id,
    term: (await first('/academic-terms?$top=1')).id,
    termCode: (await first('/academic-terms?$top=1')).code,
  };
  personal = [...new Set(customers.flatMap((c) => [c, ...(c.addresses as Json[])].flatMap((r) => PERSONAL.map((f) => r[f]))))]
    .filter((v): v is string => typeof v === 'string' && v.length >= 3)
    .map((v) => JSON.stringify(v));
});
afterAll(() => t.close());

interface Call {
  readonly path: string;
  readonly body?: Json;
  readonly headers?: Record<string, string>;
}

const stale = { 'If-Match': '"stale"' };
const item = (set: string, id: () => string) => ({
  [`GET /${set}/{id}`]: (): Call => ({ path: `/${set}/${id()}` }),
  [`PATCH /${set}/{id}`]: (): Call => ({ path: `/${set}/${id()}`, body: {} }),
  [`DELETE /${set}/{id}`]: (): Call => ({ path: `/${set}/${id()}`, headers: stale }),
  [`GET /${set}/{id}/history`]: (): Call => ({ path: `/${set}/${id()}/history` }),
});
const collection = (set: string) => ({
  [`GET /${set}`]: (): Call => ({ path: `/${set}?$top=1000&$count=true` }),
  [`GET /${set}/$count`]: (): Call => ({ path: `/${set}/$count` }),
});

/** Every REST operation of the OpenAPI document, as `METHOD path`, with a call of it. */
const REST: Record<string, () => Call> = {
  'GET /': () => ({ path: '/' }),
  'GET /$metadata': () => ({ path: '/$metadata' }),
  ...collection('academic-terms'),
  'POST /academic-terms': () => ({
    path: '/academic-terms',
    body: { code: 'SW1', startDate: '2090-01-01T00:00:00Z', endDate: '2090-06-01T00:00:00Z' },
  }),
  ...item('academic-terms', () => ids.term!),
  'PUT /academic-terms/{id}': () => ({ path: `/academic-terms/${ids.term}`, body: {}, headers: stale }),
  ...collection('accounts'),
  'POST /accounts': () => ({ path: '/accounts', body: { code: 'SW1', name: 'Sweep', type: 'Asset' } }),
  ...item('accounts', () => ids.account!),
  'PUT /accounts/{id}': () => ({ path: `/accounts/${ids.account}`, body: {}, headers: stale }),
  ...collection('articles'),
  'POST /articles': () => ({ path: '/articles', body: { code: 'SW1', name: 'Sweep' } }),
  ...item('articles', () => ids.article!),
  'PUT /articles/{id}': () => ({ path: `/articles/${ids.article}`, body: {}, headers: stale }),
  ...collection('customers'),
  'POST /customers': () => ({ path: '/customers', body: { debtorNumber: 'SW1' } }),
  ...item('customers', () => ids.customer!),
  'PUT /customers/{id}': () => ({ path: `/customers/${ids.customer}`, body: { debtorNumber: ids.debtorNumber } }),
  ...collection('payments'),
  'POST /payments': () => ({ path: '/payments', body: { customerId: ids.customer, amount: 1 } }),
  'GET /payments/{id}': () => ({ path: `/payments/${ids.payment}?$expand=customer` }),
  'GET /payments/{id}/history': () => ({ path: `/payments/${ids.payment}/history` }),
  ...collection('payment-sources'),
  'POST /payment-sources': () => ({
    path: '/payment-sources',
    body: { code: 'SW1', name: 'Sweep', accountId: ids.account, sourceType: 'Cash' },
  }),
  ...item('payment-sources', () => ids.source!),
  'PUT /payment-sources/{id}': () => ({ path: `/payment-sources/${ids.source}`, body: {}, headers: stale }),
  ...collection('tax-codes'),
  'POST /tax-codes': () => ({ path: '/tax-codes', body: {} }),
  ...item('tax-codes', () => ids.taxCode!),
  'PUT /tax-codes/{id}': () => ({ path: `/tax-codes/${ids.taxCode}`, body: {}, headers: stale }),
  ...Object.fromEntries(
    (
      [
        ['academic-terms', 'code', () => ids.termCode!],
        ['accounts', 'code', () => ids.accountCode!],
        ['articles', 'code', () => ids.articleCode!],
        ['customers', 'debtorNumber', () => ids.debtorNumber!],
      ] as const
    ).flatMap(([set, key, value]) => {
      const path = () => `/${set}(${key}='${value()}')`;
      return [
        [`GET /${set}(${key}='{${key}}')`, () => ({ path: path() })],
        [`PUT /${set}(${key}='{${key}}')`, () => ({ path: path(), body: {} })],
        [`PATCH /${set}(${key}='{${key}}')`, () => ({ path: path(), body: {} })],
        [`DELETE /${set}(${key}='{${key}}')`, () => ({ path: path(), headers: stale })],
        // the bulk upsert, answering the record as it is
        [`PATCH /${set}`, () => ({ path: `/${set}`, body: { '@context': '#$delta', value: [{ [key]: value() }] } })],
      ];
    }),
  ),
  'GET /article-prices': () => ({ path: `/article-prices?articleId=${ids.article}` }),
  'POST /article-prices': () => ({
    path: '/article-prices',
    body: { articleId: ids.article, amount: 1, validFrom: '2090-01-01T00:00:00Z' },
  }),
  'PUT /article-prices/{id}': () => ({ path: `/article-prices/${ids.price}`, body: {}, headers: stale }),
  'PATCH /article-prices/{id}': () => ({ path: `/article-prices/${ids.price}`, body: {} }),
  'DELETE /article-prices/{id}': () => ({ path: `/article-prices/${ids.price}`, headers: stale }),
  'POST /customers/{id}/addresses': () => ({ path: `/customers/${ids.customer}/addresses`, body: { addressType: 'Home', country: 'DE' } }),
  'PATCH /customers/{id}/addresses/{addressId}': () => ({ path: `/customers/${ids.customer}/addresses/${ids.address}`, body: {} }),
  'DELETE /customers/{id}/addresses/{addressId}': () => ({ path: `/customers/${ids.customer}/addresses/${ids.address}` }),
  'GET /changes': () => ({ path: '/changes?$top=1000' }),
  'GET /changes/$count': () => ({ path: '/changes/$count' }),
  'GET /changes/{id}': () => ({ path: `/changes/${ids.change}` }),
  'POST /$batch': () => ({ path: '/$batch', body: { requests: [{ id: '1', method: 'GET', url: `customers/${ids.customer}` }] } }),
  'POST /quotes': () => ({
    path: '/quotes',
    body: { lines: [{ articleId: ids.article, quantity: 1, billingDate: '2025-06-01T00:00:00Z' }] },
  }),
};

const CONNECTION = '{ totalCount pageInfo { endCursor } nodes { id } }';
/** Every query and mutation field of the schema, with an operation calling it. */
const GRAPHQL: Record<string, () => { query: string; variables?: Record<string, unknown> }> = {
  ...Object.fromEntries(
    (
      [
        ['paymentSource', 'paymentSources', () => ids.source!],
        ['payment', 'payments', () => ids.payment!],
        ['account', 'accounts', () => ids.account!],
        ['article', 'articles', () => ids.article!],
        ['articlePrice', 'articlePrices', () => ids.price!],
        ['customer', 'customers', () => ids.customer!],
        ['address', 'addresses', () => ids.address!],
        ['taxCode', 'taxCodes', () => ids.taxCode!],
        ['academicTerm', 'academicTerms', () => ids.term!],
      ] as const
    ).flatMap(([one, many, id]) => [
      [one, () => ({ query: `query($id: ID!) { ${one}(id: $id) { id } }`, variables: { id: id() } })],
      [many, () => ({ query: `{ ${many}(first: 1000) ${CONNECTION} }` })],
    ]),
  ),
  quote: () => ({
    query:
      'query($a: UUID!) { quote(input: { lines: [{ articleId: $a, quantity: 1, billingDate: "2025-06-01T00:00:00Z" }] }) { totals { net } } }',
    variables: { a: ids.article },
  }),
  changes: () => ({ query: '{ changes(first: 1000) { pageInfo { endCursor } nodes { id resource operation changes } } }' }),
  // Federation: a router's entity reads and the subgraph's SDL.
  _service: () => ({ query: '{ _service { sdl } }' }),
  _entities: () => ({
    query:
      'query($r: [_Any!]!) { _entities(representations: $r) { ... on Customer { id debtorNumber addresses { id country } } ... on Payment { id customer { id } } } }',
    variables: {
      r: [
        { __typename: 'Customer', id: ids.customer },
        { __typename: 'Customer', debtorNumber: ids.debtorNumber },
        { __typename: 'Payment', id: ids.payment },
      ],
    },
  }),
  createPaymentSource: () => ({
    query: 'mutation($a: UUID!) { createPaymentSource(input: { code: "SWG", name: "G", accountId: $a, sourceType: CASH }) { id } }',
    variables: { a: ids.account },
  }),
  updatePaymentSource: () => ({
    query: 'mutation($id: ID!) { updatePaymentSource(id: $id, input: {}) { id } }',
    variables: { id: ids.source },
  }),
  deletePaymentSource: () => ({ query: 'mutation { deletePaymentSource(id: "00000000-0000-4000-8000-000000000000") }' }),
  createPayment: () => ({
    query: 'mutation($c: UUID!) { createPayment(input: { customerId: $c, amount: 1 }) { id customer { id } } }',
    variables: { c: ids.customer },
  }),
  ...Object.fromEntries(
    (
      [
        ['Account', () => ids.account!, 'code', () => ids.accountCode!],
        ['TaxCode', () => ids.taxCode!, undefined, undefined],
        ['Article', () => ids.article!, 'code', () => ids.articleCode!],
        ['ArticlePrice', () => ids.price!, undefined, undefined],
        ['Customer', () => ids.customer!, 'debtorNumber', () => ids.debtorNumber!],
        ['AcademicTerm', () => ids.term!, 'code', () => ids.termCode!],
      ] as const
    ).flatMap(([model, id, key, value]) => [
      [`create${model}`, () => ({ query: `mutation { create${model}(input: {}) { id } }` })],
      [
        `update${model}`,
        () => ({ query: `mutation($id: ID!) { update${model}(id: $id, input: {}) { id etag } }`, variables: { id: id() } }),
      ],
      [`delete${model}`, () => ({ query: `mutation($id: ID!) { delete${model}(id: $id, ifMatch: "stale") }`, variables: { id: id() } })],
      ...(key && value
        ? [
            [
              `upsert${model}`,
              () => ({ query: `mutation($k: String!) { upsert${model}(${key}: $k, input: {}) { id etag } }`, variables: { k: value() } }),
            ],
            [
              `upsert${model}s`,
              () => ({
                query: `mutation($k: String!) { upsert${model}s(input: [{ ${key}: $k }]) { results { result record { id etag } } } }`,
                variables: { k: value() },
              }),
            ],
          ]
        : []),
    ]),
  ),
};

const leaked = (text: string): string[] => personal.filter((v) => text.includes(v));

test('the REST table names every operation of the OpenAPI document', async () => {
  const doc = (await request(t.http).get(`${ROOT}/openapi.json`).expect(200)).body as { paths: Record<string, Record<string, unknown>> };
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => ['get', 'put', 'post', 'patch', 'delete'].includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
  expect(Object.keys(REST).sort()).toEqual(operations.sort());
});

test('the GraphQL table names every query and mutation field', async () => {
  const { data } = await gql(t, '{ __schema { queryType { fields { name } } mutationType { fields { name } } } }', {}, full);
  const fields = [...data!.__schema.queryType.fields, ...data!.__schema.mutationType.fields].map((f: Json) => f.name as string);
  expect(Object.keys(GRAPHQL).sort()).toEqual(fields.sort());
});

test('no REST route answers a personal value, directly or inside a $batch, to a caller without billing.pii', async () => {
  const found: string[] = [];
  for (const [operation, call] of Object.entries(REST)) {
    const method = operation.split(' ')[0]!.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const c = call();
    let req = request(t.http)[method](`${ROOT}${c.path}`).set(bearer(plain));
    for (const [name, value] of Object.entries(c.headers ?? {})) req = req.set(name, value);
    const res = c.body === undefined ? await req : await req.send(c.body);
    const seen = [res.text, JSON.stringify(res.headers)].join('\n');
    if (res.status >= 500) found.push(`${operation}: ${res.status}`);
    for (const v of leaked(seen)) found.push(`${operation}: ${v}`);
    if (operation === 'POST /$batch') continue;
    const batch = await request(t.http)
      .post(`${ROOT}/$batch`)
      .set(bearer(plain))
      .send({
        requests: [
          {
            id: '1',
            method: method.toUpperCase(),
            url: c.path.slice(1),
            headers: { 'content-type': 'application/json', ...c.headers },
            body: c.body,
          },
        ],
      });
    if (batch.status >= 500) found.push(`$batch ${operation}: ${batch.status}`);
    for (const v of leaked(batch.text)) found.push(`$batch ${operation}: ${v}`);
  }
  expect(found).toEqual([]);
});

test('no GraphQL field answers a personal value to a caller without billing.pii', async () => {
  const found: string[] = [];
  for (const [field, operation] of Object.entries(GRAPHQL)) {
    const { query, variables } = operation();
    const res = await gql(t, query, variables ?? {}, plain);
    if (res.status >= 500) found.push(`${field}: ${res.status}`);
    for (const v of leaked(res.text)) found.push(`${field}: ${v}`);
  }
  expect(found).toEqual([]);
});

test('the sweep can see a leak: the same calls with billing.pii do answer personal values', async () => {
  const { text } = await gql(t, `{ customers(first: 1000) { nodes { email addresses { city } } } }`, {}, full);
  expect(leaked(text).length).toBeGreaterThan(10);
});
