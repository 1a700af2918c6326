import { paymentSourceInput, paymentSourcePatch } from '../domain/payment-source/schema';
import { paymentInput } from '../domain/payment/schema';
import { customerAddressInput } from '../domain/customer/schema';
import { ALL_RESOURCES, resourceOf } from '../domain/resources';
import { ownedResources } from '../domain/change-log/fields';
import type { Resource } from '../domain/common/declaration';
import { PERSONAL_DATA_SCOPE } from '../query/fields';
import { ERRORS } from '../errors/catalogue';
import { DEFAULT_PAGE_SIZE, MAX_OFFSET, MAX_PAGE_SIZE } from '../domain/common/list';
import { MAX_FILTER_LENGTH } from './odata/parser';
import { extraOpenApiPaths } from './openapi-extra';
import { BULK_LIMITS } from '../domain/maintenance/write-service';
import { alternateKeyFieldOf } from './writable';
import { inputSchema, isObject, responseSchema, type JsonSchema } from './openapi-schema';

// The OpenAPI 3.1 document of the REST door, generated from the same zod schemas that
// validate requests. Request bodies make defaulted fields optional; records make every
// field required (the service always sends every field, null when empty). A last pass
// (finish) gives every operation an operationId, documents Location on every 201, and
// drops components nothing refers to, for paths added anywhere.

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const problem = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string', enum: Object.keys(ERRORS) },
    instance: { type: 'string' },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } }, required: ['field', 'message'] },
    },
  },
};

// The OData JSON error: the same problem fields plus OData's `error` member.
const odataError = {
  allOf: [
    ref('Problem'),
    {
      type: 'object',
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message'],
          properties: {
            code: { type: 'string', enum: Object.keys(ERRORS) },
            message: { type: 'string' },
            target: { type: 'string' },
            details: {
              type: 'array',
              items: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, target: { type: 'string' } } },
            },
          },
        },
      },
    },
  ],
};

const retryAfter = {
  description: 'Seconds to wait before retrying',
  required: true,
  schema: { type: 'integer', minimum: 1 },
};
const wwwAuthenticate = {
  description: 'RFC 6750 challenge: `Bearer realm="billing"`, with `error="invalid_token"` when a token came and was refused',
  required: true,
  schema: { type: 'string' },
};
const problemResponse = (status: number, description: string) => ({
  description: `${description}. problem+json; as application/json with an OData \`error\` member when Accept names application/json (not problem+json) or the request carries OData-Version / OData-MaxVersion`,
  ...(status === 429 || status === 503 ? { headers: { 'Retry-After': retryAfter } } : {}),
  ...(status === 401 ? { headers: { 'WWW-Authenticate': wwwAuthenticate } } : {}),
  content: { 'application/problem+json': { schema: ref('Problem') }, 'application/json': { schema: ref('ODataError') } },
});

const errorResponses = (...codes: (keyof typeof ERRORS)[]) =>
  Object.fromEntries(
    [...new Set<keyof typeof ERRORS>(['UNAUTHENTICATED', 'FORBIDDEN', 'RATE_LIMITED', 'INTERNAL', ...codes])].map((c) => [
      String(ERRORS[c].status),
      problemResponse(ERRORS[c].status, ERRORS[c].title),
    ]),
  );

