import request from 'supertest';
import { bearer, createTestApp, token, WRITER_ID, type TestApp } from '../support/app';
import type { Json } from '../support/graphql';
import { activeAssetAccount, defaultSource, fixture } from '../support/fixture';

// The change log through the REST door: every write's entries, the scope, history paths and
// the feed's links (nextLink, then a deltaLink that later gives only what is new).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ROOT = '/api/v1';
const audit = (path: string) => request(t.http).get(path).set(bearer(t.tokens.auditor));
const relative = (link: string) => link.replace(/^https?:\/\/[^/]+/, '');

/** Every entry now in the log, read by following the feed from its start. */
async function everything(): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  let next: string | undefined = `${ROOT}/changes`;
  while (next) {
    const res: request.Response = await audit(next).expect(200);
    out.push(...(res.body.value as Array<Record<string, unknown>>));
    next = res.body['@odata.nextLink'] ? relative(res.body['@odata.nextLink'] as string) : undefined;
  }
  return out;
}

const source = (code: string) => ({ code, name: `Source ${code}`, accountId: activeAssetAccount().id, sourceType: 'Cash' });

describe('scopes', () => {
  it('401 without a token, 403 without billing.audit, 200 with it', async () => {
    await request(t.http).get(`${ROOT}/changes`).expect(401);
    const denied = await request(t.http).get(`${ROOT}/changes`).set(bearer(t.tokens.writer)).expect(403);
    expect(denied.body.code).toBe('FORBIDDEN');
    await request(t.http).get(`${ROOT}/payment-sources/${defaultSource().id}/history`).set(bearer(t.tokens.reader)).expect(403);
    await request(t.http)
      .get(`${ROOT}/changes?$top=1`)
      .set(bearer(await token('billing.audit')))
      .expect(200);
  });
});

