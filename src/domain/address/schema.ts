import { z } from 'zod';
import { bool, text, uuid } from '../common/schemas';

export const addressRecord = z.strictObject({
  id: uuid(),
  customerId: uuid(),
  addressType: text(50),
  street: text(200),
  city: text(100),
  postalCode: text(20),
  country: text(100),
  isDefault: bool().default(false),
});