// Option names are case-insensitive and the `$` is optional (`filter=`, `$Top=`), as OData 4.01 says.
const expandParameter = {
  name: '$expand',
  in: 'query',
  schema: { type: 'string' },
  description:
    'Relations to return inside each record, with nested `$select`, and `$orderby` / `$top` for collections: `prices($orderby=validFrom desc;$top=1)`',
};
const formatParameter = { name: '$format', in: 'query', schema: { type: 'string', enum: ['json', 'application/json'] } };
const odataParameters = [
  {
    name: '$filter',
    in: 'query',
    schema: { type: 'string', maxLength: MAX_FILTER_LENGTH },
    description: "OData filter, e.g. `isActive eq true and startswith(code,'K')`",
  },
  {
    name: '$orderby',
    in: 'query',
    schema: { type: 'string' },
    description: 'Comma-separated `field [asc|desc]`; ties are broken by id; nulls first ascending, last descending',
  },
  {
    name: '$top',
    in: 'query',
    schema: { type: 'integer', minimum: 0, maximum: MAX_PAGE_SIZE },
    description: `Records to return, all in one response; without it the server returns pages of ${DEFAULT_PAGE_SIZE} with @odata.nextLink`,
  },
  { name: '$skip', in: 'query', schema: { type: 'integer', minimum: 0, maximum: MAX_OFFSET } },
  { name: '$count', in: 'query', schema: { type: 'boolean' } },
  { name: '$select', in: 'query', schema: { type: 'string' }, description: 'Comma-separated fields' },
  expandParameter,
  formatParameter,
];
const recordParameters = [odataParameters.find((p) => p.name === '$select')!, expandParameter, formatParameter];
const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const ifMatch = { name: 'If-Match', in: 'header', required: false, schema: { type: 'string' } };
const preferParameter = { name: 'Prefer', in: 'header', required: false, schema: { type: 'string' } };
const updatedMinimal = { description: 'Updated (return=minimal)', headers: { ETag: { schema: { type: 'string' } } } };
const ifNoneMatch = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: 'The ETag of the copy you hold: 304 without a body while the record is unchanged (not with $expand)',
};
const notModified = {
  description: 'Not modified: the ETag sent in If-None-Match is current',
  headers: { ETag: { required: true, schema: { type: 'string' } } },
};

const listOf = (name: string) => ({
  description: 'A page of records',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['value'],
        properties: {
          '@odata.context': { type: 'string', format: 'uri' },
          value: { type: 'array', items: ref(name) },
          '@odata.count': { type: 'integer' },
          '@odata.nextLink': { type: 'string', format: 'uri' },
        },
      },
    },
  },
});
const one = (name: string, description = 'The record') => ({
  description,
  headers: { ETag: { description: 'Strong content ETag; send it back in If-Match', required: true, schema: { type: 'string' } } },
  content: { 'application/json': { schema: ref(name) } },
});

function collection(path: string, name: string, tag: string) {
  return {
    [path]: {
      get: {
        tags: [tag],
        summary: `List ${tag}`,
        parameters: odataParameters,
        responses: { 200: listOf(name), ...errorResponses('INVALID_QUERY') },
      },
    },
    [`${path}/$count`]: {
      get: {
        tags: [tag],
        summary: `Count ${tag} (with $filter)`,
        parameters: [odataParameters[0], formatParameter],
        responses: {
          200: { description: 'The number', content: { 'text/plain': { schema: { type: 'integer' } } } },
          ...errorResponses('INVALID_QUERY'),
        },
      },
    },
    [`${path}/{id}`]: {
      get: {
        tags: [tag],
        summary: `One ${name} (also addressed OData-style as ${path}(<id>) or ${path}('<id>'))`,
        parameters: [idParameter, ...recordParameters, ifNoneMatch],
        responses: { 200: one(name), 304: notModified, ...errorResponses('VALIDATION_FAILED', 'INVALID_QUERY', 'NOT_FOUND') },
      },
    },
  };
}

