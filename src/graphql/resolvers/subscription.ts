// The `changes` subscription (served over WebSocket only, ../subscriptions.ts) and the
// Change type's computed field.

import { LOGGED_RESOURCES } from '../../domain/change-log/fields';
import { parseSeq, type ChangeValue } from '../../domain/change-log/service';
import { AppError, validationFailed } from '../../errors/catalogue';
import type { ChangeResolvers, SubscriptionResolvers } from '../__generated__/resolvers-types';
import type { ChangeModel } from '../models';

const text = (v: ChangeValue): string | null => (v === null ? null : typeof v === 'object' ? v.toFixed() : String(v));

export const Subscription: SubscriptionResolvers = {
  changes: {
    subscribe: (_root, args, ctx) => {
      if (!ctx.live) throw new AppError('INTERNAL', 'Subscriptions are not served here');
      const resource = args.resource ?? undefined;
      if (resource !== undefined && !Object.hasOwn(LOGGED_RESOURCES, resource)) {
        throw validationFailed([{ field: 'resource', message: `must be one of ${Object.keys(LOGGED_RESOURCES).join(', ')}` }]);
      }
      const after = args.after === null || args.after === undefined ? undefined : parseSeq('after', args.after);
      return ctx.live.follow({ after, resource });
    },
    resolve: (entry: ChangeModel) => entry,
  },
};

export const Change: ChangeResolvers = {
  changes: (e) => Object.entries(e.changes).map(([field, c]) => ({ field, old: text(c.old), new: text(c.new) })),
};
