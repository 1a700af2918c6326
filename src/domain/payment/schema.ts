import { z } from 'zod';
import { dateTime, money, optionalText, uuid } from '../common/schemas';

/** Body of POST /payments; without paymentSourceId the default payment source is used. */
export const paymentInput = z.strictObject({
  paymentSourceId: uuid().optional(),
  customerId: uuid(),
  amount: money({ positive: true }),
  receivedAt: dateTime().optional(),
  reference: optionalText(200),
});

/** A payment as the API returns it. */
export const paymentRecord = paymentInput.extend({
  id: uuid(),
  paymentSourceId: uuid(),
  receivedAt: dateTime(),
  createdAt: dateTime(),
  createdById: uuid(),
});