// The change log (scope billing.audit): GET /changes and each set's /{id}/history.
const value = { description: 'As the API writes the field: text, an exact number, a boolean or null' };
const changeSchema = {
  type: 'object',
  required: ['id', 'seq', 'resource', 'recordId', 'operation', 'changes', 'userId', 'occurredAt', 'requestId', 'importRunId'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    seq: { type: 'string', pattern: '^[0-9]+$', description: 'The position in the feed, increasing in commit order' },
    resource: { type: 'string', enum: ALL_RESOURCES.map((r) => r.name) },
    recordId: { type: 'string', format: 'uuid' },
    operation: { type: 'string', enum: ['created', 'deleted', 'updated'] },
    changes: {
      type: 'object',
      description: 'Field → its value before and after the write (old null on a create, new null on a delete)',
      additionalProperties: { type: 'object', required: ['old', 'new'], properties: { old: value, new: value } },
    },
    userId: { type: 'string', format: 'uuid', description: "The token's sub; the nil UUID for the import" },
    occurredAt: { type: 'string', format: 'date-time' },
    requestId: { type: ['string', 'null'] },
    importRunId: { type: ['string', 'null'], format: 'uuid' },
  },
};
const feedParameters = [
  ...odataParameters.filter((p) => p !== expandParameter),
  {
    name: '$skiptoken',
    in: 'query',
    schema: { type: 'string', pattern: '^[0-9]+$' },
    description: 'Continue after this seq (from @odata.nextLink); not with $orderby',
  },
  {
    name: '$deltatoken',
    in: 'query',
    schema: { type: 'string', pattern: '^[0-9]+$' },
    description: 'Entries committed after this seq (from @odata.deltaLink); not with $orderby',
  },
];
const feedOf = () => {
  const list = listOf('Change');
  const schema = list.content['application/json'].schema;
  return {
    ...list,
    description:
      'A page of entries; in feed order (no $orderby) the last page carries @odata.deltaLink, to poll for what is committed later',
    content: {
      'application/json': {
        schema: { ...schema, properties: { ...schema.properties, '@odata.deltaLink': { type: 'string', format: 'uri' } } },
      },
    },
  };
};
function changePaths() {
  const { '/changes/$count': count } = collection('/changes', 'Change', 'changes');
  const paths: Record<string, unknown> = {
    '/changes': {
      get: {
        tags: ['changes'],
        summary: 'The change log (scope billing.audit), in feed order unless $orderby is given',
        parameters: feedParameters,
        responses: { 200: feedOf(), ...errorResponses('INVALID_QUERY') },
      },
    },
    '/changes/$count': count,
    '/changes/{id}': {
      get: {
        tags: ['changes'],
        summary: 'One change-log entry (scope billing.audit)',
        parameters: [idParameter, formatParameter, odataParameters.find((p) => p.name === '$select')!],
        responses: {
          200: { description: 'The entry', content: { 'application/json': { schema: ref('Change') } } },
          ...errorResponses('VALIDATION_FAILED', 'INVALID_QUERY', 'NOT_FOUND'),
        },
      },
    },
  };
  for (const { entitySet, name } of ALL_RESOURCES) {
    if (!entitySet) continue;
    const set = entitySet.path;
    // A customer's history holds its addresses' entries (docs/changes.md).
    const owned = ownedResources(name).map((r) => ` and of its ${r} records`);
    paths[`/${set}/{id}/history`] = {
      get: {
        tags: ['changes'],
        summary: `The change-log entries of one record of ${set}${owned.join('')}, oldest first (scope billing.audit); a deleted record's stay readable`,
        parameters: [idParameter, ...feedParameters],
        responses: { 200: feedOf(), ...errorResponses('VALIDATION_FAILED', 'INVALID_QUERY', 'NOT_FOUND') },
      },
    };
  }
  return paths;
}

/** The OData service document and metadata at the service root. */
const odataPaths = {
  '/': {
    get: {
      tags: ['odata'],
      summary: 'OData service document: the entity sets and their URLs',
      responses: {
        200: {
          description: 'The service document',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  '@odata.context': { type: 'string' },
                  value: {
                    type: 'array',
                    items: { type: 'object', properties: { name: { type: 'string' }, kind: { type: 'string' }, url: { type: 'string' } } },
                  },
                },
              },
            },
          },
        },
        ...errorResponses(),
      },
    },
  },
  '/$metadata': {
    get: {
      tags: ['odata'],
      summary: 'OData metadata (CSDL): XML by default, JSON with $format=json or Accept: application/json',
      parameters: [
        { name: '$format', in: 'query', schema: { type: 'string', enum: ['xml', 'json', 'application/xml', 'application/json'] } },
      ],
      responses: {
        200: {
          description: 'CSDL',
          content: { 'application/xml': { schema: { type: 'string' } }, 'application/json': { schema: { type: 'object' } } },
        },
        ...errorResponses('INVALID_QUERY'),
      },
    },
  },
};

