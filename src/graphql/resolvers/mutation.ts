// Mutations: the service layer validates and keeps every rule; a rejected write changes nothing.

import type { MutationResolvers } from '../__generated__/resolvers-types';

/** GraphQL input objects have no prototype; the services get plain objects without absent-valued keys. */
function plain(input: object, dropNull: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined || (v === null && dropNull.includes(k))) continue;
    out[k] = v instanceof Date ? v.toISOString() : v;
  }
  return out;
}

export const Mutation: MutationResolvers = {
  // isActive and isDefault are optional with defaults (true, false): null means "not given".
  createPaymentSource: (_p, { input }, { services, principal }) =>
    services.paymentSources.create(plain(input, ['isActive', 'isDefault']), principal),
  updatePaymentSource: (_p, { id, input }, { services, principal }) => services.paymentSources.patch(id, plain(input), principal),
  deletePaymentSource: async (_p, { id }, { services, principal }) => {
    await services.paymentSources.delete(id, principal);
    return true;
  },
  // paymentSourceId and receivedAt are optional, not nullable: an explicit null means "not given".
  createPayment: (_p, { input }, { services, principal }) =>
    services.payments.create(plain(input, ['paymentSourceId', 'receivedAt']), principal),
};
