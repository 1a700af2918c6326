// The OData interoperability surface of the REST door, over HTTP: service document,
// $metadata (checked with SAP's CSDL parser and OASIS's CSDL converter), OData-Version,
// @odata.context, keys in parentheses, /$count, PATCH, $expand and OData JSON errors.
import { parse as parseEdmx } from '@sap-ux/edmx-parser';
import { xml2json } from 'odata-csdl';
import request from 'supertest';
import { articleFields } from '../../../src/domain/article/fields';
import { paymentSourceFields } from '../../../src/domain/payment-source/fields';
import { ALL_RESOURCES } from '../../../src/domain/resources';
import { ALL_ENTITY_SETS, RESOURCE_SETS } from '../../../src/rest/odata/model';
import { createTestApp, type TestApp, bearer, token } from '../../support/app';
import { activeAssetAccount, fixture } from '../../support/fixture';

const ROOT = '/api/v1';
const BASE = `${ROOT}/payment-sources`;
let t: TestApp;
// As an OData client asks (OData-Version): records carry their control information (@odata.etag).
const get = (path: string) => request(t.http).get(path).set(bearer(t.tokens.writer)).set('OData-Version', '4.0');
const enc = encodeURIComponent;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

// The part of @sap-ux/edmx-parser's result the tests read (its type package is not a dependency of it).
interface Named {
  readonly name: string;
}
interface ParsedMetadata {
  readonly version: string;
  readonly schema: {
    readonly entitySets: readonly Named[];
    readonly entityTypes: readonly (Named & {
      readonly keys: readonly Named[];
      readonly entityProperties: readonly (Named & { readonly type: string; readonly nullable?: boolean })[];
      readonly navigationProperties: readonly (Named & { readonly isCollection: boolean; readonly targetTypeName: string })[];
    })[];
    readonly annotations: { readonly serviceFile?: readonly { readonly target: string }[] };
  };
}

// The resources' sets in the order of their folders (src/domain), then the change log.
const SETS = [...ALL_RESOURCES.flatMap((r) => (r.entitySet ? [r.entitySet.name] : [])), 'Changes'];

describe('service document and metadata', () => {
  test('GET /api/v1/ lists every entity set with its URL', async () => {
    const res = await get(`${ROOT}/`).expect(200);
    expect(res.headers['odata-version']).toBe('4.0');
    expect(res.body['@odata.context']).toMatch(/\/api\/v1\/\$metadata$/);
    expect(res.body.value.map((s: { name: string }) => s.name)).toEqual(SETS);
    expect(res.body.value).toContainEqual({ name: 'PaymentSources', kind: 'EntitySet', url: 'payment-sources' });
    // Every URL of the service document answers a list.
    // The change log needs the scope billing.audit.
    for (const s of res.body.value as { url: string }[])
      await request(t.http)
        .get(`${ROOT}/${s.url}?$top=1`)
        .set({ Authorization: `Bearer ${s.url === 'changes' ? t.tokens.auditor : t.tokens.writer}` })
        .expect(200);
  });

  test('$metadata is CSDL XML that SAP’s parser reads: sets, keys, types, nullability, relations, allowed values', async () => {
    const res = await get(`${ROOT}/$metadata`).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    const md: ParsedMetadata = parseEdmx(res.text);
    expect(md.version).toBe('4.0');
    expect(md.schema.entitySets.map((s) => s.name)).toEqual(SETS);
    const ps = md.schema.entityTypes.find((e) => e.name === 'PaymentSource')!;
    expect(ps.keys.map((k) => k.name)).toEqual(['id']);
    expect(ps.entityProperties.map((p) => p.name)).toEqual(Object.keys(paymentSourceFields));
    const prop = (name: string) => ps.entityProperties.find((p) => p.name === name)!;
    expect([prop('id').type, prop('id').nullable]).toEqual(['Edm.Guid', false]);
    expect([prop('description').type, prop('description').nullable]).toEqual(['Edm.String', true]);
    expect(prop('createdAt').type).toBe('Edm.DateTimeOffset');
    expect(ps.navigationProperties).toEqual([
      expect.objectContaining({ name: 'account', targetTypeName: 'Billing.Account', isCollection: false }),
    ]);
    const article = md.schema.entityTypes.find((e) => e.name === 'Article')!;
    expect(article.entityProperties.map((p) => p.name)).toEqual(Object.keys(articleFields));
    expect(article.navigationProperties.map((n) => [n.name, n.isCollection])).toEqual([
      ['prices', true],
      ['defaultTaxCode', false],
    ]);
    const allowed = md.schema.annotations.serviceFile?.find((a) => a.target === 'Billing.TaxCode/taxType');
    expect(JSON.stringify(allowed)).toContain('Sales Tax');
  });

  test('every entity set in the metadata has exactly its catalogue: fields, nullability, relations', async () => {
    const md: ParsedMetadata = parseEdmx((await get(`${ROOT}/$metadata`).expect(200)).text);
    for (const set of ALL_ENTITY_SETS) {
      const type = md.schema.entityTypes.find((e) => e.name === set.type)!;
      expect(type.entityProperties.map((p) => [p.name, p.nullable ?? false])).toEqual(
        Object.entries(set.fields).map(([name, spec]) => [name, spec.nullable]),
      );
      expect(type.navigationProperties.map((n) => [n.name, n.isCollection, n.targetTypeName])).toEqual(
        Object.entries(set.relations).map(([name, r]) => [name, r.many, `Billing.${r.type}`]),
      );
    }
  });

  test('$metadata as JSON ($format=json or Accept) is the CSDL JSON OASIS’s converter makes of the XML', async () => {
    const xml = (await get(`${ROOT}/$metadata`).expect(200)).text;
    const converted = xml2json(xml, { strict: true });
    const byFormat = await get(`${ROOT}/$metadata?$format=json`).expect(200);
    expect(byFormat.headers['content-type']).toMatch(/^application\/json/);
    expect(byFormat.body).toEqual(converted);
    const byAccept = await get(`${ROOT}/$metadata`).set('Accept', 'application/json').expect(200);
    expect(byAccept.body).toEqual(converted);
    await get(`${ROOT}/$metadata?$format=atom`).expect(400);
  });
});

