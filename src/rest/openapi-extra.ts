import { MAX_QUOTE_LINES, quoteInput, quoteOutput } from '../domain/pricing/schema';
import type { ErrorCode } from '../errors/catalogue';
import { BATCH_LIMITS } from './batch/parse';
import { inputSchema, responseSchema } from './openapi-schema';

// Paths added by later features (quotes, $batch), kept apart so openapi.ts stays the catalogue of
// the specified resources. Each entry uses the same helpers for references and errors.
type Ref = (name: string) => { $ref: string };
type ErrorResponses = (...codes: ErrorCode[]) => Record<string, unknown>;

export function extraOpenApiPaths(_ref: Ref, errors: ErrorResponses): Record<string, unknown> {
  return {
    '/$batch': batchPath(errors),
    '/quotes': {
      post: {
        tags: ['pricing'],
        summary: 'Quote invoice lines: effective price, price guarantee, cost center, tax and academic term',
        description: [
          `Writes nothing; needs billing.read. 1 to ${MAX_QUOTE_LINES} lines.`,
          'Price: the article price with the latest validFrom on or before the reference date (compared by instant; a date without time means midnight UTC; a price starting exactly then applies). The reference date is priceGuaranteeDate when given (it must not be after billingDate), else billingDate.',
          'Tax: the line taxCodeId, else the article default tax code; it must be active and valid on the billing date (validFrom and validTo are whole UTC days, both included). taxRate is copied as it is.',
          'Amounts: netAmount = unitPrice × quantity and taxAmount = netAmount × taxRate / 100, each rounded half-up to 2 decimals; grossAmount = netAmount + taxAmount; totals are sums of the lines.',
          'Cost center: the line costCenterId, else the article default; with useArticleCostCenter always the article cost center.',
          'Errors name the line: errors[].field is e.g. lines[0].quantity, lines[0].articleId (unknown article), lines[0].billingDate or lines[0].priceGuaranteeDate (NO_PRICE), lines[0].taxCodeId (NO_TAX_CODE).',
        ].join('\n\n'),
        requestBody: { required: true, content: { 'application/json': { schema: inputSchema(quoteInput) } } },
        responses: {
          200: { description: 'The quote', content: { 'application/json': { schema: responseSchema(quoteOutput) } } },
          ...errors('VALIDATION_FAILED', 'NO_PRICE', 'NO_TAX_CODE', 'PAYLOAD_TOO_LARGE'),
        },
      },
    },
  };
}

const jsonRequest = {
  type: 'object',
  required: ['id', 'method', 'url'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', description: 'The request id; `$<id>` at the start of a later URL is the URL of what this request wrote' },
    method: { type: 'string', enum: ['get', 'post', 'put', 'patch', 'delete', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
    url: { type: 'string', description: 'Relative to /api/v1, an absolute path under it, or `$<id>`…' },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    body: { description: 'The request body (JSON)' },
    atomicityGroup: { type: 'string', description: 'Adjacent requests with the same group are one unit of work: all kept or none' },
    dependsOn: { type: 'array', items: { type: 'string' }, description: 'Ids of requests or groups before it that must have succeeded' },
  },
};
const jsonResponse = {
  type: 'object',
  required: ['id', 'status', 'headers'],
  properties: {
    id: { type: 'string' },
    status: { type: 'integer' },
    atomicityGroup: { type: 'string' },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    body: { description: 'The response body as the request alone would have it' },
  },
};

function batchPath(errors: ErrorResponses): Record<string, unknown> {
  return {
    post: {
      tags: ['batch'],
      operationId: 'batch',
      summary: 'OData $batch: several requests in one, change sets and atomicity groups as units of work',
      description: [
        'Needs a valid token; each request inside is checked as if sent alone (scopes, body, limits, errors) and carries the batch token.',
        'OData 4.0 multipart/mixed (a change set is a nested multipart/mixed part holding writes only) or OData 4.01 JSON (`requests` with `atomicityGroup` and `dependsOn`). A change set or atomicity group is one transaction: all its writes or none.',
        'A failed change set is answered with the one response of the request that failed; in JSON every request of a failed group is answered: the failure, ROLLED_BACK (424) for the writes before it, FAILED_DEPENDENCY (424) for those not run, as for requests whose dependsOn failed.',
        `Processing stops at the first failure unless Prefer: odata.continue-on-error. At most ${BATCH_LIMITS.operations} requests and ${BATCH_LIMITS.bodyBytes / 1024} KiB; a malformed batch runs nothing.`,
      ].join('\n\n'),
      requestBody: {
        required: true,
        content: {
          'multipart/mixed': { schema: { type: 'string', description: 'OData 4.0 batch body, boundary in the Content-Type' } },
          'application/json': {
            schema: { type: 'object', required: ['requests'], properties: { requests: { type: 'array', items: jsonRequest } } },
          },
        },
      },
      responses: {
        200: {
          description: 'The responses, in the format of the request',
          content: {
            'multipart/mixed': { schema: { type: 'string' } },
            'application/json': {
              schema: { type: 'object', required: ['responses'], properties: { responses: { type: 'array', items: jsonResponse } } },
            },
          },
        },
        ...errors('INVALID_BATCH', 'BATCH_TOO_LARGE', 'PAYLOAD_TOO_LARGE', 'METHOD_NOT_ALLOWED'),
      },
    },
  };
}