describe('payment sources and payments through REST', () => {
  it('records create, PUT, PATCH and delete with field-level old/new, who and the request id; refused writes record nothing', async () => {
    const before = (await everything()).length;
    const w = (r: request.Test, id: string) => r.set(bearer(t.tokens.writer)).set('X-Request-Id', id);
    const created = await w(request(t.http).post(`${ROOT}/payment-sources`), 'req-create')
      .send(source('HIST-1'))
      .expect(201);
    const id = created.body.id as string;
    await w(request(t.http).put(`${ROOT}/payment-sources/${id}`), 'req-put')
      .send({ ...source('HIST-1'), name: 'Renamed', description: 'd' })
      .expect(200);
    await w(request(t.http).patch(`${ROOT}/payment-sources/${id}`), 'req-patch')
      .send({ isActive: false })
      .expect(200);
    // Refused: a duplicate code, a stale If-Match.
    await w(request(t.http).post(`${ROOT}/payment-sources`), 'req-dup')
      .send(source('hist-1'))
      .expect(409);
    await w(request(t.http).patch(`${ROOT}/payment-sources/${id}`), 'req-stale')
      .set('If-Match', '"stale"')
      .send({ name: 'x' })
      .expect(412);
    await w(request(t.http).delete(`${ROOT}/payment-sources/${id}`), 'req-delete').expect(204);

    const all = await everything();
    expect(all).toHaveLength(before + 4);
    const history = await audit(`${ROOT}/payment-sources/${id}/history`).expect(200);
    const entries = history.body.value as [Record<string, Json>, Record<string, Json>, Record<string, Json>, Record<string, Json>];
    expect(entries.map((e) => [e.operation, e.requestId, e.userId, e.resource, e.recordId])).toEqual([
      ['created', 'req-create', WRITER_ID, 'payment-source', id],
      ['updated', 'req-put', WRITER_ID, 'payment-source', id],
      ['updated', 'req-patch', WRITER_ID, 'payment-source', id],
      ['deleted', 'req-delete', WRITER_ID, 'payment-source', id],
    ]);
    expect(entries[0].changes.code).toEqual({ old: null, new: 'HIST-1' });
    expect(entries[0].changes.createdAt).toEqual({ old: null, new: created.body.createdAt });
    expect(entries[0].changes).not.toHaveProperty('id');
    const put = entries[1].changes;
    expect(put.name).toEqual({ old: 'Source HIST-1', new: 'Renamed' });
    expect(put.description).toEqual({ old: null, new: 'd' });
    expect(put).not.toHaveProperty('code');
    expect(put.updatedById).toEqual({ old: null, new: WRITER_ID });
    expect(Object.keys(entries[2].changes).sort()).toEqual(['isActive', 'updatedAt']);
    expect(entries[2].changes.isActive).toEqual({ old: true, new: false });
    expect(entries[3].changes.name).toEqual({ old: 'Renamed', new: null });
    expect(entries[3].changes.isActive).toEqual({ old: false, new: null });
    expect(entries.every((e) => typeof e.seq === 'string' && /Z$/.test(e.occurredAt))).toBe(true);
    // Oldest first; a deleted record's history stays readable, an unknown id is 404, a bad one 400.
    await request(t.http).get(`${ROOT}/payment-sources/${id}`).set(bearer(t.tokens.writer)).expect(404);
    await audit(`${ROOT}/payment-sources/00000000-0000-4000-8000-00000000abcd/history`).expect(404);
    expect((await audit(`${ROOT}/payment-sources/nope/history`).expect(400)).body.code).toBe('VALIDATION_FAILED');
    // OData key syntax reaches the same history.
    expect((await audit(`${ROOT}/payment-sources(${id})/history?$orderby=occurredAt desc,id`).expect(200)).body.value).toHaveLength(4);
  });

  it('records a payment with its amount exact; a refused payment records nothing', async () => {
    const before = (await everything()).length;
    const customer = fixture.customers[0]!;
    const res = await request(t.http)
      .post(`${ROOT}/payments`)
      .set(bearer(t.tokens.writer))
      .set('Content-Type', 'application/json')
      .send(`{"customerId":"${customer.id}","amount":1234567890.1234,"receivedAt":"2026-03-01T10:00:00.000Z"}`)
      .expect(201);
    await request(t.http)
      .post(`${ROOT}/payments`)
      .set(bearer(t.tokens.writer))
      .send({ customerId: '00000000-0000-4000-8000-000000000999', amount: 1 })
      .expect(400);
    const all = await everything();
    expect(all).toHaveLength(before + 1);
    const history = await audit(`${ROOT}/payments/${res.body.id}/history`).expect(200);
    expect(history.text).toContain('"amount":{"old":null,"new":1234567890.1234}');
    expect(history.body.value[0].changes.receivedAt).toEqual({ old: null, new: '2026-03-01T10:00:00.000Z' });
    expect(history.body.value[0].changes.paymentSourceId.new).toBe(defaultSource().id);
  });

  it('records GraphQL mutations with the request id', async () => {
    const id = defaultSource().id;
    const res = await request(t.http)
      .post('/graphql')
      .set(bearer(t.tokens.writer))
      .set('X-Request-Id', 'gql-1')
      .send({ query: `mutation { updatePaymentSource(id: "${id}", input: { description: "via GraphQL" }) { id } }` })
      .expect(200);
    expect(res.body.errors).toBeUndefined();
    const history = await audit(`${ROOT}/payment-sources/${id}/history?$filter=requestId eq 'gql-1'`).expect(200);
    expect(history.body.value).toHaveLength(1);
    expect(history.body.value[0].changes.description.new).toBe('via GraphQL');
  });
});

