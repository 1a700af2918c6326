// The change log through GraphQL (docs/changes.md): Query.changes in feed order, the
// `history` field of every resource type (batched per resource through the request's
// loaders: one statement per page, whatever the number of records). Both need the scope
// billing.audit besides the billing.read every query needs.

import { requireScope, SCOPES, seesPersonalData } from '../../auth/principal';
import { entriesFor } from '../../domain/change-log/redact';
import { changeLogFields } from '../../domain/change-log/fields';
import { parseSeq } from '../../domain/change-log/service';
import type { LoggedResource } from '../../domain/change-log/append';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../domain/common/list';
import { ALL_RESOURCES } from '../../domain/resources';
import { validationFailed } from '../../errors/catalogue';
import type { QueryChangesArgs, Resolvers } from '../__generated__/resolvers-types';
import type { GraphqlContext } from '../context';
import type { ChangeConnectionModel } from '../models';
import { graphqlWhereToFilter } from '../where';
import { selects } from './selection';
import type { GraphQLResolveInfo } from 'graphql';
import { recordBy } from '../../lib/collections';

export async function changes(args: QueryChangesArgs, ctx: GraphqlContext, info: GraphQLResolveInfo): Promise<ChangeConnectionModel> {
  requireScope(ctx.principal, SCOPES.audit);
  const first = args.first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 0 || first > MAX_PAGE_SIZE)
    throw validationFailed([{ field: 'first', message: `must be a whole number from 0 to ${MAX_PAGE_SIZE}` }]);
  return ctx.services.changeLog.feed({
    filter: graphqlWhereToFilter(args.where, changeLogFields),
    after: args.after === undefined || args.after === null ? undefined : parseSeq('after', args.after),
    limit: first,
    count: selects(info, 'totalCount'),
    personalData: seesPersonalData(ctx.principal),
  });
}

const history = (resource: LoggedResource) => async (record: { id: string }, _a: unknown, ctx: GraphqlContext) => {
  requireScope(ctx.principal, SCOPES.audit);
  return entriesFor(seesPersonalData(ctx.principal), await ctx.loaders.history(resource).load(record.id));
};

export const changeResolvers: Resolvers = {
  ChangeOperation: { CREATED: 'created', DELETED: 'deleted', UPDATED: 'updated' },
  Change: {
    changes: (entry) => Object.entries(entry.changes).map(([field, c]) => ({ field, old: c.old, new: c.new })),
    redacted: (entry) => [...(entry.redacted ?? [])],
  },
  ChangeConnection: {
    nodes: (page) => page.items,
    edges: (page) => page.items.map((node) => ({ cursor: node.seq, node })),
    totalCount: (page) => {
      if (page.totalCount === undefined) throw new Error('totalCount was not computed for this page');
      return page.totalCount;
    },
    pageInfo: (page) => ({ hasNextPage: page.hasMore, endCursor: page.cursor }),
  },
  // Every resource's records have their history.
  ...recordBy(
    ALL_RESOURCES,
    (r) => r.model,
    (r) => ({ history: history(r.name) }),
  ),
};