/**
 * A record's schema with `@odata.etag` first (src/rest/respond.ts withEtag): in every record a
 * list or a record's own path answers to an OData client, not in records expanded inside another.
 */
function withEtagProperty(schema: JsonSchema): JsonSchema {
  const etag = {
    type: 'string',
    description:
      "The record's ETag, as its GET's ETag header gives it: send it back in If-Match. Only for OData clients (a request with OData-Version or OData-MaxVersion, or odata.metadata in Accept)",
  };
  return { ...schema, properties: { '@odata.etag': etag, ...(isObject(schema.properties) ? schema.properties : {}) } };
}

/**
 * A record's schema with its personal fields (src/query/fields.ts `personal`) marked, in it
 * and in the records of its relations inside it: the scope named (`x-required-scopes`, and
 * the description), and not required, as a caller without the scope gets no such key.
 */
function withPersonalFields(schema: JsonSchema, r: Resource): JsonSchema {
  const properties = schema.properties;
  if (!isObject(properties)) return schema;
  const marked = Object.fromEntries(
    Object.entries(properties).map(([name, p]) => {
      const relation = Object.hasOwn(r.relations, name) ? r.relations[name] : undefined;
      const target = relation && resourceOf(relation.target);
      if (!isObject(p)) return [name, p];
      if (target) return [name, isObject(p.items) ? { ...p, items: withPersonalFields(p.items, target) } : withPersonalFields(p, target)];
      if (!r.fields[name]?.personal) return [name, p];
      const note = `Personal data: present only with the scope ${PERSONAL_DATA_SCOPE}, which naming it in a query needs too.`;
      return [
        name,
        {
          ...p,
          description: typeof p.description === 'string' ? `${p.description} ${note}` : note,
          'x-required-scopes': [PERSONAL_DATA_SCOPE],
        },
      ];
    }),
  );
  const required = Array.isArray(schema.required)
    ? schema.required.filter((f) => typeof f !== 'string' || !r.fields[f]?.personal)
    : undefined;
  return { ...schema, properties: marked, ...(required ? { required } : {}) };
}

export function openApiDocument(): Record<string, unknown> {
  const collections = readPaths();
  addPaymentSourceWrites(collections);
  addPaymentWrites(collections);
  const { maintained, schemas } = addMaintainedWrites(collections);
  return finish({
    openapi: '3.1.0',
    info: INFO,
    servers: [{ url: '/api/v1' }],
    security: [{ bearer: [] }],
    paths: {
      ...odataPaths,
      ...collections,
      '/article-prices': {
        ...maintained['/article-prices'],
        get: {
          tags: ['articles'],
          summary: "An article's prices, newest validFrom first",
          parameters: [{ name: 'articleId', in: 'query', required: true, schema: { type: 'string', format: 'uuid' } }],
          responses: {
            200: { description: 'Prices', content: { 'application/json': { schema: { type: 'array', items: ref('ArticlePrice') } } } },
            ...errorResponses('VALIDATION_FAILED', 'NOT_FOUND'),
          },
        },
      },
      '/article-prices/{id}': maintained['/article-prices/{id}'] ?? {},
      ...addressPaths(),
      ...changePaths(),
      ...extraOpenApiPaths(ref, errorResponses),
    },
    components: components(schemas),
  });
}

type Paths = Record<string, Record<string, unknown>>;

const INFO = {
  title: 'Billing reference data',
  version: '1.0.0',
  license: { name: 'Proprietary (all rights reserved)', identifier: 'LicenseRef-Proprietary' },
  description:
    'Payment sources (CRUD), payments, and the reference data a billing office maintains: accounts, articles, article prices, customers with addresses, tax codes and academic terms. Decimals are JSON numbers with exact decimal values.',
};

