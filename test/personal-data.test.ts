import { createHash } from 'node:crypto';
import { createClient } from 'graphql-ws';
import request from 'supertest';
import { loadConfig } from '../src/config/config';
import { DEMO_DATA_FILE } from '../src/config/paths';
import { startEvents } from '../src/events/events';
import { stringifyJson } from '../src/http/json';
import { createLogger } from '../src/http/logger';
import { importReferenceData } from '../src/import/import-service';
import { bearer, createTestApp, TEST_SECRET, token, type TestApp } from './support/app';
import { createTestDatabase, servicesOf } from './support/database';
import { privateNats, readStream } from './support/nats';
import { until } from './support/until';
import { gqlRequest, type Json } from './support/graphql';
import { startLiveApp } from './support/live-app';

// Personal data (docs/personal-data.md): every case through both doors, with and without the
// scope billing.pii. Without it the personal fields are absent from every record, naming one
// anywhere in a query is 403 FORBIDDEN before the database is asked (the same body whether
// or not a record matches), and the change log's entries come with those values removed.

const PERSONAL = {
  Customer: ['firstName', 'lastName', 'email', 'matriculationId', 'cmsStudentId'],
  Address: ['street', 'city', 'postalCode'],
} as const;
const ROOT = '/api/v1';

let t: TestApp;
/** Statements the app sent since the last reset. */
let statements = 0;
let full: string;
let plain: string;
let auditorPlain: string;
/** A customer (with an e-mail and an address) and a payment of theirs, as a full-scope caller reads them. */
let customer: Json;
let payment: Json;

beforeAll(async () => {
  t = await createTestApp({ onQuery: () => void statements++ });
  full = t.tokens.reader;
  plain = await token('billing.read');
  auditorPlain = await token('billing.read billing.audit');
  const customers = await request(t.http).get(`${ROOT}/customers?$filter=email%20ne%20null&$top=50`).set(bearer(full)).expect(200);
  customer = (customers.body.value as Json[]).find((c: Json) => c.addresses.length > 0);
  expect(customer).toBeDefined();
  const created = await request(t.http)
    .post(`${ROOT}/payments`)
    .set(bearer(t.tokens.writer))
    .send({ customerId: customer.id, amount: 12.5 })
    .expect(201);
  payment = created.body;
});
afterAll(() => t.close());

