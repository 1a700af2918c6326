// The GraphQL door as an Apollo Federation 2 subgraph (src/graphql/federation.ts): `_service`
// gives the SDL, `_entities` resolves representations by id and by natural key through the
// compiled read path, one statement per type and key (and one per to-many relation), in the
// representations' order; the checks before execution hold for it as for any query.

import { randomUUID } from 'node:crypto';
import { fixture } from '../support/fixture';
import { createTestApp, token, type TestApp } from '../support/app';
import { gql, gqlOk } from '../support/graphql';
import { readSchema } from '../../src/graphql/server';
import { ENTITY_KEYS } from '../../src/graphql/federation';

let t: TestApp;
let statements: string[] = [];
const customers: Array<{ id: string; debtorNumber: string }> = [];

beforeAll(async () => {
  t = await createTestApp({ onQuery: (sql) => statements.push(sql) });
  // Accounts that fit their uses (the database holds every record to that): an Asset and a Liability account.
  const fitting = (type: string) => fixture.accounts.find((a) => a.type === type && a.isActive)!;
  const [receivable, prepayment] = [fitting('Asset'), fitting('Liability')];
  const made = Array.from({ length: 100 }, (_, i) => ({
    id: randomUUID(),
    firstName: `F${i}`,
    lastName: `Entity${i}`,
    debtorNumber: `FED-${String(i).padStart(3, '0')}`,
    receivableAccountId: receivable.id,
    prepaymentAccountId: prepayment.id,
  }));
  await t.db.prisma.customer.createMany({ data: made });
  await t.db.prisma.address.createMany({
    data: made.flatMap((c, i) =>
      Array.from({ length: i % 3 }, (_, j) => ({
        id: randomUUID(),
        customerId: c.id,
        addressType: ['Billing', 'Home'][j]!,
        street: `Street ${i}`,
        city: 'C',
        postalCode: 'P',
        country: 'DE',
        isDefault: j === 0,
      })),
    ),
  });
  customers.push(...made.map(({ id, debtorNumber }) => ({ id, debtorNumber })));
});
afterAll(async () => {
  await t.close();
});

const ENTITIES = 'query($r: [_Any!]!) { _entities(representations: $r) { __typename ...on Customer { id debtorNumber } } }';
const WITH_ADDRESSES =
  'query($r: [_Any!]!) { _entities(representations: $r) { ...on Customer { id debtorNumber addresses { id street isDefault } } } }';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** The representations in a shuffled order (every third from the end first), plus an unknown id in the middle. */
function representations(): Array<{ __typename: string; id: string }> {
  const ids = [...customers.filter((_, i) => i % 3 === 0).reverse(), ...customers.filter((_, i) => i % 3 !== 0)].map((c) => c.id);
  ids.splice(50, 0, UNKNOWN);
  return ids.map((id) => ({ __typename: 'Customer', id }));
}

it('_service { sdl } is the schema of schema.graphql, with its federation link and keys', async () => {
  const { _service } = await gqlOk(t, '{ _service { sdl } }');
  expect(_service.sdl).toContain('@link(url: "https://specs.apollo.dev/federation/v2.5"');
  expect(_service.sdl).toMatch(/type Customer\s+@key\(fields: "id"\)\s+@key\(fields: "debtorNumber"\)/);
  expect(_service.sdl).toContain('firstName: String! @requiresScopes(scopes: [["billing.pii"]])');
  // Every type of schema.graphql is in it, described as there.
  for (const type of readSchema().match(/^type \w+/gm)!) expect(_service.sdl).toContain(type);
});

it('schema.graphql declares exactly the keys of the declarations: the id, and the natural key where there is one', () => {
  const declared = Object.fromEntries(
    [...readSchema().matchAll(/^type (\w+)((?: @key\(fields: "\w+"\))+)/gm)].map((m) => [
      m[1],
      [...m[2]!.matchAll(/"(\w+)"/g)].map((k) => k[1]),
    ]),
  );
  expect(declared).toEqual(Object.fromEntries(Object.entries(ENTITY_KEYS).map(([model, keys]) => [model, keys.map((k) => k.field)])));
  expect(declared.Customer).toEqual(['id', 'debtorNumber']);
  expect(declared.Article).toEqual(['id', 'code']);
});

