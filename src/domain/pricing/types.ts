import type Decimal from 'decimal.js';

// What a quote answers (POST /api/v1/quotes, GraphQL `quote`). Amounts are decimal.js
// Decimals: exact, serialised as JSON numbers by both doors without float arithmetic.
// The rules (dates, rounding) are documented in rules.ts.

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
