// Mutations: the service layer validates and keeps every rule; a rejected write changes nothing.

import type { Actor } from '../../domain/context';
import type { MutationResolvers } from '../__generated__/resolvers-types';
import type { GraphqlContext } from '../context';

/** The caller of a mutation, with the request id its change-log entries carry. */
const actor = ({ principal, requestId }: GraphqlContext): Actor => ({ userId: principal.userId, requestId });

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
  createPaymentSource: (_p, { input }, ctx) => ctx.services.paymentSources.create(plain(input, ['isActive', 'isDefault']), actor(ctx)),
  updatePaymentSource: (_p, { id, input }, ctx) => ctx.services.paymentSources.patch(id, plain(input), actor(ctx)),
  deletePaymentSource: async (_p, { id }, ctx) => {
    await ctx.services.paymentSources.delete(id, actor(ctx));
    return true;
  },
  // paymentSourceId and receivedAt are optional, not nullable: an explicit null means "not given".
  createPayment: (_p, { input }, ctx) => ctx.services.payments.create(plain(input, ['paymentSourceId', 'receivedAt']), actor(ctx)),
};
