// Real clients' batches and writes.
//
// (a) SAPUI5's v4 ODataModel. test/fixtures/ui5/batch-request.http is a recording, kept byte for
// byte: the $batch body UI5 1.152.0 (npm @openui5/sap.ui.core, unmodified) sent from headless
// Chromium for a create and a change in one change set, as test/browser/ui5.browser.ts drives
// it (it writes each run's body to test-artifacts/ui5-batch-request.http, which is where this
// copy came from, and checks that UI5 still sends the same). It was recorded on the demo data
// with ETags keyed by the test secret, as here, so its If-Match is the ETag this app computes
// for the record. What varies per run is kept as recorded: the boundaries (UI5's timestamp and
// counter), and the token UI5 copies from the model's httpHeaders into every part (expired by
// now; the service ignores a part's Authorization, the batch's own counts). UI5's closing line
// after the last boundary ("Group ID (API): edits") is its epilogue.
//
// (b) @odata/client, unmodified, creating and updating records through the REST door, alone
// and in its $batch of both formats.

import fs from 'node:fs';
import { OData } from '@odata/client';
import { listen } from '../support/live-app';
import request from 'supertest';
import { useSealingKey } from '../../src/domain/common/sealing';
import { bearer, createTestApp, TEST_SECRET, token, WRITER_ID, type TestApp } from '../support/app';
import { readMultipart } from '../support/batch';
import { activeAssetAccount } from '../support/fixture';
import { UI5_BATCH_HEADERS, UI5_CREATED, UI5_RECORDING, UI5_RENAMED } from '../support/ui5';

const UI5_BATCH = fs.readFileSync(UI5_RECORDING);
const UI5_BOUNDARY = /^--(batch_id-\d+-\d+)\r\n/.exec(UI5_BATCH.toString('utf8'))![1]!;
/** The If-Match UI5 sent with its change: the ETag of the record as the list gave it. */
const UI5_IF_MATCH = /\r\nIf-Match:("[^"\r]+")\r\n/.exec(UI5_BATCH.toString('utf8'))![1]!;
/** Whoever replays it: not the user of the token inside the recording, so the writes show whose token counted. */
const REPLAYER = '33333333-3333-4333-8333-333333333333';

let t: TestApp;
let tok: string;
let server: Awaited<ReturnType<typeof listen>>;
let root: string;

beforeAll(async () => {
  // As main.ts keys ETags with the HS256 secret, and as the recording's run did.
  useSealingKey(TEST_SECRET);
  t = await createTestApp();
  tok = await token('billing.read billing.write billing.maintain', WRITER_ID);
  server = await listen(t.app);
  root = `${server.base}/api/v1`;
});
afterAll(async () => {
  await server.close();
  await t.close();
});

const text = (res: request.Response, done: (err: Error | null, body: string) => void) => {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (c: string) => (body += c));
  res.on('end', () => done(null, body));
};

/** The recording sent as UI5 sent it, with a token of the replayer's. */
async function replayUi5(): Promise<request.Response> {
  return request(t.http)
    .post('/api/v1/$batch')
    .set(bearer(await token('billing.read billing.write', REPLAYER)))
    .set(UI5_BATCH_HEADERS)
    .set('Content-Type', `multipart/mixed; boundary=${UI5_BOUNDARY}`)
    .buffer(true)
    .parse(text)
    .send(UI5_BATCH);
}

describe('SAPUI5 v4 ODataModel $batch, recorded', () => {
  it('holds what UI5 read and changes: the record of the demo data, with its ETag', async () => {
    expect(UI5_BATCH.subarray(0, 2).toString()).toBe('--');
    expect(UI5_BATCH.toString('utf8')).toContain(`PATCH PaymentSources(${UI5_RENAMED.id}) HTTP/1.1\r\n`);
    const res = await request(t.http).get(`/api/v1/payment-sources/${UI5_RENAMED.id}`).set(bearer(tok)).expect(200);
    expect(res.body.code).toBe(UI5_RENAMED.code);
    expect(res.headers.etag).toBe(UI5_IF_MATCH);
  });

  it('is answered part by part with the Content-IDs UI5 gave, the change set kept whole', async () => {
    const res = await replayUi5();
    expect(res.status).toBe(200);
    expect(res.headers['odata-version']).toBe('4.0');
    const parts = readMultipart(res.headers['content-type'] ?? '', res.body as string);
    expect(parts.map((p) => p.status || p.changeSet?.map((c) => [c.contentId, c.status]))).toEqual([
      [
        ['0.0', 201],
        ['1.0', 200],
      ],
    ]);
    const [created, renamed] = parts[0]!.changeSet!;
    expect(JSON.parse(created!.body)).toMatchObject({
      '@odata.etag': created!.headers.etag,
      ...UI5_CREATED,
      accountId: activeAssetAccount().id,
      isActive: true,
      isDefault: false,
      createdById: REPLAYER,
    });
    expect(created!.headers.location).toMatch(/^\/api\/v1\/payment-sources\/[0-9a-f-]{36}$/);
    expect(JSON.parse(renamed!.body)).toMatchObject({ '@odata.etag': renamed!.headers.etag, ...UI5_RENAMED, updatedById: REPLAYER });
    expect(await t.db.prisma.paymentSource.findFirst({ where: { code: UI5_CREATED.code } })).toMatchObject({
      ...UI5_CREATED,
      createdById: REPLAYER,
    });
    expect(await t.db.prisma.paymentSource.findUniqueOrThrow({ where: { id: UI5_RENAMED.id } })).toMatchObject({
      name: UI5_RENAMED.name,
      updatedById: REPLAYER,
    });
  });

  it('sent again, its change set is refused at the POST (the code is taken), and nothing of it is kept', async () => {
    const before = await t.db.prisma.paymentSource.findUniqueOrThrow({ where: { id: UI5_RENAMED.id } });
    const again = await replayUi5();
    const parts = readMultipart(again.headers['content-type'] ?? '', again.body as string);
    // OData 4.0: a failed change set is answered by the one response of the request that failed.
    expect(parts.map((p) => [p.contentId, p.status])).toEqual([['0.0', 409]]);
    expect(JSON.parse(parts[0]!.body).error.code).toBe('DUPLICATE_CODE');
    expect(await t.db.prisma.paymentSource.count({ where: { code: UI5_CREATED.code } })).toBe(1);
    expect(await t.db.prisma.paymentSource.findUniqueOrThrow({ where: { id: UI5_RENAMED.id } })).toEqual(before);
  });

  it('once the record has changed, its If-Match is stale: 412, and the POST before it is not kept', async () => {
    const made = await t.db.prisma.paymentSource.findFirstOrThrow({ where: { code: UI5_CREATED.code } });
    await request(t.http).delete(`/api/v1/payment-sources/${made.id}`).set(bearer(tok)).expect(204);
    const res = await replayUi5();
    const parts = readMultipart(res.headers['content-type'] ?? '', res.body as string);
    expect(parts.map((p) => [p.contentId, p.status])).toEqual([['1.0', 412]]);
    expect(JSON.parse(parts[0]!.body).error.code).toBe('PRECONDITION_FAILED');
    expect(await t.db.prisma.paymentSource.count({ where: { code: UI5_CREATED.code } })).toBe(0);
  });
});