it('100 customers by id and one unknown: 101 results in the representations order, null for the unknown, one statement', async () => {
  const r = representations();
  statements = [];
  const data = await gqlOk(t, ENTITIES, { r });
  expect(statements).toHaveLength(1);
  expect(statements[0]).toMatch(/FROM "Customer" t WHERE t\."id" = ANY\(/);
  expect(data._entities).toHaveLength(101);
  expect(data._entities.map((e: { id?: string } | null) => e?.id ?? null)).toEqual(r.map((x) => (x.id === UNKNOWN ? null : x.id)));
  expect(data._entities[50]).toBeNull();
  const byId = new Map(customers.map((c) => [c.id, c.debtorNumber]));
  for (const e of data._entities.filter(Boolean)) expect(e).toEqual({ __typename: 'Customer', id: e.id, debtorNumber: byId.get(e.id) });
});

it('with their addresses: a second statement by their ids, the same records as customers(where: { id: { in } }) reads', async () => {
  const r = representations();
  statements = [];
  const data = await gqlOk(t, WITH_ADDRESSES, { r });
  expect(statements).toHaveLength(2);
  expect(statements[1]).toMatch(/FROM "Address" r WHERE r\."customerId" = ANY\(/);
  const ids = r.filter((x) => x.id !== UNKNOWN).map((x) => x.id);
  statements = [];
  const list = await gqlOk(
    t,
    'query($ids: [UUID!]!) { customers(where: { id: { in: $ids } }) { nodes { id debtorNumber addresses { id street isDefault } } } }',
    {
      ids,
    },
  );
  expect(statements).toHaveLength(2);
  const listed = new Map(list.customers.nodes.map((c: { id: string }) => [c.id, c]));
  expect(data._entities).toEqual(r.map((x) => listed.get(x.id) ?? null));
  expect(data._entities.some((e: { addresses?: unknown[] } | null) => (e?.addresses?.length ?? 0) > 1)).toBe(true);
});

it('by natural key: debtor numbers as written, codes in any case, one statement each type, in order', async () => {
  const article = fixture.articles[0]!;
  const account = fixture.accounts[0]!;
  const r = [
    { __typename: 'Customer', debtorNumber: customers[7]!.debtorNumber },
    { __typename: 'Article', code: article.code.toLowerCase() },
    { __typename: 'Customer', debtorNumber: 'NO-SUCH-DEBTOR' },
    { __typename: 'Account', code: account.code },
    { __typename: 'Customer', debtorNumber: customers[3]!.debtorNumber.toLowerCase() },
    { __typename: 'Article', id: article.id },
  ];
  statements = [];
  const data = await gqlOk(
    t,
    'query($r: [_Any!]!) { _entities(representations: $r) { ...on Customer { id } ...on Article { id code } ...on Account { id code } } }',
    { r },
  );
  expect(data._entities).toEqual([
    { id: customers[7]!.id },
    { id: article.id, code: article.code },
    null,
    { id: account.id, code: account.code },
    // Debtor numbers are compared as written.
    null,
    { id: article.id, code: article.code },
  ]);
  // Customers by debtor number, articles by code, articles by id, accounts by code.
  expect(statements).toHaveLength(4);
});

it('a personal field through _entities without billing.pii is FORBIDDEN (403) before the database is asked; with it, it is read', async () => {
  const reader = await token('billing.read');
  const r = [{ __typename: 'Customer', id: customers[1]!.id }];
  statements = [];
  const refused = await gql(t, 'query($r: [_Any!]!) { _entities(representations: $r) { ...on Customer { id lastName } } }', { r }, reader);
  expect(refused.status).toBe(403);
  expect(refused.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
  expect(refused.errors?.[0]?.message).toContain('_entities.lastName');
  const street = await gql(
    t,
    'query($r: [_Any!]!) { _entities(representations: $r) { ...on Customer { addresses { street } } } }',
    { r },
    reader,
  );
  expect(street.status).toBe(403);
  expect(statements).toEqual([]);
  // The other fields are read without them, personal ones of relations left out.
  const allowed = await gqlOk(
    t,
    'query($r: [_Any!]!) { _entities(representations: $r) { ...on Customer { id defaultAddress { id country } } } }',
    { r },
    reader,
  );
  expect(allowed._entities[0].id).toBe(customers[1]!.id);
  const whole = await gqlOk(t, 'query($r: [_Any!]!) { _entities(representations: $r) { ...on Customer { lastName } } }', { r });
  expect(whole._entities).toEqual([{ lastName: 'Entity1' }]);
});

it('needs billing.read, and the cost limit counts the representations', async () => {
  const r = [{ __typename: 'Customer', id: customers[0]!.id }];
  const writeOnly = await gql(t, ENTITIES, { r }, t.tokens.writeOnly);
  expect(writeOnly.status).toBe(403);
  const deep =
    'query($r: [_Any!]!) { _entities(representations: $r) { ...on Customer { payments { paymentSource { payments { id } } } } } }';
  // 121 a representation: 400 are within the limit of 50,000, 500 are not.
  expect((await gql(t, deep, { r: Array.from({ length: 400 }, () => r[0]) })).errors).toBeUndefined();
  const over = await gql(t, deep, { r: Array.from({ length: 500 }, () => r[0]) });
  expect(over.status).toBe(400);
  expect(over.errors?.[0]?.extensions.code).toBe('QUERY_TOO_COMPLEX');
});

it.each([
  ['a malformed id', { __typename: 'Customer', id: 'not-a-uuid' }, 'VALIDATION_FAILED'],
  ['no key', { __typename: 'Customer', lastName: 'Entity1' }, 'VALIDATION_FAILED'],
  ['a key that is not text', { __typename: 'Article', code: 42 }, 'VALIDATION_FAILED'],
  ['a NUL in a code', { __typename: 'Article', code: 'A\u0000' }, 'VALIDATION_FAILED'],
])('a representation with %s fails that entity alone (%j), never as a fault', async (_label, representation, code) => {
  const res = await gql(t, 'query($r: [_Any!]!) { _entities(representations: $r) { ...on Customer { id } ...on Article { id } } }', {
    r: [representation, { __typename: 'Customer', id: customers[2]!.id }],
  });
  expect(res.status).toBe(200);
  expect(res.errors?.map((e) => [e.extensions.code, e.path])).toEqual([[code, ['_entities', 0]]]);
  expect(res.data?._entities).toEqual([null, { id: customers[2]!.id }]);
});

it.each([
  ['a type that is not an entity', { __typename: 'PageInfo', hasNextPage: true }],
  ['an unknown type', { __typename: 'Nope', id: UNKNOWN }],
  ['no __typename', { id: UNKNOWN }],
  ['no object', 'text'],
])('a representation of %s is refused before anything runs (VALIDATION_FAILED, 400)', async (_label, representation) => {
  statements = [];
  const res = await gql(t, 'query($r: [_Any!]!) { _entities(representations: $r) { __typename } }', {
    r: [{ __typename: 'Customer', id: UNKNOWN }, representation],
  });
  expect(res.status).toBe(400);
  expect(res.errors?.map((e) => [e.extensions.code, e.extensions.field])).toEqual([['VALIDATION_FAILED', 'r[1]']]);
  expect(statements).toEqual([]);
  const literal = await gql(
    t,
    `{ _entities(representations: [${JSON.stringify(representation).replace(/"(\w+)":/g, '$1:')}]) { __typename } }`,
  );
  expect(literal.status).toBe(400);
  expect(literal.errors?.[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
});
