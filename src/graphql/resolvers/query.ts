// Query: one field per record (ids are GraphQL IDs, as docs/service.md writes them, checked to
// be UUIDs: VALIDATION_FAILED otherwise; null for an unknown id, through the request's loaders, so
// aliased look-ups share a query) and one list field per resource. Both are derived from the
// resource declarations: `paymentSource` reads the loader of that name, `paymentSources` the
// service of that name (the resource's `plural`); test/doors.test.ts holds every resource to both.

import type { GraphQLResolveInfo } from 'graphql';
import type { ListQuery } from '../../domain/common/list';
import { singleFieldOf, type Resource } from '../../domain/common/resource';
import { changes } from './changes';
import { parseId } from '../../domain/common/validate';
import { ALL_RESOURCES, RESOURCES, type ResourcePlural } from '../../domain/resources';
import type { QueryResolvers } from '../__generated__/resolvers-types';
import type { GraphqlContext } from '../context';
import type { Loaders } from '../loaders';
import { listQuery, nodesSelect, type ListArgs, type RelationNeeds } from './connection';
import { RELATION_NEEDS } from './relations';

const ADDRESS_FIELDS = ['addresses', 'defaultAddress'] as const;
const PRICE_FIELDS = ['prices'] as const;

interface ById {
  load(id: string): Promise<unknown>;
}
interface Lists {
  list(q: ListQuery): Promise<unknown>;
}
const NEEDS: Readonly<Partial<Record<string, RelationNeeds>>> = RELATION_NEEDS;

/**
 * The single and list fields of one resource. Their results are the loader's and the
 * service's own records; the generated types cannot follow a field name computed from the
 * declaration, so the pair is cast to the schema's resolver type.
 */
function resourceFields(r: Resource): QueryResolvers {
  const single = singleFieldOf(r);
  const fields = {
    [single]: (_p: unknown, { id }: { id: string }, { loaders }: GraphqlContext) => (loaders[single as keyof Loaders] as ById).load(parseId(id)),
    [r.plural]: (_p: unknown, args: ListArgs, { services }: GraphqlContext, info: GraphQLResolveInfo) =>
      (services[r.plural as ResourcePlural] as Lists).list(listQuery(args, r.fields, info, NEEDS[r.model])),
  };
  return fields;
}

export const Query: QueryResolvers = {
  ...ALL_RESOURCES.reduce<QueryResolvers>((all, r) => ({ ...all, ...resourceFields(r) }), {}),

  // With their prices in the same statement when the query asks for them (as customers' addresses).
  articles: (_p, args, { services }, info) => {
    const q = listQuery(args, RESOURCES.Article.fields, info, RELATION_NEEDS.Article);
    return nodesSelect(info, PRICE_FIELDS) ? services.articles.withPrices.list(q) : services.articles.list(q);
  },
  // With their addresses (read by the same Prisma call, which is cheaper than a second
  // one through the loader) only when the query asks for them.
  customers: (_p, args, { services }, info) => {
    const q = listQuery(args, RESOURCES.Customer.fields, info, RELATION_NEEDS.Customer);
    return nodesSelect(info, ADDRESS_FIELDS)
      ? services.customers.withAddresses.list(q)
      : services.customers.list(q);
  },

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