/** GET collection, `/$count` and GET one of every entity set; the writes are added to them. */
function readPaths(): Paths {
  return ALL_RESOURCES.reduce<Paths>(
    (all, r) => (r.entitySet ? { ...all, ...collection(`/${r.entitySet.path}`, r.model, `${r.label}s`) } : all),
    {},
  );
}

/** Payment sources' own writes (billing.write). */
function addPaymentSourceWrites(collections: Paths): void {
  const body = { required: true, content: { 'application/json': { schema: ref('PaymentSourceInput') } } };
  const rules = ['VALIDATION_FAILED', 'DUPLICATE_CODE', 'DEFAULT_ALREADY_SET', 'ACCOUNT_NOT_USABLE', 'PAYLOAD_TOO_LARGE'] as const;
  const tags = ['payment sources'];
  Object.assign(collections['/payment-sources']!, {
    post: {
      tags,
      summary: 'Create a payment source',
      requestBody: body,
      responses: { 201: one('PaymentSource', 'Created'), ...errorResponses(...rules) },
    },
  });
  Object.assign(collections['/payment-sources/{id}']!, {
    put: {
      tags,
      summary: 'Replace a payment source (full replacement)',
      parameters: [idParameter, ifMatch],
      requestBody: body,
      responses: { 200: one('PaymentSource', 'Updated'), ...errorResponses(...rules, 'NOT_FOUND', 'PRECONDITION_FAILED') },
    },
    patch: {
      tags,
      summary:
        'Update the named fields of a payment source (merge); same rules, audit fields and If-Match as PUT. `Prefer: return=minimal` answers 204',
      parameters: [idParameter, ifMatch, preferParameter],
      requestBody: { required: true, content: { 'application/json': { schema: ref('PaymentSourcePatch') } } },
      responses: {
        200: one('PaymentSource', 'Updated'),
        204: updatedMinimal,
        ...errorResponses(...rules, 'NOT_FOUND', 'PRECONDITION_FAILED'),
      },
    },
    delete: {
      tags,
      summary: 'Delete a payment source without payments',
      parameters: [idParameter, ifMatch],
      responses: {
        204: { description: 'Deleted' },
        ...errorResponses('VALIDATION_FAILED', 'NOT_FOUND', 'HAS_PAYMENTS', 'PRECONDITION_FAILED'),
      },
    },
  });
}

/**
 * The reference data written through the common write path (billing.maintain), from the
 * declarations' input schemas; the paths without a collection of their own (prices, at
 * /article-prices) and the input schemas are returned.
 */
function addMaintainedWrites(collections: Paths): {
  maintained: Record<string, Record<string, Operation>>;
  schemas: Record<string, JsonSchema>;
} {
  const maintained: Record<string, Record<string, Operation>> = {};
  const schemas: Record<string, JsonSchema> = {};
  for (const r of ALL_RESOURCES) {
    if (!r.input) continue;
    const path = r.entitySet ? `/${r.entitySet.path}` : '/article-prices';
    Object.assign(collections[path] ?? (maintained[path] = {}), maintainedCollectionWrites(r.model, r.label));
    Object.assign(collections[`${path}/{id}`] ?? (maintained[`${path}/{id}`] = {}), maintainedRecordWrites(r.model, r.label));
    const key = alternateKeyFieldOf(r.model);
    if (key) collections[`${path}(${key}='{${key}}')`] = byAlternateKey(r.model, r.label, key, collections[`${path}/{id}`] ?? {});
    if (key && r.entitySet) Object.assign(collections[path] ?? {}, { patch: bulkUpsert(r.model, r.label, key, r.entitySet.path) });
    schemas[`${r.model}Input`] = inputSchema(r.input);
    schemas[`${r.model}Patch`] = withoutRequired(inputSchema(r.input));
  }
  return { maintained, schemas };
}