describe('lists and records', () => {
  test('lists carry OData-Version and @odata.context (with the $select list)', async () => {
    const res = await get(`${BASE}?$select=code,name`).expect(200);
    expect(res.headers['odata-version']).toBe('4.0');
    expect(res.body['@odata.context']).toMatch(/\/api\/v1\/\$metadata#PaymentSources\(code,name\)$/);
  });

  test.each([
    (id: string) => `${BASE}(${id})`,
    (id: string) => `${BASE}('${id}')`,
    (id: string) => `${BASE}(%27${id}%27)`,
    (id: string) => `${BASE}(id=${id})`,
    (id: string) => `${ROOT}/PaymentSources(${id})`,
  ])('a key in parentheses addresses one record: %#', async (url) => {
    const s = fixture.paymentSources[0]!;
    const plain = await get(`${BASE}/${s.id}`).expect(200);
    const keyed = await get(url(s.id)).expect(200);
    expect(keyed.body).toEqual(plain.body);
    expect(keyed.headers.etag).toBe(plain.headers.etag);
  });

  test('an unknown key in parentheses is 404, a malformed one 400', async () => {
    await get(`${BASE}(5d6c7b8a-0000-4000-8000-000000000000)`).expect(404);
    await get(`${BASE}('nope')`).expect(400);
  });

  test('/<set>/$count answers the plain count, with $filter', async () => {
    const all = await get(`${BASE}/$count`).expect(200);
    expect(all.headers['content-type']).toMatch(/^text\/plain/);
    expect(all.text).toBe(String(fixture.paymentSources.length));
    const active = await get(`${ROOT}/PaymentSources/$count?$filter=${enc('isActive eq true')}`).expect(200);
    expect(active.text).toBe(String(fixture.paymentSources.filter((s) => s.isActive).length));
    await get(`${BASE}/$count?$filter=bogus`).expect(400);
    await get(`${BASE}/$count?$top=1`).expect(400);
  });
});

describe('PATCH /payment-sources/{id}', () => {
  const create = async (over: Record<string, unknown> = {}) =>
    (
      await request(t.http)
        .post(BASE)
        .set(bearer(t.tokens.writer))
        .send({
          code: `P-${Math.random().toString(36).slice(2, 9)}`,
          name: 'Patch me',
          description: 'keep',
          accountId: activeAssetAccount().id,
          sourceType: 'Cash',
          ...over,
        })
        .expect(201)
    ).body;

  test('changes only the named fields and writes the audit fields, as PUT does', async () => {
    const before = await create();
    const res = await request(t.http)
      .patch(`${BASE}(${before.id})`)
      .set(bearer(t.tokens.writer))
      .set('OData-Version', '4.0')
      .send({ name: 'Patched' })
      .expect(200);
    expect(res.body).toMatchObject({
      ...before,
      '@odata.etag': res.headers.etag,
      name: 'Patched',
      updatedById: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.body.description).toBe('keep');
    const again = await get(`${BASE}/${before.id}`).expect(200);
    expect(again.body).toEqual(res.body);
    expect(again.headers.etag).toBe(res.headers.etag);
    // null clears a nullable field.
    const cleared = await request(t.http)
      .patch(`${BASE}/${before.id}`)
      .set(bearer(t.tokens.writer))
      .send({ description: null })
      .expect(200);
    expect(cleared.body.description).toBeNull();
  });

  test('honours If-Match, keeps the rules, refuses unknown fields, and prefers minimal on request', async () => {
    const s = await create();
    const current = await get(`${BASE}/${s.id}`).expect(200);
    await request(t.http).patch(`${BASE}/${s.id}`).set(bearer(t.tokens.writer)).set('If-Match', '"stale"').send({ name: 'x' }).expect(412);
    const ok = await request(t.http)
      .patch(`${BASE}/${s.id}`)
      .set(bearer(t.tokens.writer))
      .set('If-Match', current.headers.etag!)
      .send({ name: 'y' })
      .expect(200);
    expect(ok.body.name).toBe('y');
    const dup = await request(t.http)
      .patch(`${BASE}/${s.id}`)
      .set(bearer(t.tokens.writer))
      .send({ code: fixture.paymentSources[0]!.code.toLowerCase() })
      .expect(409);
    expect(dup.body.code).toBe('DUPLICATE_CODE');
    await request(t.http).patch(`${BASE}/${s.id}`).set(bearer(t.tokens.writer)).send({ createdAt: '2020-01-01T00:00:00Z' }).expect(400);
    await request(t.http).patch(`${BASE}/${s.id}`).set(bearer(t.tokens.writer)).send({ isActive: 'yes' }).expect(400);
    const minimal = await request(t.http)
      .patch(`${BASE}/${s.id}`)
      .set(bearer(t.tokens.writer))
      .set('Prefer', 'return=minimal')
      .send({ name: 'z' })
      .expect(204);
    expect(minimal.headers.etag).toBe((await get(`${BASE}/${s.id}`)).headers.etag);
    await request(t.http)
      .patch(`${BASE}/5d6c7b8a-0000-4000-8000-000000000000`)
      .set(bearer(t.tokens.writer))
      .send({ name: 'n' })
      .expect(404);
    await request(t.http).patch(`${BASE}/${s.id}`).set(bearer(t.tokens.reader)).send({ name: 'n' }).expect(403);
  });
});

// OData JSON 4.0 (3.1.1): a response with odata.metadata=minimal, the default, carries each
// entity's ETag as @odata.etag. Clients that edit records read in a list (SAPUI5's v4
// ODataModel) send it back as If-Match; without it they would write unconditionally.
describe('@odata.etag', () => {
  beforeAll(async () => {
    // The demo data has no payments.
    const source = fixture.paymentSources.find((p) => p.isActive)!;
    const payment = { paymentSourceId: source.id, customerId: fixture.customers[0]!.id, amount: 12.5 };
    await request(t.http).post(`${ROOT}/payments`).set(bearer(t.tokens.writer)).send(payment).expect(201);
  });

  test.each(RESOURCE_SETS.map((s) => s.path))(
    '%s: each listed record carries the ETag of its own GET, whatever $select or $expand shape',
    async (path) => {
      const set = RESOURCE_SETS.find((s) => s.path === path)!;
      const etagsOf = async (query: string) =>
        (await get(`${ROOT}/${path}?$top=5&$orderby=id${query}`).expect(200)).body.value.map(
          (r: Record<string, string>) => r['@odata.etag'],
        );
      const list = await get(`${ROOT}/${path}?$top=5&$orderby=id`).expect(200);
      expect(list.body.value.length).toBeGreaterThan(0);
      const etags = list.body.value.map((r: Record<string, string>) => r['@odata.etag']);
      expect(await etagsOf('&$select=id')).toEqual(etags);
      for (const relation of Object.keys(set.relations)) expect(await etagsOf(`&$expand=${relation}`)).toEqual(etags);
      for (const r of list.body.value as Array<{ id: string; '@odata.etag': string }>) {
        const one = await get(`${ROOT}/${path}/${r.id}`).expect(200);
        expect(r['@odata.etag']).toBe(one.headers.etag);
        expect(Object.keys(one.body)[0]).toBe('@odata.etag');
        expect(one.body['@odata.etag']).toBe(one.headers.etag);
        for (const relation of Object.keys(set.relations)) {
          const expanded = await get(`${ROOT}/${path}/${r.id}?$expand=${relation}`).expect(200);
          expect([relation, expanded.headers.etag, expanded.body['@odata.etag']]).toEqual([relation, one.headers.etag, one.headers.etag]);
        }
      }
    },
  );

  test('customers hold their addresses: an $expand that shapes them leaves the ETag the record’s, which a write accepts', async () => {
    const c = fixture.customers[0]!;
    const shaped = `$expand=${enc('addresses($select=city)')}`;
    const [listed] = (await get(`${ROOT}/customers?$filter=${enc(`id eq ${c.id}`)}&${shaped}`).expect(200)).body.value;
    const one = await get(`${ROOT}/customers/${c.id}?${shaped}`).expect(200);
    expect(Object.keys(listed.addresses[0])).toEqual(['city']);
    const plain = await get(`${ROOT}/customers/${c.id}`).expect(200);
    expect([listed['@odata.etag'], one.headers.etag, one.body['@odata.etag']]).toEqual(Array(3).fill(plain.headers.etag));
    const maintainer = await token('billing.read billing.maintain billing.pii');
    await request(t.http)
      .patch(`${ROOT}/customers/${c.id}`)
      .set(bearer(maintainer))
      .set('If-Match', listed['@odata.etag'])
      .send({ firstName: 'Changed with the listed ETag' })
      .expect(200);
  });

  test('sent back as If-Match it lets one write through; the answer carries the new ETag, and the old one is 412', async () => {
    const [listed] = (await get(`${BASE}?$select=code&$orderby=code&$top=1`).expect(200)).body.value;
    const id = (await t.db.prisma.paymentSource.findFirstOrThrow({ where: { code: listed.code } })).id;
    const patched = await request(t.http)
      .patch(`${BASE}(${id})`)
      .set(bearer(t.tokens.writer))
      .set('OData-Version', '4.0')
      .set('If-Match', listed['@odata.etag'])
      .send({ name: 'Changed with the listed ETag' })
      .expect(200);
    expect(patched.body['@odata.etag']).toBe(patched.headers.etag);
    expect(patched.body['@odata.etag']).not.toBe(listed['@odata.etag']);
    expect((await get(`${BASE}/${id}`)).headers.etag).toBe(patched.headers.etag);
    const stale = await request(t.http)
      .patch(`${BASE}(${id})`)
      .set(bearer(t.tokens.writer))
      .set('OData-Version', '4.0')
      .set('If-Match', listed['@odata.etag'])
      .send({ name: 'Lost update' })
      .expect(412);
    expect(stale.body.code).toBe('PRECONDITION_FAILED');
    const created = await request(t.http)
      .post(BASE)
      .set(bearer(t.tokens.writer))
      .set('OData-Version', '4.0')
      .send({ code: 'ETAG-1', name: 'New', accountId: activeAssetAccount().id, sourceType: 'Cash' })
      .expect(201);
    expect(created.body['@odata.etag']).toBe(created.headers.etag);
    expect(created.body['@odata.etag']).toBe((await get(`${BASE}/${created.body.id}`)).headers.etag);
  });
});

describe('$expand', () => {
  test('account on payment sources, in lists and records, with nested $select', async () => {
    const list = await get(`${BASE}?$expand=account&$orderby=code`).expect(200);
    for (const s of list.body.value) {
      const account = fixture.accounts.find((a) => a.id === s.accountId)!;
      expect(s.account).toMatchObject({ id: account.id, code: account.code, type: account.type });
    }
    const s = fixture.paymentSources[0]!;
    const one = await get(`${BASE}/${s.id}?$select=code&$expand=${enc('account($select=code,name)')}`).expect(200);
    const account = fixture.accounts.find((a) => a.id === s.accountId)!;
    expect(one.body).toEqual({ '@odata.etag': one.headers.etag, code: s.code, account: { code: account.code, name: account.name } });
    // The ETag is the record's, whatever was expanded or selected.
    expect(one.headers.etag).toBe((await get(`${BASE}/${s.id}`)).headers.etag);
  });

  test('prices on articles with nested $orderby and $top; defaultTaxCode; addresses on customers', async () => {
    const res = await get(
      `${ROOT}/articles?expand=${enc('prices($orderby=validFrom;$top=1;$select=amount,validFrom),defaultTaxCode')}`,
    ).expect(200);
    for (const a of res.body.value) {
      const prices = fixture.articlePrices.filter((p) => p.articleId === a.id).sort((x, y) => x.validFrom.localeCompare(y.validFrom));
      expect(a.prices).toHaveLength(Math.min(1, prices.length));
      if (prices.length) expect(Date.parse(a.prices[0].validFrom)).toBe(Date.parse(prices[0]!.validFrom));
      expect(Object.keys(a.prices[0] ?? { amount: 0, validFrom: 0 }).sort()).toEqual(['amount', 'validFrom']);
      expect(a.defaultTaxCode?.id ?? null).toBe(a.defaultTaxCodeId);
    }
    const customers = await get(`${ROOT}/customers?$top=5&$expand=${enc('addresses($top=1)')}`).expect(200);
    for (const c of customers.body.value) expect(c.addresses.length).toBeLessThanOrEqual(1);
  });

  test('payments expand paymentSource and customer', async () => {
    const c = fixture.customers[0]!;
    await request(t.http).post(`${ROOT}/payments`).set(bearer(t.tokens.writer)).send({ customerId: c.id, amount: 12.5 }).expect(201);
    const res = await get(`${ROOT}/payments?$expand=paymentSource,customer`).expect(200);
    expect(res.body.value.length).toBeGreaterThan(0);
    for (const p of res.body.value) {
      expect(p.paymentSource.id).toBe(p.paymentSourceId);
      expect(p.customer.id).toBe(p.customerId);
    }
  });

  test.each([
    ['an unknown relation', 'bogus'],
    ['a relation twice', 'account,account'],
    ['$top on a single record relation', 'account($top=1)'],
    ['an unknown field inside', 'account($select=nope)'],
    ['nested $expand', 'account($expand=x)'],
    ['unbalanced parentheses', 'account($select=code'],
  ])('%s is 400', async (_what, expand) => {
    const res = await get(`${BASE}?$expand=${enc(expand)}`).expect(400);
    expect(res.body.code).toBe('INVALID_QUERY');
  });
});

describe('error bodies follow Accept and OData-Version', () => {
  const bad = () => request(t.http).get(`${BASE}?$filter=bogus`).set(bearer(t.tokens.writer));

  test('no Accept: problem+json', async () => {
    const res = await bad().expect(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers['odata-version']).toBe('4.0');
    expect(res.body.error).toBeUndefined();
  });

  test.each([
    ['Accept: application/json', { Accept: 'application/json' }],
    ['OData-Version', { 'OData-Version': '4.0' }],
    ['OData-MaxVersion', { 'OData-MaxVersion': '4.01', Accept: '*/*' }],
  ])('%s: the OData JSON error beside the same problem fields', async (_what, headers) => {
    const res = await bad().set(headers).expect(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ code: 'INVALID_QUERY', status: 400, error: { code: 'INVALID_QUERY', message: res.body.detail } });
  });

  test('named fields become details with targets; Accept problem+json still wins', async () => {
    const res = await request(t.http).post(BASE).set(bearer(t.tokens.writer)).set('OData-Version', '4.0').send({ name: 'x' }).expect(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details).toEqual(
      res.body.errors.map((e: { field: string; message: string }) => ({ code: 'VALIDATION_FAILED', message: e.message, target: e.field })),
    );
    const problem = await bad().set({ Accept: 'application/problem+json', 'OData-Version': '4.0' }).expect(400);
    expect(problem.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  test('a 401 and a 404 too', async () => {
    const unauth = await request(t.http).get(BASE).set('Accept', 'application/json').expect(401);
    expect(unauth.body.error.code).toBe('UNAUTHENTICATED');
    const missing = await get(`${BASE}/5d6c7b8a-0000-4000-8000-000000000000`).set('OData-Version', '4.0').expect(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
  });
});

test('the OpenAPI document names the OData endpoints', async () => {
  const doc = (await request(t.http).get('/api/v1/openapi.json').expect(200)).body;
  for (const p of ['/', '/$metadata', '/payment-sources/$count', '/customers/$count']) expect(doc.paths).toHaveProperty([p]);
  expect(doc.paths['/payment-sources/{id}'].patch.requestBody.content['application/json'].schema).toEqual({
    $ref: '#/components/schemas/PaymentSourcePatch',
  });
  expect(doc.paths['/payment-sources'].get.parameters.map((p: { name: string }) => p.name)).toContain('$expand');
  expect(doc.components.schemas.ODataError).toBeDefined();
  // Every record schema names the @odata.etag its records begin with (the resources' schemas allow no other property).
  for (const model of [...ALL_RESOURCES.map((r) => r.model), 'Change']) {
    expect([model, Object.keys(doc.components.schemas[model].properties)[0]]).toEqual([model, '@odata.etag']);
  }
});
