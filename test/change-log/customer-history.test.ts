import request from 'supertest';
import { importReferenceData } from '../../src/import';
import { bearer, createTestApp, token, WRITER_ID, type TestApp } from '../support/app';
import type { Json } from '../support/graphql';
import { gqlRequest } from '../support/graphql';
import { demo, writeFile } from '../import/helpers';

// A customer's history holds its addresses' entries too (docs/changes.md): created, changed
// and deleted through the customer's body and through the address routes, and written by
// the import, in seq order, the same through both doors; redacted without billing.pii.

const ROOT = '/api/v1';
let t: TestApp;
let maintainer: string;
let auditorPlain: string;
beforeAll(async () => {
  t = await createTestApp();
  maintainer = await token('billing.read billing.maintain billing.pii', WRITER_ID);
  auditorPlain = await token('billing.read billing.audit');
});
afterAll(() => t.close());

const write = (r: request.Test) => r.set(bearer(maintainer));
const PERSONAL_ADDRESS = ['city', 'postalCode', 'street'];

let n = 0;
const customerBody = () => ({
  firstName: 'Jonas',
  lastName: 'Weber',
  debtorNumber: `88${Date.now().toString().slice(-7)}${n++}`,
  email: 'jonas.weber@stud.example',
  addresses: [
    { addressType: 'Billing', street: 'Kaiserstraße 7', city: 'Karlsruhe', postalCode: '76133', country: 'DE', isDefault: true },
    { addressType: 'Home', street: 'Lindenweg 2', city: 'Ettlingen', postalCode: '76275', country: 'DE' },
  ],
});

/** An entry as a door gives it (GraphQL's changes a list, REST's an object). */
interface Entry {
  readonly id: string;
  readonly seq: string;
  readonly resource: string;
  readonly recordId: string;
  readonly operation: string;
  readonly changes: Json;
  readonly redacted?: string[];
  readonly importRunId?: string | null;
}

/** Every entry of the feed for these records, in seq order (the oracle a history is compared with). */
async function feedOf(recordIds: readonly string[]): Promise<Entry[]> {
  const filter = encodeURIComponent(`recordId in (${recordIds.join(',')})`);
  const res = await request(t.http).get(`${ROOT}/changes?$filter=${filter}&$top=1000`).set(bearer(t.tokens.auditor)).expect(200);
  return res.body.value as Entry[];
}

async function restHistory(customerId: string, tok = t.tokens.auditor): Promise<Entry[]> {
  const res = await request(t.http).get(`${ROOT}/customers/${customerId}/history?$top=1000`).set(bearer(tok)).expect(200);
  return res.body.value as Entry[];
}

async function graphqlHistory(customerId: string, tok = t.tokens.auditor): Promise<Entry[]> {
  const query = `query($id: ID!) { customer(id: $id) { history { id seq resource recordId operation changes { field old new } redacted } } }`;
  const res = await gqlRequest(t.http, { query, variables: { id: customerId } }, tok).expect(200);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.customer.history as Entry[];
}

const shape = (entries: readonly Entry[]) => entries.map((e) => [e.resource, e.recordId, e.operation.toLowerCase()]);
const seqs = (entries: readonly Entry[]) => entries.map((e) => BigInt(e.seq));
const ascending = (xs: readonly bigint[]) => xs.every((x, i) => i === 0 || xs[i - 1]! < x);