/** Recording a payment (billing.write). */
function addPaymentWrites(collections: Paths): void {
  Object.assign(collections['/payments']!, {
    post: {
      tags: ['payments'],
      summary: 'Record a payment (the default payment source when none is named)',
      requestBody: { required: true, content: { 'application/json': { schema: ref('PaymentInput') } } },
      responses: {
        201: one('Payment', 'Created'),
        ...errorResponses('VALIDATION_FAILED', 'PAYMENT_SOURCE_INACTIVE', 'NO_DEFAULT_PAYMENT_SOURCE', 'PAYLOAD_TOO_LARGE'),
      },
    },
  });
}

function components(maintainedSchemas: Record<string, JsonSchema>): Record<string, Record<string, unknown>> {
  return {
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: `Scopes: billing.read, billing.write (payment sources, payments), billing.maintain (the other reference data), billing.audit (the change log), and ${PERSONAL_DATA_SCOPE} besides them for the personal fields (marked x-required-scopes)`,
      },
    },
    schemas: {
      Problem: problem,
      ODataError: odataError,
      PaymentSourceInput: inputSchema(paymentSourceInput),
      PaymentSourcePatch: inputSchema(paymentSourcePatch),
      PaymentInput: inputSchema(paymentInput),
      ...maintainedSchemas,
      AddressInput: inputSchema(customerAddressInput.omit({ id: true })),
      AddressPatch: withoutRequired(inputSchema(customerAddressInput.omit({ id: true }))),
      Change: withEtagProperty(changeSchema),
      ...Object.fromEntries(ALL_RESOURCES.map((r) => [r.model, withEtagProperty(withPersonalFields(responseSchema(r.record), r))])),
    },
  };
}

/** The rule errors a write of maintained reference data may meet (docs/service.md). */
const MAINTAIN_ERRORS = [
  'VALIDATION_FAILED',
  'FORBIDDEN',
  'DUPLICATE_CODE',
  'DUPLICATE_KEY',
  'PERIOD_OVERLAP',
  'ALREADY_EFFECTIVE',
  'ACCOUNT_NOT_USABLE',
  'PAYLOAD_TOO_LARGE',
] as const;

function maintainedCollectionWrites(model: string, label: string): Record<string, Operation> {
  return {
    post: {
      tags: [`${label}s`],
      summary: `Create one ${label} (billing.maintain)`,
      requestBody: { required: true, content: { 'application/json': { schema: ref(`${model}Input`) } } },
      responses: { 201: one(model, 'Created'), ...errorResponses(...MAINTAIN_ERRORS) },
    },
  };
}

function maintainedRecordWrites(model: string, label: string): Record<string, Operation> {
  return {
    put: {
      tags: [`${label}s`],
      summary: `Replace the ${label} (full replacement; billing.maintain)`,
      parameters: [idParameter, ifMatch, preferParameter],
      requestBody: { required: true, content: { 'application/json': { schema: ref(`${model}Input`) } } },
      responses: {
        200: one(model, 'Updated'),
        204: updatedMinimal,
        ...errorResponses(...MAINTAIN_ERRORS, 'NOT_FOUND', 'PRECONDITION_FAILED'),
      },
    },
    patch: {
      tags: [`${label}s`],
      summary: `Update the named fields of the ${label} (merge; same rules and If-Match as PUT; billing.maintain)`,
      parameters: [idParameter, ifMatch, preferParameter],
      requestBody: { required: true, content: { 'application/json': { schema: ref(`${model}Patch`) } } },
      responses: {
        200: one(model, 'Updated'),
        204: updatedMinimal,
        ...errorResponses(...MAINTAIN_ERRORS, 'NOT_FOUND', 'PRECONDITION_FAILED'),
      },
    },
    delete: {
      tags: [`${label}s`],
      summary: `Delete the ${label}, unless other records still refer to it or it took effect (billing.maintain)`,
      parameters: [idParameter, ifMatch],
      responses: {
        204: { description: 'Deleted' },
        ...errorResponses('VALIDATION_FAILED', 'FORBIDDEN', 'NOT_FOUND', 'IN_USE', 'ALREADY_EFFECTIVE', 'PRECONDITION_FAILED'),
      },
    },
  };
}

