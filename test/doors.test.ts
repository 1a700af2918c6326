// Every resource (every folder of src/domain with a resource.ts, collected by the build)
// reaches every door it belongs to, and every Prisma model is a resource or says why not: the
// checklist "Adding a resource" of docs/architecture.md, enforced. The doors derive their
// lists from the declarations, so a resource missing here means a derivation was bypassed
// (or a declaration lacks what the door needs).

import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { PROJECT_ROOT } from '../src/config/paths';
import { singleFieldOf } from '../src/domain/common/declaration';
import { ALL_RESOURCES, isResourceModel } from '../src/domain/resources';
import { Prisma } from '../src/db/__generated__/prisma/client';
import { subgraphSchema } from '../src/graphql/federation';
import { resolvers } from '../src/graphql/resolvers';
import { readSchema } from '../src/graphql/server';
import { FILE_SECTIONS, SECTIONS } from '../src/import/registry';
import { metadataJson } from '../src/rest/odata/metadata';
import { entitySetOf } from '../src/rest/odata/model';
import { openApiDocument } from '../src/rest/openapi';
import { createTestApp, type TestApp, bearer } from './support/app';
import { gqlOk } from './support/graphql';

/** Resources that are not a section of import files, and why. */
const NOT_IMPORTED: Readonly<Record<string, string>> = {
  Payment: 'payments are transactions, not reference data',
  Address: 'addresses are imported inside their customers',
};
/** Prisma models that are not resources, and why. */
const NOT_RESOURCES: Readonly<Record<string, string>> = {
  CustomerSurname: 'the lexicon of surnames a contains() filter narrows by, kept by a trigger',
  ChangeLog: 'the change history, read through its own service and feed',
  ChangeRelayState: "the relay's position in the change log",
  ChangeLogWaiter: 'the service instances waiting for a notification of the change log, until when',
};
const UNKNOWN_ID = '00000000-0000-4000-8000-00000000abcd';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demoData: false });
});
afterAll(async () => {
  await t.close();
});

const openApi = openApiDocument() as { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };
// The schema the door serves: schema.graphql as an Apollo Federation subgraph.
const graphqlSchema = subgraphSchema(readSchema(), resolvers);
const queryType = graphqlSchema.getQueryType()!;
const resolverMap = resolvers as Readonly<Record<string, Readonly<Record<string, unknown>>>>;

it.each(Object.values(Prisma.ModelName))('the Prisma model %s is a resource, or says why not', (model) => {
  expect([model, isResourceModel(model) || Object.hasOwn(NOT_RESOURCES, model)]).toEqual([model, true]);
  expect([model, isResourceModel(model) && Object.hasOwn(NOT_RESOURCES, model)]).toEqual([model, false]);
});
const container = (metadataJson.Billing as Record<string, Record<string, unknown>>).Container!;

describe.each(ALL_RESOURCES.map((r) => [r.model, r] as const))('%s', (_model, r) => {
  const set = r.entitySet;
  if (set) {
    it('REST: the collection, its $count and one record answer', async () => {
      const auth = bearer(t.tokens.reader);
      const list = await request(t.http).get(`/api/v1/${set.path}?$top=1`).set(auth).expect(200);
      expect(Array.isArray(list.body.value)).toBe(true);
      await request(t.http).get(`/api/v1/${set.path}/$count`).set(auth).expect(200);
      expect((await request(t.http).get(`/api/v1/${set.path}/${UNKNOWN_ID}`).set(auth).expect(404)).body.code).toBe('NOT_FOUND');
    });

    it('OData: an entity set in the metadata, addressed by its path and its name', () => {
      expect(entitySetOf(set.path)?.type).toBe(r.model);
      expect(entitySetOf(set.name)?.type).toBe(r.model);
      expect(container[set.name]).toMatchObject({ $Collection: true, $Type: `Billing.${r.model}` });
    });

    it('OpenAPI: the collection, $count and record paths, and the record schema', () => {
      for (const p of [`/${set.path}`, `/${set.path}/$count`, `/${set.path}/{id}`])
        expect([p, Object.keys(openApi.paths[p] ?? {})]).toEqual([p, expect.arrayContaining(['get'])]);
      expect(openApi.components.schemas[r.model]).toBeDefined();
    });
  }

  it('GraphQL: a single field and a list field, both answering', async () => {
    const single = singleFieldOf(r);
    const fields = queryType.getFields();
    expect(fields[single]?.type.toString()).toBe(r.model);
    expect(fields[r.plural]?.type.toString()).toBe(`${r.model}Connection!`);
    const data = await gqlOk<Record<string, unknown>>(
      t,
      `{ one: ${single}(id: "${UNKNOWN_ID}") { id } list: ${r.plural}(first: 1) { totalCount nodes { id } } }`,
    );
    expect(data).toEqual({ one: null, list: { totalCount: 0, nodes: [] } });
  });

  it('GraphQL: every declared relation and the history as fields of the type, each with its resolver', () => {
    const type = graphqlSchema.getType(r.model);
    const fields = type && 'getFields' in type ? type.getFields() : {};
    for (const name of [...Object.keys(r.relations), 'history']) {
      expect([name, Object.hasOwn(fields, name), typeof resolverMap[r.model]?.[name]]).toEqual([name, true, 'function']);
    }
    expect(typeof resolverMap[`${r.model}Connection`]?.nodes).toBe('function');
  });

  it('import: a section of its own when it is reference data', () => {
    if (Object.hasOwn(NOT_IMPORTED, r.model)) {
      expect(r.import).toBeUndefined();
      return;
    }
    expect(FILE_SECTIONS).toContain(r.plural);
    expect(SECTIONS[r.plural as keyof typeof SECTIONS].table).toBe(r.model);
  });
});

it('docs/architecture.md has the checklist this test enforces', () => {
  const docs = fs.readFileSync(path.join(PROJECT_ROOT, 'docs/architecture.md'), 'utf8');
  const checklist = docs.split(/^## /m).find((section) => section.startsWith('Adding a resource\n')) ?? '';
  for (const item of [
    'schema.prisma',
    'migration',
    'demo dataset',
    'src/domain/<resource>/',
    'fields.ts',
    'schema.ts',
    'service.ts',
    'resource.ts',
    'schema.graphql',
    'nothing else',
    'test/doors.test.ts',
  ]) {
    expect([item, checklist.includes(item)]).toEqual([item, true]);
  }
});
