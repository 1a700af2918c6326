// OData $batch at /api/v1/$batch: the multipart format of OData 4.0 (change sets) and the JSON
// format of OData 4.01 (atomicityGroup, dependsOn). A change set or atomicity group is one
// unit of work: all of its writes or none. Each request inside goes through the same routes,
// scope checks and error catalogue as when sent directly; the batch needs a token, and what is
// malformed or over a limit is refused before anything runs.

import request from 'supertest';
import { bearer, createTestApp, token, WRITER_ID, type TestApp } from '../support/app';
import { multipartBatch, readMultipart, type Part } from '../support/batch';
import { fixture } from '../support/fixture';

const BATCH = '/api/v1/$batch';
let t: TestApp;
let maintainer: string;

beforeAll(async () => {
  t = await createTestApp();
  maintainer = await token('billing.read billing.write billing.maintain billing.audit billing.pii', WRITER_ID);
});
afterAll(() => t.close());

const unique = () => Math.random().toString(36).slice(2, 8).toUpperCase();

async function snapshot(): Promise<string> {
  const p = t.db.prisma;
  const [accounts, sources, log] = await Promise.all([
    p.account.findMany({ orderBy: { id: 'asc' } }),
    p.paymentSource.findMany({ orderBy: { id: 'asc' } }),
    p.changeLog.count(),
  ]);
  return JSON.stringify({ accounts, sources, log });
}

/** POSTs a batch body; the answer as text, whatever its type. */
function post(contentType: string, body: string | Buffer, tok: string | null = maintainer, headers: Record<string, string> = {}) {
  let req = request(t.http).post(BATCH).set('Content-Type', contentType);
  if (tok !== null) req = req.set(bearer(tok));
  for (const [n, v] of Object.entries(headers)) req = req.set(n, v);
  return req
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => done(null, text));
    })
    .send(body);
}

async function multipart(
  items: ReadonlyArray<Part | readonly Part[]>,
  tok: string | null = maintainer,
  headers: Record<string, string> = {},
) {
  const { contentType, body } = multipartBatch(items);
  const res = await post(contentType, body, tok, headers);
  return { res, parts: res.status === 200 ? readMultipart(res.headers['content-type'] ?? '', res.body as string) : [] };
}

async function json(requests: unknown[], tok: string | null = maintainer, headers: Record<string, string> = {}) {
  const res = await post('application/json', JSON.stringify({ requests }), tok, headers);
  return {
    res,
    body: JSON.parse(res.body as string) as {
      responses: Array<{
        id: string;
        status: number;
        atomicityGroup?: string;
        headers: Record<string, string>;
        body?: { code?: string; id?: string; name?: string; code_?: string } & Record<string, unknown>;
      }>;
    },
  };
}

const account = (code: string, name = 'Batch') => ({ code, name, type: 'Expense' });

