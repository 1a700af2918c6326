// All resolvers of schema.graphql, typed by the generated resolver types (npm run codegen).

import { ALL_RESOURCES } from '../../domain/resources';
import type { Resolvers } from '../__generated__/resolvers-types';
import { scalarResolvers } from '../scalars';
import { changeResolvers } from './changes';
import { connectionResolvers } from './connection';
import { etagResolvers, Mutation } from './mutation';
import { Query } from './query';
import { computed, relations } from './relations';
import { Subscription } from './subscription';
import { recordBy } from '../../lib/collections';

/** Resolver maps whose types overlap (a type's relation, computed and history fields), field by field. */
function mergeTypes(...maps: Resolvers[]): Resolvers {
  const out: Record<string, unknown> = {};
  for (const map of maps)
    for (const [type, fields] of Object.entries(map)) {
      const before = out[type];
      out[type] = { ...(typeof before === 'object' ? before : {}), ...fields };
    }
  return out;
}

export const resolvers: Resolvers = {
  ...scalarResolvers,
  // Enum values whose API string is not a GraphQL name; the others are the API strings themselves.
  TaxType: { VAT: 'VAT', SALES_TAX: 'Sales Tax', EXEMPT: 'Exempt' },
  SortDirection: { ASC: 'asc', DESC: 'desc' },
  Query,
  Mutation,
  Subscription,
  ...mergeTypes(relations, computed, changeResolvers, etagResolvers),
  // Every resource's list field answers a `<Model>Connection` over the service's Page.
  ...recordBy(
    ALL_RESOURCES,
    (r) => `${r.model}Connection` as const,
    () => connectionResolvers(),
  ),
};
