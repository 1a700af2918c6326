import Decimal from 'decimal.js';
import { z } from 'zod';
import { GUID_PATTERN, parseInstant, plainDecimal, textProblem } from '../../query/values';

// Building blocks of every validation schema (bodies, import records, OpenAPI document).
// Decimals are carried as exact decimal text from the JSON number to the database: a JSON
// number is read through its shortest round-trip text, which is the text the client wrote
// for every value with at most 15 significant digits; anything needing more is refused.

export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

export const uuid = () =>
  z
    .string({ error: 'must be a UUID' })
    .regex(GUID_PATTERN, { error: 'must be a UUID' })
    .transform((v) => v.toLowerCase())
    .meta({ format: 'uuid', example: '3fa85f64-5717-4562-b3fc-2c963f66afa6' });

export { isUuid } from '../../query/values';

/** Text of 1..max characters (after trimming nothing: what the client sent is kept). */
export const text = (max: number, min = 1) =>
  z
    .string({ error: 'must be a string' })
    .min(min, { error: min === 1 ? 'must not be empty' : `must have at least ${min} characters` })
    .max(max, { error: `must have at most ${max} characters` })
    .superRefine((v, ctx) => {
      const problem = textProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

export const optionalText = (max: number) =>
  text(max, 0)
    .nullable()
    .optional()
    .transform((v) => v ?? null);

interface DecimalOptions {
  readonly scale: number;
  readonly precision: number;
  readonly positive?: boolean;
  readonly nonNegative?: boolean;
}

/** A JSON number (or a string in plain decimal notation) → exact decimal text, checked for scale and size. */
export const decimal = (o: DecimalOptions) =>
  z
    .union([z.number(), z.string()], { error: 'must be a number' })
    .transform((raw, ctx) => {
      let d: Decimal;
      try {
        if (typeof raw === 'number' && !Number.isFinite(raw)) throw new Error('not finite');
        // decimal.js reads `0x10` as 16 and `1e2` as 100: text must be plain notation first.
        const text = typeof raw === 'number' ? String(raw) : plainDecimal(raw);
        if (text === undefined) {
          ctx.addIssue({ code: 'custom', message: 'must be a number; as a string, in plain decimal notation (12.50)' });
          return z.NEVER;
        }
        d = new Decimal(text);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a number' });
        return z.NEVER;
      }
      if (!d.isFinite()) {
        ctx.addIssue({ code: 'custom', message: 'must be a finite number' });
        return z.NEVER;
      }
      if (d.decimalPlaces() > o.scale) {
        ctx.addIssue({ code: 'custom', message: `must have at most ${o.scale} decimal places` });
        return z.NEVER;
      }
      if (d.abs().greaterThanOrEqualTo(new Decimal(10).pow(o.precision - o.scale))) {
        ctx.addIssue({ code: 'custom', message: 'is too large' });
        return z.NEVER;
      }
      if (o.positive && !d.greaterThan(0)) {
        ctx.addIssue({ code: 'custom', message: 'must be greater than 0' });
        return z.NEVER;
      }
      if (o.nonNegative && d.isNegative()) {
        ctx.addIssue({ code: 'custom', message: 'must not be negative' });
        return z.NEVER;
      }
      return d.toFixed();
    })
    .meta({ type: 'number' } as Record<string, unknown>);

export const money = (opts: { positive?: boolean } = {}) => decimal({ scale: 4, precision: 19, nonNegative: true, ...opts });
export const rate = () => decimal({ scale: 2, precision: 7, nonNegative: true });

/** ISO 8601 date-time with a zone (or a plain date, meaning midnight UTC) → Date (src/query/values.ts). */
export const dateTime = () =>
  z
    .string({ error: 'must be an ISO 8601 date-time string' })
    .transform((v, ctx) => {
      const d = parseInstant(v);
      if (typeof d === 'string') {
        ctx.addIssue({ code: 'custom', message: `must be an ISO 8601 date-time with a time zone, e.g. 2026-01-01T00:00:00Z: ${d}` });
        return z.NEVER;
      }
      return d;
    })
    .meta({ format: 'date-time' });

export const bool = () => z.boolean({ error: 'must be true or false' });
