import type Decimal from 'decimal.js';

// What a quote answers (POST /api/v1/quotes, GraphQL `quote`). Amounts are decimal.js
// Decimals: exact, serialised as JSON numbers by both doors without float arithmetic.
// The rules (dates, rounding) are documented in rules.ts.

export interface QuoteLineInput {
  readonly articleId: string;
  /** Exact decimal text, > 0. */
  readonly quantity: string;
  readonly billingDate: Date;
  /** Price guarantee: the contract's reference date (e.g. matriculation) replaces the billing date for the price. */
  readonly priceGuaranteeDate?: Date | undefined;
  readonly costCenterId?: string | undefined;
  readonly taxCodeId?: string | undefined;
}

export interface QuoteLine {
  readonly articleId: string;
  readonly quantity: Decimal;
  readonly billingDate: Date;
  /** The date the price was chosen for: priceGuaranteeDate when given, else billingDate. The tax code follows billingDate. */
  readonly referenceDate: Date;
  readonly priceId: string;
  readonly unitPrice: Decimal;
  readonly netAmount: Decimal;
  readonly taxCodeId: string;
  readonly taxRate: Decimal;
  readonly taxAmount: Decimal;
  readonly grossAmount: Decimal;
  /** The article's cost center when useArticleCostCenter, else the line's, else the article's default. */
  readonly costCenterId: string | null;
  /** The academic term whose days contain billingDate, null when none does. */
  readonly academicTermId: string | null;
}

export interface QuoteTotals {
  readonly netAmount: Decimal;
  readonly taxAmount: Decimal;
  readonly grossAmount: Decimal;
}

export interface Quote {
  readonly lines: readonly QuoteLine[];
  readonly totals: QuoteTotals;
}

/** The pricing service both doors call; `body` is validated inside (VALIDATION_FAILED with `lines[0].quantity` paths). */
export interface PricingApi {
  quote(body: unknown): Promise<Quote>;
  /** The effective price of an article on a date (Article.priceAt), null when none applies (or no such article). */
  priceAt(articleId: string, date: Date): Promise<{ id: string; articleId: string; amount: Decimal; validFrom: Date } | null>;
}
