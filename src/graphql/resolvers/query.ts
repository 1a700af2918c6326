// Query: one field per record (ids are GraphQL IDs, as docs/service.md writes them, checked to
// be UUIDs: VALIDATION_FAILED otherwise; null for an unknown id) and one list field per
// resource; the relations a query selects on the records are read with them (src/db/read). Both are derived from the
// resource declarations: `paymentSource` reads the request's loader of PaymentSource records,
// `paymentSources` the service of that name (the resource's `plural`); test/doors.test.ts holds every resource to both.

import type { GraphQLResolveInfo } from 'graphql';
import { seesPersonalData } from '../../auth/principal';
import type { ListQuery } from '../../domain/common/list';
import { singleFieldOf } from '../../domain/common/declaration';
import type { Expansion } from '../../query/filter-tree';
import { changes } from './changes';
import { parseId } from '../../domain/common/validate';
import { ALL_RESOURCES, type DeclaredResource, type ResourceModel } from '../../domain/resources';
import type { QueryResolvers } from '../__generated__/resolvers-types';
import type { GraphqlContext } from '../context';
import type DataLoader from 'dataloader';
import { listQuery, type ListArgs } from './connection';
import { recordSelection } from './selection';

/** What a resource's service offers the single and list fields. */
interface Reads {
  listSelected(q: ListQuery): Promise<unknown>;
  getSelected(id: string, select: readonly string[] | undefined, include: readonly Expansion[]): Promise<unknown>;
}

/**
 * One record by id: through the request's loader (aliased look-ups share a statement), or,
 * when the selection shows relations, in one statement with those relations inside.
 */
function one(
  loader: DataLoader<string, unknown>,
  read: Reads,
  rawId: string,
  model: ResourceModel,
  info: GraphQLResolveInfo,
): Promise<unknown> {
  const id = parseId(rawId);
  const { select, include } = recordSelection(info, model);
  return include.length === 0 ? loader.load(id) : read.getSelected(id, select, include);
}

/**
 * The single and list fields of one resource. Their results are the loader's and the
 * service's own records; the field names are computed from the declaration, so the object
 * has an index signature, which QueryResolvers (one optional property per field) accepts.
 */
function resourceFields(r: DeclaredResource): QueryResolvers {
  return {
    [singleFieldOf(r)]: (_p: unknown, { id }: { id: string }, { loaders, services }: GraphqlContext, info: GraphQLResolveInfo) =>
      one(loaders.record(r.model), services.readers[r.model], id, r.model, info),
    // Only the fields and relations the query selects are read.
    [r.plural]: (_p: unknown, args: ListArgs, { services, principal }: GraphqlContext, info: GraphQLResolveInfo) => {
      const read: Reads = services.readers[r.model];
      return read.listSelected({ ...listQuery(args, r, info), personalData: seesPersonalData(principal) });
    },
  };
}

export const Query: QueryResolvers = {
  ...ALL_RESOURCES.reduce<QueryResolvers>((all, r) => ({ ...all, ...resourceFields(r) }), {}),

  changes: (_p, args, ctx, info) => changes(args, ctx, info),

  // The service validates the input as REST receives it: dates as ISO text, not the DateTime scalar's Dates.
  quote: (_p, { input }, { services }) =>
    services.pricing.quote({
      lines: input.lines.map(({ billingDate, priceGuaranteeDate, ...line }) => ({
        ...line,
        billingDate: billingDate.toISOString(),
        ...(priceGuaranteeDate === undefined ? {} : { priceGuaranteeDate: priceGuaranteeDate?.toISOString() ?? null }),
      })),
    }),
};