const get = (path: string, tok: string) => request(t.http).get(path).set(bearer(tok));
const enc = (s: string) => encodeURIComponent(s).replace(/'/g, '%27');

/** Whether a record (or any nested record) holds a personal key of the type. */
function personalKeys(record: Json, type: keyof typeof PERSONAL): string[] {
  return PERSONAL[type].filter((f) => Object.hasOwn(record, f));
}

/** A problem body without what differs per request. */
const stable = (body: Json) => ({ ...body, instance: undefined, requestId: undefined });

interface RefusalCase {
  readonly name: string;
  readonly rest?: () => string;
  readonly graphql?: () => { query: string; variables?: Record<string, unknown> };
  /** The field the refusal names. */
  readonly field: string;
  /** The scopes besides billing.pii; default billing.read. */
  readonly scopes?: string;
}

const REFUSALS: RefusalCase[] = [
  { name: '$select of a customer field', field: 'email', rest: () => `${ROOT}/customers?$select=id,email` },
  { name: "a single record's $select", field: 'firstName', rest: () => `${ROOT}/customers/${customer.id}?$select=firstName` },
  {
    name: '$filter on email (an address that exists)',
    field: 'email',
    rest: () => `${ROOT}/customers?$filter=${enc(`email eq '${customer.email}'`)}`,
  },
  {
    name: '$filter on email (an address that does not)',
    field: 'email',
    rest: () => `${ROOT}/customers?$filter=${enc("email eq 'nobody@example.invalid'")}`,
  },
  {
    name: '$filter deep in and/or/not',
    field: 'lastName',
    rest: () => `${ROOT}/customers?$filter=${enc("debtorNumber ne null and (not (contains(tolower(lastName),'er')) or id eq null)")}`,
  },
  {
    name: '$count with a filter',
    field: 'lastName',
    rest: () => `${ROOT}/customers?$count=true&$top=0&$filter=${enc("startswith(lastName,'M')")}`,
  },
  { name: '/$count', field: 'email', rest: () => `${ROOT}/customers/$count?$filter=${enc(`email eq '${customer.email}'`)}` },
  { name: '$orderby', field: 'lastName', rest: () => `${ROOT}/customers?$orderby=lastName%20desc` },
  {
    name: '$expand options of inline addresses',
    field: 'addresses/street',
    rest: () => `${ROOT}/customers?$expand=addresses($select=street)`,
  },
  {
    name: '$expand order of addresses',
    field: 'addresses/city',
    rest: () => `${ROOT}/customers/${customer.id}?$expand=addresses($orderby=city)`,
  },
  {
    name: '$expand=customer($select=email) from payments',
    field: 'customer/email',
    rest: () => `${ROOT}/payments?$expand=customer($select=email)`,
  },
  {
    name: "one payment's $expand=customer($select=lastName)",
    field: 'customer/lastName',
    rest: () => `${ROOT}/payments/${payment.id}?$expand=customer($select=lastName)`,
  },
  {
    name: 'a GraphQL selection',
    field: 'customers.nodes.lastName',
    graphql: () => ({ query: '{ customers(first: 5) { nodes { id lastName } } }' }),
  },
  { name: 'an alias', field: 'customers.nodes.mail', graphql: () => ({ query: '{ customers(first: 5) { nodes { id mail: email } } }' }) },
  {
    name: 'a fragment selecting lastName inside payments { customer }',
    field: 'payments.nodes.customer.lastName',
    graphql: () => ({
      query: 'query { payments(first: 3) { nodes { id customer { ...Who } } } } fragment Who on Customer { id lastName }',
    }),
  },
  {
    name: 'inline addresses',
    field: 'customer.addresses.street',
    graphql: () => ({ query: `{ customer(id: "${customer.id}") { id addresses { street } } }` }),
  },
  {
    name: 'the addresses list',
    field: 'addresses.nodes.city',
    graphql: () => ({ query: '{ addresses(first: 3) { nodes { ... on Address { city } } } }' }),
  },
  {
    name: 'where on email (exists)',
    field: 'customers.where.email',
    graphql: () => ({ query: `{ customers(where: { email: { eq: "${customer.email}" } }) { totalCount } }` }),
  },
  {
    name: 'where on email (does not)',
    field: 'customers.where.email',
    graphql: () => ({ query: '{ customers(where: { email: { eq: "nobody@example.invalid" } }) { totalCount } }' }),
  },
  {
    name: 'where in a variable, inside AND',
    field: 'customers.where.AND.0.lastName',
    graphql: () => ({
      query: 'query($w: CustomerWhere) { customers(where: $w) { totalCount } }',
      variables: { w: { AND: [{ lastName: { startsWith: 'M' } }] } },
    }),
  },
  {
    name: 'orderBy: [{ lastName: ASC }]',
    field: 'customers.orderBy.0.lastName',
    graphql: () => ({ query: '{ customers(orderBy: [{ lastName: ASC }]) { nodes { id } } }' }),
  },
  {
    name: 'a hand-made cursor keyed on lastName',
    field: 'customers.orderBy.0.lastName',
    graphql: () => ({
      query: 'query($after: String) { customers(orderBy: [{ lastName: ASC }], after: $after) { nodes { id } } }',
      variables: { after: handMadeCursor() },
    }),
  },
  {
    name: "a mutation's answer selecting the customer's e-mail",
    field: 'createPayment.customer.email',
    scopes: 'billing.read billing.write',
    graphql: () => ({ query: `mutation { createPayment(input: { customerId: "${customer.id}", amount: 1 }) { id customer { email } } }` }),
  },
];

/** The cursor format of a page keyed on lastName, written by hand with a guessed name. */
const handMadeCursor = () => Buffer.from(JSON.stringify({ k: ['lastName:asc'], p: ['M'], id: customer.id }), 'utf8').toString('base64url');

describe.each([
  ['REST', 'rest'],
  ['GraphQL', 'graphql'],
] as const)('naming a personal field through %s', (_door, door) => {
  const cases = REFUSALS.filter((c) => c[door] !== undefined);

  it.each(cases.map((c) => [c.name, c] as const))('%s: 403 without billing.pii, before any statement; 200 with it', async (_n, c) => {
    const payments = await t.services.payments.list({ limit: 0, count: true });
    const [without, withScope] = c.scopes ? [await token(c.scopes), await token(`${c.scopes} billing.pii`)] : [plain, full];
    statements = 0;
    const denied = door === 'rest' ? await get(c.rest!(), without) : await gqlRequest(t.http, c.graphql!(), without);
    expect(denied.status).toBe(403);
    expect(statements).toBe(0);
    const text = JSON.stringify(denied.body);
    expect(text).toContain('billing.pii');
    // Never a value: not the e-mail the filter named, nor the record's names.
    for (const v of [customer.email, customer.lastName, customer.firstName]) expect(text).not.toContain(v);
    if (door === 'rest') {
      expect(denied.body.code).toBe('FORBIDDEN');
      expect(denied.body.errors.map((e: Json) => e.field)).toContain(c.field);
    } else {
      const [error] = denied.body.errors;
      expect(denied.body.data).toBeUndefined();
      expect(error.extensions.code).toBe('FORBIDDEN');
      expect(error.extensions.errors.map((e: Json) => e.field)).toContain(c.field);
      expect(error.path).toEqual(error.extensions.errors[0].field.split('.'));
    }
    // Nothing written by a refused mutation.
    expect((await t.services.payments.list({ limit: 0, count: true })).totalCount).toBe(payments.totalCount);

    const allowed = door === 'rest' ? await get(c.rest!(), withScope) : await gqlRequest(t.http, c.graphql!(), withScope);
    if (c.name.startsWith('a hand-made cursor')) {
      // A cursor not made by the service is never an oracle: INVALID_QUERY even with the scope.
      expect(allowed.body.errors[0].extensions.code).toBe('INVALID_QUERY');
    } else {
      expect(allowed.status).toBe(200);
      if (door === 'graphql') expect(allowed.body.errors).toBeUndefined();
    }
  });

  it('answers the same 403 body whether or not a record matches', async () => {
    const pairs: Array<[RefusalCase | undefined, RefusalCase | undefined]> = [
      [
        REFUSALS.find((c) => c.name === '$filter on email (an address that exists)'),
        REFUSALS.find((c) => c.name === '$filter on email (an address that does not)'),
      ],
      [REFUSALS.find((c) => c.name === 'where on email (exists)'), REFUSALS.find((c) => c.name === 'where on email (does not)')],
    ];
    for (const [a, b] of pairs.filter(([x]) => x?.[door])) {
      const send = (c: RefusalCase) => (door === 'rest' ? get(c.rest!(), plain) : gqlRequest(t.http, c.graphql!(), plain));
      const [ra, rb] = [await send(a!), await send(b!)];
      expect(ra.status).toBe(403);
      expect(stable(ra.body)).toEqual(stable(rb.body));
    }
  });
});

describe('REST: records without billing.pii have no personal keys', () => {
  const READS: Array<[string, () => string, (body: Json) => Array<[Json, keyof typeof PERSONAL]>]> = [
    [
      'a customer list with inline addresses',
      () => `${ROOT}/customers?$top=20`,
      (b) => b.value.flatMap((c: Json) => [[c, 'Customer'], ...c.addresses.map((a: Json) => [a, 'Address'])]),
    ],
    ['one customer', () => `${ROOT}/customers/${customer.id}`, (c) => [[c, 'Customer'], ...c.addresses.map((a: Json) => [a, 'Address'])]],
    [
      'customers with $expand=addresses',
      () => `${ROOT}/customers?$top=5&$expand=addresses`,
      (b) => b.value.flatMap((c: Json) => [[c, 'Customer'], ...c.addresses.map((a: Json) => [a, 'Address'])]),
    ],
    [
      'payments with $expand=customer',
      () => `${ROOT}/payments?$expand=customer`,
      (b) => b.value.map((p: Json) => [p.customer, 'Customer']),
    ],
    ['one payment with $expand=customer', () => `${ROOT}/payments/${payment.id}?$expand=customer`, (p) => [[p.customer, 'Customer']]],
  ];

  it.each(READS)('%s', async (_n, path, records) => {
    const without = await get(path(), plain).expect(200);
    const shown = records(without.body);
    expect(shown.length).toBeGreaterThan(0);
    for (const [record, type] of shown) {
      expect(personalKeys(record, type)).toEqual([]);
      expect(record.id).toEqual(expect.any(String));
    }
    expect(shown.some(([r, type]) => type === 'Customer' && typeof r.debtorNumber === 'string')).toBe(true);
    const withScope = records((await get(path(), full).expect(200)).body);
    for (const [record, type] of withScope) expect(personalKeys(record, type)).toEqual([...PERSONAL[type]]);
  });

  it('a lambda (any/all) over addresses is not part of $filter: 400 for every caller, never an answer', async () => {
    for (const f of ["addresses/any(a: a/city eq 'Freiburg im Breisgau')", "addresses/all(a: a/postalCode ne '79098')"]) {
      const [a, b] = [await get(`${ROOT}/customers?$filter=${enc(f)}`, plain), await get(`${ROOT}/customers?$filter=${enc(f)}`, full)];
      expect([a.status, b.status]).toEqual([400, 400]);
      expect(a.body.code).toBe('INVALID_QUERY');
    }
  });

  it('non-personal fields stay readable, filterable and sortable', async () => {
    const res = await get(
      `${ROOT}/customers?$select=id,debtorNumber&$orderby=debtorNumber&$filter=${enc(`debtorNumber eq '${customer.debtorNumber}'`)}`,
      plain,
    ).expect(200);
    expect(res.body.value).toEqual([{ id: customer.id, debtorNumber: customer.debtorNumber }]);
  });
});

describe('writes', () => {
  it('a body setting a personal field is 403 without billing.pii before the database is asked: customers, their addresses inside', async () => {
    const writerPlain = await token('billing.read billing.write');
    const body = { debtorNumber: 'D-NEW', lastName: 'Guessed', addresses: [{ country: 'DE', street: 'Hauptstr. 1' }] };
    // The scope first: customers are maintained with billing.maintain.
    const refused = await request(t.http).post(`${ROOT}/customers`).set(bearer(writerPlain)).send(body).expect(403);
    expect(refused.body.detail).toMatch(/billing\.maintain/);
    // A maintainer without billing.pii is refused for the fields, before any statement.
    const maintainerPlain = await token('billing.read billing.maintain');
    statements = 0;
    const denied = await request(t.http).post(`${ROOT}/customers`).set(bearer(maintainerPlain)).send(body).expect(403);
    expect(statements).toBe(0);
    expect(denied.body.errors.map((e: Json) => e.field)).toEqual(['addresses/street', 'lastName']);
    expect(JSON.stringify(denied.body)).not.toContain('Guessed');
    const maintainer = await token('billing.read billing.maintain billing.pii');
    const written = await request(t.http)
      .post(`${ROOT}/customers`)
      .set(bearer(maintainer))
      .send({
        ...body,
        firstName: 'Ada',
        addresses: [
          { addressType: 'Home', street: 'Hauptstr. 1', city: 'Musterstadt', postalCode: '12345', country: 'DE', isDefault: true },
        ],
      });
    expect({ status: written.status, lastName: written.body.lastName }).toEqual({ status: 201, lastName: 'Guessed' });
    await request(t.http)
      .patch(`${ROOT}/customers/${customer.id}`)
      .set(bearer(maintainerPlain))
      .send({ email: 'x@example.org' })
      .expect(403);
  });

  it('a write naming no personal field goes through, and its answer holds only what the caller may read', async () => {
    const writerPlain = await token('billing.read billing.write');
    const created = await request(t.http)
      .post(`${ROOT}/payments?$expand=customer`)
      .set(bearer(writerPlain))
      .send({ customerId: customer.id, amount: 3 })
      .expect(201);
    expect(created.body.customerId).toBe(customer.id);
    expect(JSON.stringify(created.body)).not.toContain(customer.lastName);
  });
});

describe('GraphQL without billing.pii', () => {
  it('reads the fields that are not personal, through relations too', async () => {
    const res = await gqlRequest(
      t.http,
      {
        query: `{ customer(id: "${customer.id}") { id debtorNumber addresses { id country isDefault } } payments(first: 2) { nodes { customer { debtorNumber } } } }`,
      },
      plain,
    ).expect(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.customer.debtorNumber).toBe(customer.debtorNumber);
  });

  it('names every offending field, each with its path', async () => {
    const res = await gqlRequest(
      t.http,
      { query: '{ customers(first: 1) { nodes { firstName n: lastName addresses { postalCode } } } }' },
      plain,
    ).expect(403);
    expect(res.body.errors[0].extensions.errors.map((e: Json) => e.field)).toEqual([
      'customers.nodes.firstName',
      'customers.nodes.n',
      'customers.nodes.addresses.postalCode',
    ]);
  });
});

describe('relations of relations without billing.pii', () => {
  it('the service refuses a personal field two relations deep, naming its path, before any statement', async () => {
    statements = 0;
    const read = t.services.paymentSources.listSelected({
      limit: 5,
      select: ['code'],
      include: [{ relation: 'payments', select: ['amount'], include: [{ relation: 'customer', select: ['debtorNumber', 'lastName'] }] }],
      personalData: false,
    });
    await expect(read).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(read).rejects.toHaveProperty('errors', [{ field: 'payments/customer/lastName', message: expect.any(String) }]);
    expect(statements).toBe(0);
  });

  it('GraphQL reads the fields that are not personal two relations deep, and refuses a personal one there with its path', async () => {
    const query = (field: string) => `{ paymentSources(first: 20) { nodes { code payments { amount customer { ${field} } } } } }`;
    const res = await gqlRequest(t.http, { query: query('debtorNumber') }, plain).expect(200);
    expect(res.body.errors).toBeUndefined();
    const customers = res.body.data.paymentSources.nodes.flatMap((s: Json) => s.payments.map((p: Json) => p.customer));
    expect(customers.length).toBeGreaterThan(0);
    for (const c of customers) expect(Object.keys(c)).toEqual(['debtorNumber']);
    const refused = await gqlRequest(t.http, { query: query('email') }, plain).expect(403);
    expect(refused.body.errors[0].extensions.errors.map((e: Json) => e.field)).toEqual(['paymentSources.nodes.payments.customer.email']);
  });
});

describe('the change log without billing.pii', () => {
  /** The first customer entry of the log (the import's create), as a reader with both scopes sees it. */
  async function customerEntry(tok: string): Promise<Json> {
    const res = await get(`${ROOT}/changes?$filter=${enc(`resource eq 'customer' and recordId eq ${customer.id}`)}&$top=1`, tok).expect(
      200,
    );
    return res.body.value[0];
  }

  it('the feed, one entry and a history: values removed, names listed; whole with both scopes', async () => {
    const whole = await customerEntry(t.tokens.auditor);
    expect(whole.changes.email.new).toBe(customer.email);
    expect(whole.redacted).toBeUndefined();

    const redacted = await customerEntry(auditorPlain);
    const names = [...PERSONAL.Customer].sort();
    expect([...redacted.redacted].sort()).toEqual(names);
    for (const f of PERSONAL.Customer) expect(Object.hasOwn(redacted.changes, f)).toBe(false);
    expect(redacted.changes.debtorNumber.new).toBe(customer.debtorNumber);
    expect(JSON.stringify(redacted)).not.toContain(customer.email);

    const one = await get(`${ROOT}/changes/${whole.id}`, auditorPlain).expect(200);
    expect([...one.body.redacted].sort()).toEqual(names);
    const history = await get(`${ROOT}/customers/${customer.id}/history`, auditorPlain).expect(200);
    expect(JSON.stringify(history.body)).not.toContain(customer.email);
    expect([...history.body.value[0].redacted].sort()).toEqual(names);
    const ordered = await get(`${ROOT}/changes?$orderby=occurredAt&$filter=${enc(`recordId eq ${customer.id}`)}`, auditorPlain).expect(200);
    expect(JSON.stringify(ordered.body)).not.toContain(customer.email);
  });

  it('GraphQL changes and history: the same', async () => {
    const query = `{ changes(where: { recordId: { eq: "${customer.id}" } }) { nodes { changes { field new } redacted } } customer(id: "${customer.id}") { history { changes { field } redacted } } }`;
    const without = await gqlRequest(t.http, { query }, auditorPlain).expect(200);
    expect(without.body.errors).toBeUndefined();
    const entry = without.body.data.changes.nodes[0];
    expect([...entry.redacted].sort()).toEqual([...PERSONAL.Customer].sort());
    expect(entry.changes.map((c: Json) => c.field)).not.toContain('email');
    expect(without.body.data.customer.history[0].redacted.length).toBe(PERSONAL.Customer.length);
    const withBoth = await gqlRequest(t.http, { query }, t.tokens.auditor).expect(200);
    expect(withBoth.body.data.changes.nodes[0].redacted).toEqual([]);
    expect(withBoth.body.data.changes.nodes[0].changes.find((c: Json) => c.field === 'email').new).toBe(customer.email);
  });
});

describe('the changes subscription', () => {
  it('redacts for a subscriber without billing.pii, not for one with it', async () => {
    const live = await startLiveApp();
    try {
      const first = async (scope: string): Promise<Json> => {
        const client = createClient({
          url: live.wsUrl,
          webSocketImpl: WebSocket,
          retryAttempts: 0,
          lazy: true,
          connectionParams: { Authorization: `Bearer ${await token(scope)}` },
        });
        try {
          return await new Promise<Json>((resolve, reject) => {
            const stop = client.subscribe(
              { query: 'subscription { changes(resource: "customer", after: "0") { recordId changes { field new } redacted } }' },
              {
                next: (r) => {
                  stop();
                  resolve(r);
                },
                error: reject,
                complete: () => reject(new Error('completed without an event')),
              },
            );
          });
        } finally {
          await client.dispose();
        }
      };
      const without = await first('billing.read billing.audit');
      expect(without.errors).toBeUndefined();
      expect([...without.data.changes.redacted].sort()).toEqual([...PERSONAL.Customer].sort());
      expect(without.data.changes.changes.map((c: Json) => c.field)).not.toContain('lastName');
      const withBoth = await first('billing.read billing.audit billing.pii');
      expect(withBoth.data.changes.redacted).toEqual([]);
      expect(withBoth.data.changes.changes.map((c: Json) => c.field)).toContain('lastName');
    } finally {
      await live.close();
    }
  });
});

describe('no side channels', () => {
  it('the ETag is not a plain hash of the record: a guessed e-mail cannot be tested against it', async () => {
    const res = await get(`${ROOT}/customers/${customer.id}`, plain).expect(200);
    const plainHash = (record: Json) => `"${createHash('sha256').update(JSON.stringify(record)).digest('base64url').slice(0, 27)}"`;
    const { addresses: _shown, ...shown } = res.body;
    const { addresses: _all, ...whole } = customer;
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect([plainHash(shown), plainHash(whole), plainHash(res.body), plainHash(customer)]).not.toContain(res.headers.etag);
  });

  it('the key of ETags and cursors: SEAL_KEY, required in production when tokens are checked against a JWKS alone', () => {
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgresql://billing@db.internal/billing',
      JWT_JWKS_URL: 'https://idp.example.edu/jwks',
    };
    expect(() => loadConfig(production)).toThrow(/SEAL_KEY/);
    expect(loadConfig({ ...production, SEAL_KEY: 'k'.repeat(32) }).sealKey).toBe('k'.repeat(32));
    expect(() => loadConfig({ ...production, SEAL_KEY: 'short' })).toThrow(/SEAL_KEY/);
  });

  it('cursors hold no readable value, work for the caller they were made for, and a forged one is 400', async () => {
    const byName = '{ customers(first: 2, orderBy: [{ lastName: ASC }]) { edges { cursor node { lastName } } } }';
    const edges = (await gqlRequest(t.http, { query: byName }, full).expect(200)).body.data.customers.edges;
    for (const e of edges) {
      expect(Buffer.from(e.cursor, 'base64url').toString('latin1')).not.toContain(e.node.lastName);
      expect(e.cursor).not.toContain(
        Buffer.from(e.node.lastName)
          .toString('base64url')
          .slice(0, 4 * Math.floor(e.node.lastName.length / 3)),
      );
    }
    const next = 'query($after: String) { customers(first: 1, orderBy: [{ lastName: ASC }], after: $after) { nodes { id } } }';
    const page2 = await gqlRequest(t.http, { query: next, variables: { after: edges[0].cursor } }, full).expect(200);
    expect(page2.body.data.customers.nodes).toHaveLength(1);
    // The same cursor without the scope: the order it names is personal.
    expect((await gqlRequest(t.http, { query: next, variables: { after: edges[0].cursor } }, plain)).status).toBe(403);
    // A cursor of an order that is not personal, from and for a caller without the scope.
    const byDebtor = '{ customers(first: 1, orderBy: [{ debtorNumber: ASC }]) { edges { cursor } } }';
    const cursor = (await gqlRequest(t.http, { query: byDebtor }, plain).expect(200)).body.data.customers.edges[0].cursor;
    const after = await gqlRequest(
      t.http,
      {
        query: 'query($a: String) { customers(first: 1, orderBy: [{ debtorNumber: ASC }], after: $a) { nodes { debtorNumber } } }',
        variables: { a: cursor },
      },
      plain,
    );
    expect(after.body.errors).toBeUndefined();
    // Hand-made cursors keyed on lastName, without an order and with one of debtorNumber: 400 for both scopes, the same body.
    for (const order of ['', ', orderBy: [{ debtorNumber: ASC }]']) {
      const q = `query($a: String) { customers(first: 1${order}, after: $a) { nodes { id } } }`;
      const bodies = [];
      for (const tok of [plain, full]) {
        const r = await gqlRequest(t.http, { query: q, variables: { a: handMadeCursor() } }, tok);
        expect(r.body.errors[0].extensions.code).toBe('INVALID_QUERY');
        bodies.push(r.body);
      }
      expect(bodies[0]).toEqual(bodies[1]);
    }
  });
});