/**
 * A record by its alternate key (`/customers(debtorNumber='…')`): what its `/{id}` path takes,
 * the key in place of the id, and PUT as the upsert a system syncing by that key sends.
 */
function byAlternateKey(model: string, label: string, key: string, item: Record<string, unknown>): Record<string, Operation> {
  const keyParameter = { name: key, in: 'path', required: true, description: `The ${label}'s ${key}`, schema: { type: 'string' } };
  const createOnly = { ...ifNoneMatch, description: '`*`: create only (412 when a record has this key)' };
  const by = `${model}By${key.charAt(0).toUpperCase()}${key.slice(1)}`;
  const verbs: Record<string, string> = { get: 'get', put: 'upsert', patch: 'update', delete: 'delete' };
  const out: Record<string, Operation> = {};
  for (const [method, op] of Object.entries(item)) {
    const verb = verbs[method];
    if (!verb || !isObject(op)) continue;
    const given: unknown[] = Array.isArray(op.parameters) ? op.parameters : [];
    const parameters = [...given.map((p) => (p === idParameter ? keyParameter : p)), ...(method === 'put' ? [createOnly] : [])];
    out[method] = { ...op, operationId: `${verb}${by}`, parameters };
  }
  if (out.put)
    out.put = {
      ...out.put,
      summary: `Create or replace the ${label} with this ${key} (billing.maintain): the body as for POST, the ${key} may be left out; a repeated identical PUT changes nothing`,
      responses: { 201: one(model, 'Created'), ...out.put.responses },
    };
  return out;
}

/** PATCH of a collection: the bulk upsert by the alternate key, an OData delta payload. */
function bulkUpsert(model: string, label: string, key: string, set: string): Operation {
  const result = {
    type: 'object',
    required: ['index', 'key', 'result'],
    properties: {
      index: { type: 'integer', description: "The record's place in `value` (from 0)" },
      key: { type: ['string', 'null'], description: `Its ${key}` },
      result: { type: 'string', enum: ['created', 'updated', 'unchanged', 'refused'] },
      id: { type: 'string', format: 'uuid' },
      record: { ...ref(model), description: 'As written (not with return=minimal)' },
      error: {
        type: 'object',
        description: 'Why it was refused: the code, detail and fields of the error it would get alone',
        properties: { code: { type: 'string' }, message: { type: 'string' }, errors: { type: 'array', items: { type: 'object' } } },
      },
    },
  };
  const count = { type: 'integer' };
  return {
    tags: [`${label}s`],
    operationId: `upsert${pascal(set)}`,
    summary: `Create or change many ${label}s by their ${key} (bulk upsert; billing.maintain)`,
    description: `An OData delta payload: \`{"@context":"#$delta","value":[…]}\`, each record identified by its \`${key}\` or its \`@id\` (\`${set}(${key}='…')\`). A record whose ${key} exists changes the fields it gives (as PATCH), another is created (as POST). At most ${BULK_LIMITS.records} records and ${BULK_LIMITS.bytes / 1024 / 1024} MiB. All or nothing (422 RECORDS_REFUSED) unless \`Prefer: odata.continue-on-error\`; \`Prefer: return=minimal\` answers without the records (204 when none was refused).`,
    parameters: [preferParameter],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['value'],
            properties: {
              '@context': { type: 'string', enum: ['#$delta'] },
              value: { type: 'array', maxItems: BULK_LIMITS.records, items: ref(`${model}Patch`) },
            },
          },
        },
      },
    },
    responses: {
      200: {
        description: 'A result per record, in order',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { created: count, updated: count, unchanged: count, refused: count, value: { type: 'array', items: result } },
            },
          },
        },
      },
      204: { description: 'All written or unchanged (return=minimal)' },
      ...errorResponses('VALIDATION_FAILED', 'FORBIDDEN', 'RECORDS_REFUSED', 'PAYLOAD_TOO_LARGE'),
    },
  };
}

