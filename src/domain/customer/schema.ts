import { z } from 'zod';
import { addressRecord } from '../address/schema';
import { clashingDefaultAddress } from '../address/rules';
import { optionalText, text, uuid } from '../common/schemas';

export const customerRecord = z
  .strictObject({
    id: uuid(),
    firstName: text(200),
    lastName: text(200),
    matriculationId: optionalText(50),
    cmsStudentId: optionalText(50),
    email: z
      .email({ error: 'must be an e-mail address' })
      .max(320, { error: 'must have at most 320 characters' })
      .nullable()
      .optional()
      .transform((v) => v ?? null),
    debtorNumber: text(50),
    creditorNumber: optionalText(50),
    receivableAccountId: uuid().nullable().default(null),
    prepaymentAccountId: uuid().nullable().default(null),
    // In an import file an address may omit customerId: it belongs to the customer around it.
    addresses: z.array(addressRecord.extend({ customerId: uuid().optional() })).default([]),
  })
  .superRefine((c, ctx) => {
    c.addresses.forEach((a, i) => {
      if (a.customerId !== undefined && a.customerId !== c.id)
        ctx.addIssue({
          code: 'custom',
          path: ['addresses', i, 'customerId'],
          message: 'must be the id of the customer it is listed under',
        });
    });
    const addresses = c.addresses.map((a) => ({ ...a, customerId: c.id }));
    if (addresses.some((a, i) => clashingDefaultAddress(a, addresses.slice(0, i))))
      ctx.addIssue({ code: 'custom', path: ['addresses'], message: 'at most one address can be the default' });
  });

/** An address inside a customer's body: its id (kept when given, else assigned) and values; the customer is the one around it. */
export const customerAddressInput = z.strictObject(addressRecord.shape).omit({ customerId: true }).extend({ id: uuid().optional() });

/** Body of POST and PUT /customers: the record without its id; `addresses` is the whole set (PUT replaces it). */
export const customerInput = z
  .strictObject(customerRecord.shape)
  .omit({ id: true })
  .extend({ addresses: z.array(customerAddressInput).default([]) })
  .superRefine((c, ctx) => {
    if (c.addresses.filter((a) => a.isDefault).length > 1)
      ctx.addIssue({ code: 'custom', path: ['addresses'], message: 'at most one address can be the default' });
  });
export type CustomerInput = z.output<typeof customerInput>;
