import { defineResource, many } from '../common/resource';
import { accountFields } from './fields';

export const accountResource = defineResource({
  model: 'Account',
  name: 'account',
  label: 'account',
  entitySet: { name: 'Accounts', path: 'accounts' },
  fields: accountFields,
  relations: {
    paymentSources: many('PaymentSource', 'accountId', [{ field: 'code', direction: 'asc' }]),
  },
});
