import { z } from 'zod';
import { auditFields } from '../common/audit';
import { bool, dateTime, optionalText, rate, text, uuid } from '../common/schemas';
import { TAX_TYPES } from './fields';
import { rateFault, validityOk } from './rules';

export const taxCodeRecord = z
  .strictObject({
    id: uuid(),
    code: text(50),
    name: text(200),
    description: optionalText(1000),
    rate: rate(),
    taxType: z.enum(TAX_TYPES, { error: `must be one of ${TAX_TYPES.join(', ')}` }),
    taxAccountId: uuid(),
    revenueAccountId: uuid(),
    validFrom: dateTime(),
    validTo: dateTime().nullable().default(null),
    isActive: bool().default(true),
    ...auditFields,
  })
  .refine(validityOk, {
    path: ['validTo'],
    error: 'must not be before validFrom',
  })
  .superRefine(rateRule);

/** Body of POST and PUT /tax-codes: the record without what the server assigns, with the same rules. */
export const taxCodeInput = z
  .strictObject(taxCodeRecord.shape)
  .omit({ id: true, createdAt: true, createdById: true, updatedAt: true, updatedById: true })
  .refine(validityOk, { path: ['validTo'], error: 'must not be before validFrom' })
  .superRefine(rateRule);
export type TaxCodeInput = z.output<typeof taxCodeInput>;

function rateRule(t: { readonly rate: string; readonly taxType: string }, ctx: z.RefinementCtx): void {
  const fault = rateFault(t.rate, t.taxType);
  if (fault) ctx.addIssue({ code: 'custom', path: ['rate'], message: fault });
}
