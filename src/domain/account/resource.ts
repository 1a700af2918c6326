import { defineResource, many } from '../common/declaration';
import { accountFields } from './fields';
import { accountInput, accountRecord } from './schema';

export const accountResource = defineResource({
  model: 'Account',
  collection: true,
  fields: accountFields,
  record: accountRecord,
  input: accountInput,
  relations: {
    paymentSources: many('PaymentSource', 'accountId', [{ field: 'code', direction: 'asc' }]),
  },
  import: { enumTypes: { type: '"AccountType"' } },
});