describe('GET /changes', () => {
  it('has the list options: $filter on resource, recordId, operation, occurredAt, userId; $orderby, $top/$skip, $count, $select', async () => {
    const customers = await audit(
      `${ROOT}/changes?$filter=resource eq 'customer' and operation eq 'created' and userId eq 00000000-0000-0000-0000-000000000000&$count=true&$top=2`,
    ).expect(200);
    expect(customers.body['@odata.count']).toBe(fixture.customers.length);
    expect(customers.body.value).toHaveLength(2);
    const one = fixture.customers[1]!.id;
    const byRecord = await audit(
      `${ROOT}/changes?$filter=recordId eq ${one} and occurredAt lt 2999-01-01&$select=resource,operation`,
    ).expect(200);
    expect(byRecord.body.value).toEqual([{ resource: 'customer', operation: 'created' }]);
    const newest = await audit(`${ROOT}/changes?$orderby=occurredAt desc&$top=1&$skip=0`).set('OData-Version', '4.0').expect(200);
    expect(newest.body.value).toHaveLength(1);
    expect(newest.body['@odata.deltaLink']).toBeUndefined();
    expect((await audit(`${ROOT}/changes?$filter=nope eq 1`).expect(400)).body.code).toBe('INVALID_QUERY');
    expect((await audit(`${ROOT}/changes?$skiptoken=abc`).expect(400)).body.code).toBe('INVALID_QUERY');
    expect((await audit(`${ROOT}/changes?$orderby=occurredAt&$skiptoken=1`).expect(400)).body.code).toBe('INVALID_QUERY');
    // One entry by id (OData key syntax too), and the count.
    const entry = newest.body.value[0] as { id: string; seq: string; '@odata.etag': string };
    const byKey = await audit(`${ROOT}/changes(${entry.id})?$select=id`).set('OData-Version', '4.0').expect(200);
    expect(byKey.body).toEqual({ '@odata.etag': entry['@odata.etag'], id: entry.id });
    // A listed entry's @odata.etag is the ETag of its own GET.
    expect(byKey.headers.etag).toBe(entry['@odata.etag']);
    expect((await audit(`${ROOT}/changes/${entry.id}`).expect(200)).body.seq).toBe(entry.seq);
    await audit(`${ROOT}/changes/00000000-0000-4000-8000-00000000abcd`).expect(404);
    expect((await audit(`${ROOT}/changes/$count?$filter=resource eq 'customer'`).expect(200)).text).toBe(String(fixture.customers.length));
    await request(t.http).get(`${ROOT}/changes/$count`).set(bearer(t.tokens.writer)).expect(403);
    const metadata = await request(t.http).get(`${ROOT}/$metadata`).set(bearer(t.tokens.reader)).expect(200);
    expect(metadata.text).toContain('EntitySet Name="Changes"');
  });

  it('pages with $skiptoken, ends with a deltaLink that later gives only the newer entries, never one twice', async () => {
    const all = await everything();
    let res = await audit(`${ROOT}/changes?$filter=resource eq 'payment-source'`).expect(200);
    const seen = [...(res.body.value as Array<{ id: string }>)];
    while (res.body['@odata.nextLink']) {
      expect(res.body['@odata.nextLink']).toContain('skiptoken');
      res = await audit(relative(res.body['@odata.nextLink'] as string)).expect(200);
      seen.push(...(res.body.value as Array<{ id: string }>));
    }
    const delta = relative(res.body['@odata.deltaLink'] as string);
    expect(delta).toMatch(/%24deltatoken=\d+$/);
    expect(seen.map((e) => e.id)).toEqual(all.filter((e) => e.resource === 'payment-source').map((e) => e.id));

    // Nothing new yet: empty, and the same position again.
    const idle = await audit(delta).expect(200);
    expect(idle.body.value).toEqual([]);
    expect(relative(idle.body['@odata.deltaLink'] as string)).toBe(delta);

    await request(t.http).post(`${ROOT}/payment-sources`).set(bearer(t.tokens.writer)).send(source('DELTA-1')).expect(201);
    await request(t.http).post(`${ROOT}/payment-sources`).set(bearer(t.tokens.writer)).send(source('DELTA-2')).expect(201);
    const fresh = await audit(delta).expect(200);
    expect(fresh.body.value.map((e: { changes: { code: { new: string } } }) => e.changes.code.new)).toEqual(['DELTA-1', 'DELTA-2']);
    const after = await audit(relative(fresh.body['@odata.deltaLink'] as string)).expect(200);
    expect(after.body.value).toEqual([]);
  });
});
