import { z } from 'zod';
import { dateTime, decimal, uuid } from '../common/schemas';

// Input of a quote (POST /api/v1/quotes, GraphQL `quote(input:)`). Dates are ISO 8601
// date-times with a zone, or plain dates meaning midnight UTC of that day.

export const MAX_QUOTE_LINES = 200;

/** Quantity: > 0, up to 4 decimals, below 10^11. */
export const quantity = () => decimal({ scale: 4, precision: 15, positive: true });

/** Optional; an explicit null (as GraphQL sends for an omitted nullable input) means absent. */
const optional = <T extends z.ZodType>(s: T) => s.nullish().transform((v) => v ?? undefined);

export const quoteLineInput = z
  .strictObject({
    articleId: uuid(),
    quantity: quantity(),
    billingDate: dateTime(),
    /** Price guarantee: the contract's reference date (e.g. matriculation); on or before billingDate. */
    priceGuaranteeDate: optional(dateTime()),
    /** Overrides the article's default cost center, unless the article has useArticleCostCenter. */
    costCenterId: optional(uuid()),
    /** Overrides the article's default tax code. */
    taxCodeId: optional(uuid()),
  })
  .superRefine((line, ctx) => {
    // A guarantee keeps an earlier price; a guarantee date after the billing date would pull in a future price.
    const { priceGuaranteeDate: g, billingDate: b } = line;
    if (g instanceof Date && b instanceof Date && g.getTime() > b.getTime())
      ctx.addIssue({ code: 'custom', path: ['priceGuaranteeDate'], message: 'must not be after billingDate' });
  });

export const quoteInput = z.strictObject({
  lines: z
    .array(quoteLineInput, { error: 'must be an array of quote lines' })
    .min(1, { error: 'must hold at least 1 line' })
    .max(MAX_QUOTE_LINES, { error: `must hold at most ${MAX_QUOTE_LINES} lines` }),
});

// The answer, for the OpenAPI document only (the service builds it; decimals are JSON numbers).
const amount = () => z.number().meta({ description: 'exact decimal' });
const instant = () => z.string().meta({ format: 'date-time' });

export const quoteLineOutput = z.object({
  articleId: uuid(),
  quantity: amount(),
  billingDate: instant(),
  referenceDate: instant().meta({ description: 'the date the price was chosen for: priceGuaranteeDate when given, else billingDate' }),
  priceId: uuid(),
  unitPrice: amount(),
  netAmount: amount().meta({ description: 'unitPrice × quantity, rounded half-up to 2 decimals' }),
  taxCodeId: uuid(),
  taxRate: amount().meta({ description: 'percentage, copied from the tax code valid on billingDate' }),
  taxAmount: amount().meta({ description: 'netAmount × taxRate / 100, rounded half-up to 2 decimals' }),
  grossAmount: amount().meta({ description: 'netAmount + taxAmount' }),
  costCenterId: uuid().nullable(),
  academicTermId: uuid().nullable().meta({ description: 'the academic term containing billingDate' }),
});

export const quoteOutput = z.object({
  lines: z.array(quoteLineOutput),
  totals: z.object({ netAmount: amount(), taxAmount: amount(), grossAmount: amount() }),
});