describe('discoverable', () => {
  it('$metadata marks exactly the personal fields with PersonalData.IsPotentiallyPersonal, in XML and JSON', async () => {
    const xml = (await get(`${ROOT}/$metadata`, plain).expect(200)).text;
    const marked = [
      ...xml.matchAll(
        /<Annotations Target="[^"]*\.(\w+)\/(\w+)"><Annotation Term="PersonalData\.IsPotentiallyPersonal" Bool="true"\/><\/Annotations>/g,
      ),
    ].map((m) => `${m[1]}.${m[2]}`);
    const expected = Object.entries(PERSONAL).flatMap(([type, fields]) => fields.map((f) => `${type}.${f}`));
    expect(marked.sort()).toEqual(expected.sort());
    expect(xml).toContain('Namespace="com.sap.vocabularies.PersonalData.v1" Alias="PersonalData"');
    const json = (await get(`${ROOT}/$metadata?$format=json`, plain).expect(200)).body;
    const annotations: Record<string, Json> = Object.values<Json>(json).find((v) => v?.$Annotations)?.$Annotations;
    const jsonMarked = Object.entries(annotations)
      .filter(([, a]) => a['@PersonalData.IsPotentiallyPersonal'] === true)
      .map(([target]) => target.split('.').at(-1)!.replace('/', '.'));
    expect(jsonMarked.sort()).toEqual(expected.sort());
  });

  it('OpenAPI names the scope on each personal property and does not require it', async () => {
    const doc = (await request(t.http).get(`${ROOT}/openapi.json`).expect(200)).body;
    // Addresses have no collection of their own: their schema is the one inside Customer.
    const schemas = { Customer: doc.components.schemas.Customer, Address: doc.components.schemas.Customer.properties.addresses.items };
    for (const [type, fields] of Object.entries(PERSONAL)) {
      const schema = schemas[type as keyof typeof PERSONAL];
      for (const f of fields) {
        expect(schema.properties[f]['x-required-scopes']).toEqual(['billing.pii']);
        expect(schema.required).not.toContain(f);
      }
      expect(schema.properties.id['x-required-scopes']).toBeUndefined();
      expect(schema.required).toContain('id');
    }
  });
});

