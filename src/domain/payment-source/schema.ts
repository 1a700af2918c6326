import { z } from 'zod';
import { auditFields } from '../common/audit';
import { bool, optionalText, text, uuid } from '../common/schemas';
import { SOURCE_TYPES } from './fields';

const sourceType = () => z.enum(SOURCE_TYPES, { error: `must be one of ${SOURCE_TYPES.join(', ')}` });

/** Body of POST and PUT /payment-sources: PUT is a full replacement, so the same schema. */
export const paymentSourceInput = z.strictObject({
  code: text(50),
  name: text(200),
  description: optionalText(1000),
  accountId: uuid(),
  sourceType: sourceType(),
  isActive: bool().default(true),
  isDefault: bool().default(false),
});
export type PaymentSourceInput = z.output<typeof paymentSourceInput>;

/** GraphQL updatePaymentSource: partial input, omitted fields keep their value. */
export const paymentSourcePatch = z.strictObject({
  code: text(50).optional(),
  name: text(200).optional(),
  description: text(1000, 0).nullable().optional(),
  accountId: uuid().optional(),
  sourceType: sourceType().optional(),
  isActive: bool().optional(),
  isDefault: bool().optional(),
});

/** A payment source in an import file: the record with its id and audit fields. */
export const paymentSourceRecord = paymentSourceInput.extend({ id: uuid(), ...auditFields });