describe('multipart/mixed (OData 4.0)', () => {
  it('runs reads and a change set in order: $1 names what the first request created, reads see the writes before them', async () => {
    const code = `BM${unique()}`;
    const { res, parts } = await multipart([
      { method: 'GET', url: 'accounts?$top=1', headers: { Accept: 'application/json' } },
      [
        { method: 'POST', url: 'accounts', body: account(code), contentId: '1' },
        { method: 'PATCH', url: '$1', body: { name: 'Renamed in the change set' }, contentId: '2' },
      ],
      { method: 'GET', url: `accounts?$filter=code eq '${code}'`.replace(/ /g, '%20') },
    ]);
    expect(res.status).toBe(200);
    // Nothing after the boundary: clients read it as the last parameter.
    expect(res.headers['content-type']).toMatch(/^multipart\/mixed; boundary=batchresponse_[0-9a-f-]+$/);
    expect(parts[0]!.status).toBe(200);
    const [created, patched] = parts[1]!.changeSet!;
    expect([created!.contentId, created!.status, patched!.contentId, patched!.status]).toEqual(['1', 201, '2', 200]);
    expect(created!.headers.location).toMatch(/^\/api\/v1\/accounts\/[0-9a-f-]{36}$/);
    expect(created!.headers.etag).toBeDefined();
    expect(JSON.parse(patched!.body).name).toBe('Renamed in the change set');
    expect(JSON.parse(parts[2]!.body).value.map((a: { name: string }) => a.name)).toEqual(['Renamed in the change set']);
    const row = await t.db.prisma.account.findFirstOrThrow({ where: { code } });
    expect(row.name).toBe('Renamed in the change set');
    const log = await t.db.prisma.changeLog.findMany({ where: { recordId: row.id }, orderBy: { seq: 'asc' } });
    expect(log.map((e) => [e.operation, e.requestId?.endsWith('.2') || e.requestId?.endsWith('.3')])).toEqual([
      ['created', true],
      ['updated', true],
    ]);
  });

  it('a change set whose second write fails keeps nothing and is answered by that failure alone', async () => {
    const code = `BF${unique()}`;
    const before = await snapshot();
    const { res, parts } = await multipart([
      [
        { method: 'POST', url: 'accounts', body: account(code), contentId: '1' },
        { method: 'POST', url: 'accounts', body: account(code.toLowerCase()), contentId: '2' },
      ],
    ]);
    expect(res.status).toBe(200);
    expect(parts).toHaveLength(1);
    expect(parts[0]!.changeSet).toBeUndefined();
    expect([parts[0]!.contentId, parts[0]!.status, JSON.parse(parts[0]!.body).code]).toEqual(['2', 409, 'DUPLICATE_CODE']);
    expect(await snapshot()).toBe(before);
  });

  it('stops at the first failure unless Prefer: odata.continue-on-error', async () => {
    const missing = '/api/v1/accounts/00000000-0000-4000-8000-000000000000';
    const items: Part[] = [
      { method: 'GET', url: missing },
      { method: 'GET', url: 'accounts?$top=1' },
    ];
    const stopped = await multipart(items);
    expect(stopped.parts.map((p) => p.status)).toEqual([404]);
    const going = await multipart(items, maintainer, { Prefer: 'odata.continue-on-error' });
    expect(going.parts.map((p) => p.status)).toEqual([404, 200]);
    expect(going.res.headers['preference-applied']).toBe('odata.continue-on-error');
  });

  it('answers each request as it would be answered directly: the scope, the body, the route', async () => {
    const readerOnly = await token('billing.read', WRITER_ID);
    const code = `BS${unique()}`;
    const requests: Part[] = [
      { method: 'GET', url: 'accounts?$top=1' },
      { method: 'POST', url: 'accounts', body: account(code) },
      { method: 'POST', url: 'accounts', body: '{"code": ' },
      { method: 'DELETE', url: 'quotes' },
      { method: 'PUT', url: 'changes' },
    ];
    const { parts } = await multipart(requests, readerOnly, { Prefer: 'odata.continue-on-error' });
    const answered = parts.map((p) => [p.status, p.status === 200 ? undefined : JSON.parse(p.body).code]);
    const direct = await Promise.all(
      requests.map(async (r) => {
        const req = request(t.http)[r.method.toLowerCase() as 'get'](`/api/v1/${r.url}`).set(bearer(readerOnly));
        const res = await (r.body === undefined ? req : req.set('Content-Type', 'application/json').send(r.body as string));
        return [res.status, res.status === 200 ? undefined : res.body.code];
      }),
    );
    expect(answered).toEqual(direct);
    expect(answered.map(([status]) => status)).toEqual([200, 403, 400, 404, 404]);
    expect(await t.db.prisma.account.count({ where: { code } })).toBe(0);
  });
});

