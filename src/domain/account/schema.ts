import { z } from 'zod';
import { bool, text, uuid } from '../common/schemas';
import { ACCOUNT_TYPES } from './fields';

/** A financial account as the API shows it and the import accepts it. */
export const accountRecord = z.strictObject({
  id: uuid(),
  code: text(50),
  name: text(200),
  type: z.enum(ACCOUNT_TYPES, { error: `must be one of ${ACCOUNT_TYPES.join(', ')}` }),
  isActive: bool().default(true),
});

/** Body of POST and PUT /accounts (PATCH merges onto the record): the record without its id. */
export const accountInput = accountRecord.omit({ id: true });
export type AccountInput = z.output<typeof accountInput>;
