import { MAX_QUOTE_LINES, quoteInput, quoteOutput } from '../domain/pricing/schema';
import type { ErrorCode } from '../errors/catalogue';
import { inputSchema, responseSchema } from './openapi-schema';

// Paths added by later features (quotes), kept apart so openapi.ts stays the catalogue of
// the specified resources. Each entry uses the same helpers for references and errors.
type Ref = (name: string) => { $ref: string };
type ErrorResponses = (...codes: ErrorCode[]) => Record<string, unknown>;

export function extraOpenApiPaths(_ref: Ref, errors: ErrorResponses): Record<string, unknown> {
  return {
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