describe('a customer written through REST', () => {
  let customerId: string;
  let billing: string;
  let home: string;
  let added: string;

  beforeAll(async () => {
    const body = customerBody();
    const created = await write(request(t.http).post(`${ROOT}/customers`))
      .send(body)
      .expect(201);
    customerId = created.body.id as string;
    const byType = (type: string) => (created.body.addresses as Json[]).find((a) => a.addressType === type).id as string;
    billing = byType('Billing');
    home = byType('Home');
    // A new street of the Home address through the customer's body, a new city of the
    // Billing address through its own route, a third address added and the Home one deleted
    // through the address routes.
    const moved = { ...body, addresses: body.addresses.map((a) => (a.addressType === 'Home' ? { ...a, street: 'Lindenweg 4' } : a)) };
    await write(request(t.http).put(`${ROOT}/customers/${customerId}`))
      .send(moved)
      .expect(200);
    await write(request(t.http).patch(`${ROOT}/customers/${customerId}/addresses/${billing}`))
      .send({ city: 'Durlach' })
      .expect(200);
    const third = await write(request(t.http).post(`${ROOT}/customers/${customerId}/addresses`))
      .send({ addressType: 'Correspondence', street: 'Postfach 12', city: 'Karlsruhe', postalCode: '76131', country: 'DE' })
      .expect(201);
    added = third.body.id as string;
    await write(request(t.http).delete(`${ROOT}/customers/${customerId}/addresses/${home}`)).expect(204);
    await write(request(t.http).patch(`${ROOT}/customers/${customerId}`))
      .send({ email: 'j.weber@stud.example' })
      .expect(200);
  });

  it("GET /customers/{id}/history: the customer's entries and its addresses', in seq order", async () => {
    const history = await restHistory(customerId);
    expect(shape(history)).toEqual([
      ['customer', customerId, 'created'],
      ['address', billing, 'created'],
      ['address', home, 'created'],
      ['address', home, 'updated'],
      ['address', billing, 'updated'],
      ['address', added, 'created'],
      ['address', home, 'deleted'],
      ['customer', customerId, 'updated'],
    ]);
    expect(ascending(seqs(history))).toBe(true);
    // The entries as the feed gives them, nothing else and nothing added.
    expect(history).toEqual(await feedOf([customerId, billing, home, added]));
    const homeUpdate = history.find((e) => e.recordId === home && e.operation === 'updated')!;
    expect(homeUpdate.changes).toEqual({ street: { old: 'Lindenweg 2', new: 'Lindenweg 4' } });
    expect(history.find((e) => e.recordId === billing && e.operation === 'updated')!.changes).toEqual({
      city: { old: 'Karlsruhe', new: 'Durlach' },
    });
    // The public entry keeps its shape: no owner in it.
    expect(Object.keys(homeUpdate)).not.toContain('ownerId');
    // The feed's options apply to the whole history: a filter, a count, a page.
    const updates = await request(t.http)
      .get(
        `${ROOT}/customers/${customerId}/history?$filter=${encodeURIComponent("resource eq 'address' and operation eq 'updated'")}&$count=true`,
      )
      .set(bearer(t.tokens.auditor))
      .expect(200);
    expect(updates.body['@odata.count']).toBe(2);
    expect(shape(updates.body.value as Entry[])).toEqual([
      ['address', home, 'updated'],
      ['address', billing, 'updated'],
    ]);
    const first = await request(t.http).get(`${ROOT}/customers/${customerId}/history?$top=3`).set(bearer(t.tokens.auditor)).expect(200);
    expect(first.body.value).toEqual(history.slice(0, 3));
  });

  it('GraphQL customer { history }: the same entries in the same order', async () => {
    const rest = await restHistory(customerId);
    const graphql = await graphqlHistory(customerId);
    expect(graphql.map((e) => [e.id, e.seq])).toEqual(rest.map((e) => [e.id, e.seq]));
    expect(shape(graphql)).toEqual(shape(rest));
    expect(graphql.filter((e) => e.resource === 'address').map((e) => e.operation)).toEqual([
      'CREATED',
      'CREATED',
      'UPDATED',
      'UPDATED',
      'CREATED',
      'DELETED',
    ]);
    // Batched over a page of customers: each customer gets its own addresses' entries only.
    const res = await gqlRequest(
      t.http,
      { query: `{ customers(first: 100) { nodes { id addresses { id } history { recordId } } } }` },
      t.tokens.auditor,
    ).expect(200);
    expect(res.body.errors).toBeUndefined();
    const nodes = res.body.data.customers.nodes as Json[];
    expect(nodes.length).toBeGreaterThan(1);
    for (const c of nodes) {
      const mine = new Set([c.id, ...c.addresses.map((a: Json) => a.id)]);
      if (c.id === customerId) for (const id of [home]) mine.add(id);
      expect(c.history.filter((e: Json) => !mine.has(e.recordId))).toEqual([]);
    }
    // An address's own history is still its own.
    const address = await gqlRequest(
      t.http,
      { query: `query($id: ID!) { customer(id: $id) { addresses { id history { recordId operation } } } }`, variables: { id: customerId } },
      t.tokens.auditor,
    ).expect(200);
    const billingHistory = (address.body.data.customer.addresses as Json[]).find((a) => a.id === billing).history;
    expect(billingHistory).toEqual([
      { recordId: billing, operation: 'CREATED' },
      { recordId: billing, operation: 'UPDATED' },
    ]);
  });

  it('without billing.pii: the address entries redacted as elsewhere in the feed, through both doors', async () => {
    const whole = await restHistory(customerId);
    const rest = await restHistory(customerId, auditorPlain);
    const graphql = await graphqlHistory(customerId, auditorPlain);
    expect(shape(rest)).toEqual(shape(whole));
    expect(JSON.stringify(rest)).not.toMatch(/Lindenweg|Kaiserstraße|Durlach|Ettlingen|76133|jonas\.weber/);
    expect(JSON.stringify(graphql)).not.toMatch(/Lindenweg|Kaiserstraße|Durlach|Ettlingen|76133|jonas\.weber/);
    const created = rest.find((e) => e.recordId === billing && e.operation === 'created')!;
    expect([...(created.redacted ?? [])].sort()).toEqual(PERSONAL_ADDRESS);
    expect(created.changes.addressType).toEqual({ old: null, new: 'Billing' });
    expect(created.changes.customerId).toEqual({ old: null, new: customerId });
    // Each entry as the feed's own redaction gives it.
    const feed = await request(t.http)
      .get(`${ROOT}/changes?$filter=${encodeURIComponent(`recordId in (${billing},${home})`)}`)
      .set(bearer(auditorPlain))
      .expect(200);
    expect(rest.filter((e) => e.recordId === billing || e.recordId === home)).toEqual(feed.body.value);
    const gqlCreated = graphql.find((e) => e.recordId === billing && e.operation === 'CREATED')!;
    expect([...(gqlCreated.redacted ?? [])].sort()).toEqual(PERSONAL_ADDRESS);
    expect(gqlCreated.changes.map((c: Json) => c.field)).not.toContain('street');
  });
});