describe('events on NATS', () => {
  it('full by default, redacted with EVENTS_PERSONAL_DATA=redacted; data is the REST entry either way', async () => {
    const nats = await privateNats();
    const db = await createTestDatabase();
    try {
      await importReferenceData(db, DEMO_DATA_FILE);
      const services = servicesOf(db);
      const [entry] = (
        await services.changeLog.feed({
          filter: { kind: 'compare', field: 'resource', op: 'eq', value: { type: 'string', value: 'customer' } },
          limit: 1,
        })
      ).items;
      /** The event of that customer entry, as a relay with the setting publishes it. */
      const published = async (setting: 'full' | 'redacted') => {
        const stream = `PII_${setting.toUpperCase()}`;
        const config = loadConfig({
          NODE_ENV: 'test',
          JWT_SECRET: TEST_SECRET,
          DATA_DIR: '/nonexistent',
          EVENTS_NATS_URL: nats.url,
          EVENTS_NATS_STREAM: stream,
          EVENTS_NATS_SUBJECT_PREFIX: `pii.${setting}`,
          EVENTS_POLL_MS: '100',
          ...(setting === 'full' ? {} : { EVENTS_PERSONAL_DATA: setting }),
        });
        const events = await startEvents({ config: config.events, db, services, logger: createLogger('silent') });
        try {
          return await until(`the ${setting} event`, async () =>
            (await readStream(nats.url, stream).catch(() => [])).find((e) => e.event.id === entry!.id),
          );
        } finally {
          await events.stop();
        }
      };
      const full = await published('full');
      expect(full.event.data.changes.email!.new).toBe(entry!.changes.email!.new);
      expect(Object.hasOwn(full.event.data, 'redacted')).toBe(false);
      const redacted = await published('redacted');
      expect([...(redacted.event.data as Json).redacted].sort()).toEqual([...PERSONAL.Customer].sort());
      for (const f of PERSONAL.Customer) expect(Object.hasOwn(redacted.event.data.changes, f)).toBe(false);
      expect(redacted.event.data.changes.debtorNumber).toEqual(full.event.data.changes.debtorNumber);
      // `data` is the entry as the service layer gives it to REST: whole, or as a reader without billing.pii reads it.
      expect(full.event.data).toEqual(JSON.parse(stringifyJson(await services.changeLog.get(entry!.id))));
      expect(redacted.event.data).toEqual(
        JSON.parse(stringifyJson(await services.changeLog.get(entry!.id, undefined, { personalData: false }))),
      );
    } finally {
      await db.close();
      await nats.destroy();
    }
  });
});
