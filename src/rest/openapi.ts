import { z } from 'zod';
import { academicTermRecord } from '../domain/academic-term/schema';
import { accountRecord } from '../domain/account/schema';
import { articlePriceRecord } from '../domain/article-price/schema';
import { articleRecord } from '../domain/article/schema';
import { addressRecord } from '../domain/address/schema';
import { customerRecord } from '../domain/customer/schema';
import { paymentSourceInput, paymentSourceRecord } from '../domain/payment-source/schema';
import { paymentInput } from '../domain/payment/schema';
import { taxCodeRecord } from '../domain/tax-code/schema';
import { dateTime, uuid } from '../domain/common/schemas';
import { ERRORS } from '../errors/catalogue';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../domain/common/list';
import { extraOpenApiPaths } from './openapi-extra';

// The OpenAPI 3.1 document of the REST door, generated from the same zod schemas that
// validate requests (OpenAPI 3.1 speaks JSON Schema 2020-12, which zod emits directly).

type JsonSchema = Record<string, unknown>;
const schemaOf = (s: z.ZodType): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
};
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const paymentRecord = paymentInput.extend({
  id: uuid(),
  paymentSourceId: uuid(),
  receivedAt: dateTime(),
  createdAt: dateTime(),
  createdById: uuid(),
});

const RESOURCES = {
  PaymentSource: paymentSourceRecord,
  Payment: paymentRecord,
  Account: accountRecord,
  Article: articleRecord,
  ArticlePrice: articlePriceRecord,
  Customer: customerRecord,
  Address: addressRecord,
  TaxCode: taxCodeRecord,
  AcademicTerm: academicTermRecord,
} as const;

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

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});

const errorResponses = (...codes: (keyof typeof ERRORS)[]) =>
  Object.fromEntries(
    [...new Set(['UNAUTHENTICATED', 'FORBIDDEN', 'RATE_LIMITED', 'INTERNAL', ...codes] as (keyof typeof ERRORS)[])].map((c) => [
      String(ERRORS[c].status),
      problemResponse(ERRORS[c].title),
    ]),
  );

const odataParameters = [
  { name: '$filter', in: 'query', schema: { type: 'string' }, description: "OData filter, e.g. `isActive eq true and startswith(code,'K')`" },
  { name: '$orderby', in: 'query', schema: { type: 'string' }, description: 'Comma-separated `field [asc|desc]`; ties are broken by id' },
  { name: '$top', in: 'query', schema: { type: 'integer', minimum: 0, maximum: MAX_PAGE_SIZE }, description: `Records to return; without it the server returns pages of ${DEFAULT_PAGE_SIZE} with @odata.nextLink` },
  { name: '$skip', in: 'query', schema: { type: 'integer', minimum: 0 } },
  { name: '$count', in: 'query', schema: { type: 'boolean' } },
  { name: '$select', in: 'query', schema: { type: 'string' }, description: 'Comma-separated fields' },
];
const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const ifMatch = { name: 'If-Match', in: 'header', required: false, schema: { type: 'string' } };

const listOf = (name: string) => ({
  description: 'A page of records',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['value'],
        properties: {
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
  headers: { ETag: { schema: { type: 'string' } } },
  content: { 'application/json': { schema: ref(name) } },
});

function collection(path: string, name: string, tag: string) {
  return {
    [path]: {
      get: { tags: [tag], summary: `List ${tag}`, parameters: odataParameters, responses: { 200: listOf(name), ...errorResponses('INVALID_QUERY') } },
    },
    [`${path}/{id}`]: {
      get: { tags: [tag], summary: `One ${name}`, parameters: [idParameter], responses: { 200: one(name), ...errorResponses('VALIDATION_FAILED', 'NOT_FOUND') } },
    },
  };
}

export function openApiDocument(): Record<string, unknown> {
  const ps = collection('/payment-sources', 'PaymentSource', 'payment sources');
  const body = { required: true, content: { 'application/json': { schema: ref('PaymentSourceInput') } } };
  Object.assign(ps['/payment-sources']!, {
    post: {
      tags: ['payment sources'],
      summary: 'Create a payment source',
      requestBody: body,
      responses: { 201: one('PaymentSource', 'Created'), ...errorResponses('VALIDATION_FAILED', 'DUPLICATE_CODE', 'DEFAULT_ALREADY_SET', 'ACCOUNT_NOT_USABLE', 'PAYLOAD_TOO_LARGE') },
    },
  });
  Object.assign(ps['/payment-sources/{id}']!, {
    put: {
      tags: ['payment sources'],
      summary: 'Replace a payment source (full replacement)',
      parameters: [idParameter, ifMatch],
      requestBody: body,
      responses: { 200: one('PaymentSource', 'Updated'), ...errorResponses('VALIDATION_FAILED', 'NOT_FOUND', 'DUPLICATE_CODE', 'DEFAULT_ALREADY_SET', 'ACCOUNT_NOT_USABLE', 'PRECONDITION_FAILED', 'PAYLOAD_TOO_LARGE') },
    },
    delete: {
      tags: ['payment sources'],
      summary: 'Delete a payment source without payments',
      parameters: [idParameter, ifMatch],
      responses: { 204: { description: 'Deleted' }, ...errorResponses('VALIDATION_FAILED', 'NOT_FOUND', 'HAS_PAYMENTS', 'PRECONDITION_FAILED') },
    },
  });
  const payments = collection('/payments', 'Payment', 'payments');
  Object.assign(payments['/payments']!, {
    post: {
      tags: ['payments'],
      summary: 'Record a payment (the default payment source when none is named)',
      requestBody: { required: true, content: { 'application/json': { schema: ref('PaymentInput') } } },
      responses: { 201: one('Payment', 'Created'), ...errorResponses('VALIDATION_FAILED', 'PAYMENT_SOURCE_INACTIVE', 'NO_DEFAULT_PAYMENT_SOURCE', 'PAYLOAD_TOO_LARGE') },
    },
  });

  return {
    openapi: '3.1.0',
    info: {
      title: 'Billing reference data',
      version: '1.0.0',
      description: 'Payment sources (CRUD), payments, and read access to accounts, articles, article prices, customers, tax codes and academic terms. Decimals are JSON numbers with exact decimal values.',
    },
    servers: [{ url: '/api/v1' }],
    security: [{ bearer: [] }],
    paths: {
      ...ps,
      ...payments,
      ...collection('/accounts', 'Account', 'accounts'),
      ...collection('/articles', 'Article', 'articles'),
      '/article-prices': {
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
      ...collection('/customers', 'Customer', 'customers'),
      ...collection('/tax-codes', 'TaxCode', 'tax codes'),
      ...collection('/academic-terms', 'AcademicTerm', 'academic terms'),
      ...extraOpenApiPaths(ref, errorResponses),
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Scopes: billing.read, billing.write' } },
      schemas: {
        Problem: problem,
        PaymentSourceInput: schemaOf(paymentSourceInput),
        PaymentInput: schemaOf(paymentInput),
        ...Object.fromEntries(Object.entries(RESOURCES).map(([n, s]) => [n, schemaOf(s)])),
      },
    },
  };
}
