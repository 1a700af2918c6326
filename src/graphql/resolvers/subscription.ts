// The `changes` subscription (served over WebSocket only, ../subscriptions.ts); the Change
// type's fields are resolved as for the changes query (./changes.ts).

import { LOGGED_RESOURCES } from '../../domain/change-log/fields';
import { parseSeq } from '../../domain/change-log/service';
import { AppError, validationFailed } from '../../errors/catalogue';
import type { SubscriptionResolvers } from '../__generated__/resolvers-types';
import type { ChangeModel } from '../models';
import type { GraphqlContext } from '../context';
import { seesPersonalData } from '../../auth/principal';
import { withoutPersonalData } from '../../domain/change-log/redact';

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
    // Redacted per subscriber: the live log is shared, the reader's scope is not.
    resolve: (entry: ChangeModel, _args: unknown, ctx: GraphqlContext) =>
      seesPersonalData(ctx.principal) ? entry : withoutPersonalData(entry),
  },
};