describe('JSON batch (OData 4.01)', () => {
  it('runs an atomicity group with dependsOn and $id references, and reads after it', async () => {
    const code = `BJ${unique()}`;
    const { res, body } = await json([
      { id: 'a', atomicityGroup: 'g', method: 'post', url: 'accounts', body: account(code) },
      { id: 'b', atomicityGroup: 'g', dependsOn: ['a'], method: 'patch', url: '$a', body: { name: 'Named by b' } },
      { id: 'c', dependsOn: ['g'], method: 'get', url: `accounts?$filter=code%20eq%20'${code}'&$select=name` },
    ]);
    expect(res.status).toBe(200);
    expect(res.headers['odata-version']).toBe('4.01');
    expect(body.responses.map((r) => [r.id, r.status, r.atomicityGroup])).toEqual([
      ['a', 201, 'g'],
      ['b', 200, 'g'],
      ['c', 200, undefined],
    ]);
    expect(body.responses[0]!.headers.location).toMatch(/^\/api\/v1\/accounts\//);
    const direct = await request(t.http).get(`/api/v1/accounts?$filter=code%20eq%20'${code}'&$select=name`).set(bearer(maintainer));
    // The same answer, its links on the batch's host (supertest listens on a new port per request).
    const samePort = (v: unknown) => JSON.parse(JSON.stringify(v).replace(/127\.0\.0\.1:\d+/g, 'host'));
    expect(samePort(body.responses[2]!.body)).toEqual(samePort(direct.body));
    expect(direct.body.value).toEqual([{ name: 'Named by b' }]);
  });

  it('a failing group keeps nothing: the failure as it is, the writes before it ROLLED_BACK, those after not run; dependants FAILED_DEPENDENCY', async () => {
    const code = `BG${unique()}`;
    const before = await snapshot();
    const { res, body } = await json(
      [
        { id: '1', atomicityGroup: 'g', method: 'post', url: 'accounts', body: account(code) },
        { id: '2', atomicityGroup: 'g', method: 'post', url: 'accounts', body: account(fixture.accounts[0]!.code) },
        { id: '3', atomicityGroup: 'g', method: 'post', url: 'accounts', body: account(`${code}X`) },
        { id: '4', dependsOn: ['g'], method: 'get', url: 'accounts?$top=1' },
        { id: '5', method: 'get', url: 'accounts?$top=1' },
      ],
      maintainer,
      { Prefer: 'continue-on-error' },
    );
    expect(res.status).toBe(200);
    expect(body.responses.map((r) => [r.id, r.status, r.body?.code])).toEqual([
      ['1', 424, 'ROLLED_BACK'],
      ['2', 409, 'DUPLICATE_CODE'],
      ['3', 424, 'FAILED_DEPENDENCY'],
      ['4', 424, 'FAILED_DEPENDENCY'],
      ['5', 200, undefined],
    ]);
    // The answers of requests not kept or not run name their path, as the app's own errors do.
    expect([body.responses[0]!.body?.instance, body.responses[2]!.body?.instance]).toEqual(['/api/v1/accounts', '/api/v1/accounts']);
    expect(await snapshot()).toBe(before);
  });

  it('answers decimals exactly, as the app wrote them', async () => {
    const res = await post(
      'application/json',
      JSON.stringify({
        requests: [
          { id: 'p', method: 'post', url: 'payments', body: { customerId: fixture.customers[0]!.id, amount: '123456789012345.6789' } },
        ],
      }),
    );
    expect(res.status).toBe(200);
    // 123456789012345.6789 has no binary float: only the app's own text keeps it.
    expect(res.body as string).toContain('"amount":123456789012345.6789');
  });
});

describe('refused before anything runs', () => {
  const firstCode = () => `BR${unique()}`;

  it('needs a token (401), takes only POST (405)', async () => {
    const { res } = await multipart([{ method: 'GET', url: 'accounts' }], null);
    expect([res.status, JSON.parse(res.body as string).code]).toEqual([401, 'UNAUTHENTICATED']);
    const get = await request(t.http).get(BATCH).set(bearer(maintainer));
    expect([get.status, get.body.code, get.headers.allow]).toEqual([405, 'METHOD_NOT_ALLOWED', 'POST']);
  });

  it.each([
    [
      'a part that is no HTTP request',
      (c: string) =>
        multipartBatch([{ method: 'POST', url: 'accounts', body: account(c) }]).body.replace('POST accounts HTTP/1.1', 'POST accounts'),
    ],
    [
      'a GET inside a change set',
      (c: string) =>
        multipartBatch([
          [
            { method: 'POST', url: 'accounts', body: account(c) },
            { method: 'GET', url: 'accounts' },
          ],
        ]).body,
    ],
    [
      'a batch inside the batch',
      (c: string) =>
        multipartBatch([
          { method: 'POST', url: 'accounts', body: account(c) },
          { method: 'POST', url: '$batch' },
        ]).body,
    ],
    [
      'a URL outside the API',
      (c: string) =>
        multipartBatch([
          { method: 'POST', url: 'accounts', body: account(c) },
          { method: 'GET', url: '/healthz' },
        ]).body,
    ],
    [
      'a URL that leads out of the API',
      (c: string) =>
        multipartBatch([
          { method: 'POST', url: 'accounts', body: account(c) },
          { method: 'GET', url: '../../healthz' },
        ]).body,
    ],
    [
      'an unknown $ reference',
      (c: string) =>
        multipartBatch([{ method: 'POST', url: 'accounts', body: account(c) }, [{ method: 'PATCH', url: '$9', body: {} }]]).body,
    ],
    [
      'an unterminated body',
      (c: string) => multipartBatch([{ method: 'POST', url: 'accounts', body: account(c) }]).body.replace('--batch_test--\r\n', ''),
    ],
  ])('%s: 400 INVALID_BATCH', async (_what, build) => {
    const code = firstCode();
    const before = await snapshot();
    const res = await post('multipart/mixed; boundary=batch_test', build(code));
    expect([res.status, JSON.parse(res.body as string).code]).toEqual([400, 'INVALID_BATCH']);
    expect(await snapshot()).toBe(before);
  });

  it('JSON: bad members, dependsOn forward, groups not adjacent: 400 INVALID_BATCH', async () => {
    for (const requests of [
      [
        { id: '1', method: 'post', url: 'accounts', body: account(firstCode()) },
        { id: '2', method: 'fetch', url: 'accounts' },
      ],
      [
        { id: '1', dependsOn: ['2'], method: 'get', url: 'accounts' },
        { id: '2', method: 'get', url: 'accounts' },
      ],
      [
        { id: '1', atomicityGroup: 'g', method: 'post', url: 'accounts', body: account(firstCode()) },
        { id: '2', method: 'get', url: 'accounts' },
        { id: '3', atomicityGroup: 'g', method: 'post', url: 'accounts', body: account(firstCode()) },
      ],
      [
        { id: '1', method: 'post', url: 'accounts', body: account(firstCode()) },
        { id: '2', method: 'patch', url: '$1', body: {} },
      ],
    ]) {
      const before = await snapshot();
      const { res, body } = await json(requests).catch(() => ({ res: undefined, body: undefined }));
      expect(res?.status).toBe(400);
      expect((body as unknown as { code: string }).code).toBe('INVALID_BATCH');
      expect(await snapshot()).toBe(before);
    }
  });

  it('more than 100 requests: 400 BATCH_TOO_LARGE; a body over 1 MiB: 413 PAYLOAD_TOO_LARGE', async () => {
    const before = await snapshot();
    const many = Array.from({ length: 101 }, (_, i) => ({ id: String(i), method: 'post', url: 'accounts', body: account(firstCode()) }));
    const { res, body } = await json(many);
    expect([res.status, (body as unknown as { code: string }).code]).toEqual([400, 'BATCH_TOO_LARGE']);
    const big = multipartBatch([{ method: 'POST', url: 'accounts', body: { ...account(firstCode()), name: 'x'.repeat(1024 * 1024) } }]);
    const large = await post(big.contentType, big.body);
    expect([large.status, JSON.parse(large.body as string).code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(await snapshot()).toBe(before);
  });
});

describe('what the descriptions say', () => {
  it('$metadata declares batch support on the container (Capabilities.BatchSupported, BatchSupport), XML and JSON alike', async () => {
    const res = await request(t.http).get('/api/v1/$metadata?$format=json').set(bearer(maintainer)).expect(200);
    const all: Record<string, Record<string, unknown>> = res.body.Billing.$Annotations;
    const container = all[res.body.$EntityContainer as string];
    expect(container?.['@Capabilities.BatchSupported']).toBe(true);
    expect(container?.['@Capabilities.BatchSupport']).toMatchObject({
      Supported: true,
      ContinueOnErrorSupported: true,
      SupportedFormats: ['multipart/mixed', 'application/json'],
    });
    const xml = await request(t.http).get('/api/v1/$metadata').set(bearer(maintainer)).expect(200);
    expect(xml.text).toMatch(/<Annotation Term="Capabilities.BatchSupported" Bool="true"\/>/);
  });

  it('the OpenAPI document has POST /$batch with both formats', async () => {
    const doc = (await request(t.http).get('/api/v1/openapi.json').expect(200)).body;
    expect(Object.keys(doc.paths['/$batch'])).toEqual(['post']);
    expect(Object.keys(doc.paths['/$batch'].post.requestBody.content)).toEqual(['multipart/mixed', 'application/json']);
  });
});