describe('a customer written by the import', () => {
  it("shows the import's address entries: created, changed without its customer in the entry, and moved to another customer", async () => {
    const data = demo();
    const [first, second] = data.customers.filter((c) => (c.addresses?.length ?? 0) > 0);
    const changed = first!.addresses![0]!;
    changed.city = 'Neustadt an der Weinstraße';
    // An address of the second customer listed under the first moves there.
    const moving = second!.addresses![0]!;
    second!.addresses = second!.addresses!.slice(1);
    first!.addresses = [...first!.addresses!, { ...moving, customerId: first!.id, isDefault: false }];
    const run = await importReferenceData(t.db, writeFile(data));

    for (const c of [first!, second!]) {
      const rest = await restHistory(c.id);
      const own = [c.id, ...(c.addresses ?? []).map((a) => a.id).filter((id) => id !== moving.id)];
      expect(rest.filter((e) => e.recordId !== moving.id)).toEqual(await feedOf(own));
      expect((await graphqlHistory(c.id)).map((e) => e.id)).toEqual(rest.map((e) => e.id));
      // Its own created entry and its addresses' (the demo data's import) come first.
      expect(rest[0]).toMatchObject({ resource: 'customer', recordId: c.id, operation: 'created' });
      for (const a of c.addresses ?? []) if (a.id !== moving.id) expect(shape(rest)).toContainEqual(['address', a.id, 'created']);
    }
    const ofRun = (entries: Entry[]) => entries.filter((e) => e.importRunId === run.importRunId);
    const changedIn = ofRun(await restHistory(first!.id)).find((e) => e.recordId === changed.id)!;
    expect(changedIn.operation).toBe('updated');
    expect(changedIn.changes.city.new).toBe('Neustadt an der Weinstraße');
    expect(changedIn.changes).not.toHaveProperty('customerId');
    // The move is an entry of the customer the address moved to; the one it left keeps the
    // entries from when it was its own.
    const movedIn = ofRun(await restHistory(first!.id)).filter((e) => e.recordId === moving.id);
    expect(movedIn.map((e) => [e.operation, e.changes.customerId])).toEqual([['updated', { old: second!.id, new: first!.id }]]);
    const left = await restHistory(second!.id);
    expect(shape(left)).toContainEqual(['address', moving.id, 'created']);
    expect(ofRun(left).filter((e) => e.recordId === moving.id)).toEqual([]);
  });
});
