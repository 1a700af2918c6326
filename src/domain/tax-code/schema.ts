import { z } from 'zod';
import { auditFields } from '../common/audit';
import { bool, dateTime, optionalText, rate, text, uuid } from '../common/schemas';
import { TAX_TYPES } from './fields';

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
  .refine((t) => t.validTo === null || t.validTo >= t.validFrom, {
    path: ['validTo'],
    error: 'must not be before validFrom',
  });