describe("SAPUI5's security-token fetch", () => {
  it('HEAD of the service root with X-CSRF-Token: Fetch is answered 200 without a token: bearer tokens need none', async () => {
    const res = await request(t.http).head('/api/v1/').set(bearer(tok)).set('X-CSRF-Token', 'Fetch').set(UI5_BATCH_HEADERS).expect(200);
    expect(res.headers['x-csrf-token']).toBeUndefined();
    expect(res.headers['odata-version']).toBe('4.0');
    expect(res.text ?? '').toBe('');
    // Without a token it is 401, as every request of the door (UI5 then goes on without a CSRF token).
    await request(t.http).head('/api/v1/').set('X-CSRF-Token', 'Fetch').expect(401);
  });

  it("a page on a development origin may send it and UI5's other headers: the preflight allows them", async () => {
    const res = await request(t.http)
      .options('/api/v1/')
      .set('Origin', 'http://127.0.0.1:8080')
      .set('Access-Control-Request-Method', 'HEAD')
      .set('Access-Control-Request-Headers', 'authorization,odata-maxversion,odata-version,x-csrf-token')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://127.0.0.1:8080');
    expect(res.headers['access-control-allow-methods']).toContain('HEAD');
    expect(res.headers['access-control-allow-headers']).toBe('authorization,odata-maxversion,odata-version,x-csrf-token');
  });
});

interface Account {
  id: string;
  code: string;
  name: string;
  type: string;
}

describe('@odata/client', () => {
  const client = () => OData.New4({ serviceEndpoint: `${root}/`, commonHeaders: { Authorization: `Bearer ${tok}` } });

  it('creates and updates a record through the REST door', async () => {
    const accounts = client().getEntitySet<Account>('accounts');
    const created = await accounts.create({ code: 'ODC-1', name: 'Created by @odata/client', type: 'Expense' });
    expect(created).toMatchObject({ code: 'ODC-1', name: 'Created by @odata/client', type: 'Expense' });
    await accounts.update(created.id, { name: 'Updated by @odata/client' });
    expect(await accounts.retrieve(created.id)).toMatchObject({ id: created.id, name: 'Updated by @odata/client' });
    const sources = client().getEntitySet<{ id: string; code: string; name: string }>('payment-sources');
    const source = await sources.create({
      code: 'ODC-S',
      name: 'Quelle',
      sourceType: 'Other',
      accountId: activeAssetAccount().id,
    } as never);
    await sources.update(source.id, { name: 'Quelle (geändert)' });
    expect((await t.db.prisma.paymentSource.findUniqueOrThrow({ where: { id: source.id } })).name).toBe('Quelle (geändert)');
  });

  it('creates and updates through its multipart $batch and its JSON $batch', async () => {
    const c = client();
    const created = await c.execBatchRequests([
      c.newBatchRequest({ collection: 'accounts', method: 'POST', entity: { code: 'ODC-B1', name: 'Batch one', type: 'Expense' } }),
      c.newBatchRequest({ collection: 'accounts', method: 'POST', entity: { code: 'ODC-B2', name: 'Batch two', type: 'Expense' } }),
    ]);
    expect(created.map((a) => a.status)).toEqual([201, 201]);
    const one = await t.db.prisma.account.findFirstOrThrow({ where: { code: 'ODC-B1' } });
    const updated = await c.execBatchRequestsJson([
      c.newBatchRequest({ collection: 'accounts', method: 'PATCH', id: one.id, entity: { name: 'Batch one, renamed' } }),
    ]);
    expect(updated.map((a) => a.status)).toEqual([200]);
    expect((await t.db.prisma.account.findUniqueOrThrow({ where: { id: one.id } })).name).toBe('Batch one, renamed');
  });
});
