// Real clients' batches and writes. (a) A $batch body recorded as SAPUI5's v4 ODataModel (UI5
// 1.120+) writes it (boundaries batch_id-…/changeset_id-…, headers without a space after the
// colon, Content-ID <request>.<change set>, relative URLs, a change set between two reads),
// replayed byte for byte. (b) @odata/client, unmodified, creating and updating records through
// the REST door, alone and in its $batch of both formats.

import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { OData } from '@odata/client';
import request from 'supertest';
import { bearer, createTestApp, token, WRITER_ID, type TestApp } from '../support/app';
import { readMultipart } from '../support/batch';
import { activeAssetAccount } from '../support/fixture';

const UI5_BATCH = fs.readFileSync(path.join(__dirname, '../fixtures/ui5/batch-request.http'));
const UI5_BOUNDARY = 'batch_id-1732704127358-41';
/** The account the recorded change set renames (6855 of the demo data). */
const RENAMED = '7d56c9e1-1143-47e3-9a10-6bdd1c72bc32';

let t: TestApp;
let tok: string;
let server: Server;
let root: string;

beforeAll(async () => {
  t = await createTestApp();
  tok = await token('billing.read billing.write billing.maintain', WRITER_ID);
  server = await new Promise<Server>((resolve) => {
    const s = t.http.listen(0, '127.0.0.1', () => resolve(s));
  });
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
  await t.close();
});

const text = (res: request.Response, done: (err: Error | null, body: string) => void) => {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (c: string) => (body += c));
  res.on('end', () => done(null, body));
};

describe('SAPUI5 v4 ODataModel $batch, recorded', () => {
  it('is answered part by part, the change set kept whole, the read after it seeing its write', async () => {
    const res = await request(t.http)
      .post('/api/v1/$batch')
      .set(bearer(tok))
      .set('Accept', 'multipart/mixed')
      .set('Content-Type', `multipart/mixed; boundary=${UI5_BOUNDARY}`)
      .set('OData-Version', '4.0')
      .set('OData-MaxVersion', '4.0')
      .set('Accept-Language', 'en-US')
      .buffer(true)
      .parse(text)
      .send(UI5_BATCH);
    expect(res.status).toBe(200);
    expect(res.headers['odata-version']).toBe('4.0');
    const parts = readMultipart(res.headers['content-type'] ?? '', res.body as string);
    expect(parts.map((p) => p.status || p.changeSet?.map((c) => [c.contentId, c.status]))).toEqual([
      200,
      [
        ['0.1', 201],
        ['1.1', 200],
      ],
      200,
    ]);
    const list = JSON.parse(parts[0]!.body) as { value: Array<{ code: string }> };
    expect(list.value.length).toBeGreaterThan(0);
    expect(list.value.some((s) => s.code === 'UI5-KARTE')).toBe(false);
    const [created] = parts[1]!.changeSet!;
    expect(JSON.parse(created!.body)).toMatchObject({ code: 'UI5-KARTE', sourceType: 'CreditCard', isDefault: false });
    expect(created!.headers.location).toMatch(/^\/api\/v1\/payment-sources\/[0-9a-f-]{36}$/);
    expect(JSON.parse(parts[2]!.body)).toMatchObject({ id: RENAMED, code: '6855', name: 'Nebenkosten des Geldverkehrs (UI5)' });
    expect(await t.db.prisma.paymentSource.count({ where: { code: 'UI5-KARTE' } })).toBe(1);
    expect((await t.db.prisma.account.findUniqueOrThrow({ where: { id: RENAMED } })).name).toBe('Nebenkosten des Geldverkehrs (UI5)');

    // Sent again, the change set's POST is refused (the code is taken): nothing of it is kept.
    const again = await request(t.http)
      .post('/api/v1/$batch')
      .set(bearer(tok))
      .set('Content-Type', `multipart/mixed; boundary=${UI5_BOUNDARY}`)
      .set('Prefer', 'odata.continue-on-error')
      .buffer(true)
      .parse(text)
      .send(UI5_BATCH);
    const second = readMultipart(again.headers['content-type'] ?? '', again.body as string);
    expect(second.map((p) => [p.contentId, p.status])).toEqual([
      [undefined, 200],
      ['0.1', 409],
      [undefined, 200],
    ]);
    expect(JSON.parse(second[1]!.body).code).toBe('DUPLICATE_CODE');
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