/** A customer's addresses at their own paths, written through the customer. */
function addressPaths(): Record<string, Record<string, Operation>> {
  const addressId = { name: 'addressId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
  const body = (required: boolean) => ({
    required: true,
    content: { 'application/json': { schema: required ? ref('AddressInput') : ref('AddressPatch') } },
  });
  const errors = ['VALIDATION_FAILED', 'FORBIDDEN', 'NOT_FOUND', 'DEFAULT_ALREADY_SET', 'PAYLOAD_TOO_LARGE'] as const;
  return {
    '/customers/{id}/addresses': {
      post: {
        tags: ['customers'],
        summary: 'Add an address to the customer (billing.maintain)',
        parameters: [idParameter],
        requestBody: body(true),
        responses: { 201: one('Address', 'Created'), ...errorResponses(...errors) },
      },
    },
    '/customers/{id}/addresses/{addressId}': {
      patch: {
        tags: ['customers'],
        summary: "Update the named fields of the customer's address (merge; If-Match is the address's ETag; billing.maintain)",
        parameters: [idParameter, addressId, ifMatch],
        requestBody: body(false),
        responses: { 200: one('Address', 'Updated'), ...errorResponses(...errors, 'PRECONDITION_FAILED') },
      },
      delete: {
        tags: ['customers'],
        summary: "Delete the customer's address (billing.maintain)",
        parameters: [idParameter, addressId, ifMatch],
        responses: {
          204: { description: 'Deleted' },
          ...errorResponses('VALIDATION_FAILED', 'FORBIDDEN', 'NOT_FOUND', 'PRECONDITION_FAILED'),
        },
      },
    },
  };
}

/** A merge body: the same properties, none required (omitted fields keep their value). */
function withoutRequired(schema: JsonSchema): JsonSchema {
  const { required: _required, ...rest } = schema;
  return rest;
}

const VERBS: Record<string, (item: boolean) => string> = {
  get: (item) => (item ? 'get' : 'list'),
  post: () => 'create',
  put: () => 'replace',
  patch: () => 'update',
  delete: () => 'delete',
};
const pascal = (s: string) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
const singular = (s: string) => s.replace(/ies$/, 'y').replace(/s$/, '');

/** `listPaymentSources`, `getPaymentSource`, `createPayment`: verb and the path's nouns. */
export function operationIdOf(method: string, path: string): string {
  const segments = path.split('/').filter(Boolean);
  // `/payment-sources/{id}` and the OData key form `/payment-sources({id})` address one record.
  const item = segments.at(-1)?.includes('{') ?? false;
  const nouns = segments.map((s) => pascal(s.replace(/\{[^}]*\}/g, ''))).filter(Boolean);
  const verb = VERBS[method]?.(item) ?? method;
  if (nouns.length > 0 && (item || method === 'post')) nouns[nouns.length - 1] = singular(nouns.at(-1)!);
  return `${verb}${nouns.join('') || 'Root'}`;
}

type Response = JsonSchema & { headers?: Record<string, unknown> };
type Operation = JsonSchema & { operationId?: string; responses?: Record<string, Response> };

function finish(
  doc: { paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> } & JsonSchema,
) {
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!(method in VERBS)) continue;
      op.operationId ??= operationIdOf(method, path);
      if (ids.has(op.operationId)) throw new Error(`OpenAPI: operationId ${op.operationId} used twice`);
      ids.add(op.operationId);
      const created = op.responses?.['201'];
      if (created)
        created.headers = {
          Location: { description: 'Path of the created record', required: true, schema: { type: 'string' } },
          ...created.headers,
        };
    }
  }
  // Components no path refers to (directly or through another component) are left out.
  const used = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string' && !used.has(x)) {
        used.add(x);
        const [, section, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(x) ?? [];
        if (section && name) visit(doc.components[section]?.[name]);
      } else visit(x);
    }
  };
  visit(doc.paths);
  for (const [section, entries] of Object.entries(doc.components)) {
    if (section === 'securitySchemes') continue;
    for (const name of Object.keys(entries)) if (!used.has(`#/components/${section}/${name}`)) delete entries[name];
  }
  return doc;
}
