// All resolvers of schema.graphql, typed by the generated resolver types (npm run codegen).

import type { ArticlePrice } from '../../domain/article-price/service';
import type { Resolvers } from '../__generated__/resolvers-types';
import type { AcademicTermModel, AccountModel, AddressModel, ArticleModel, CustomerModel, PaymentModel, PaymentSourceModel, TaxCodeModel } from '../models';
import { scalarResolvers } from '../scalars';
import { changeResolvers } from './changes';
import { connectionResolvers } from './connection';
import { Mutation } from './mutation';
import { Query } from './query';
import { relations } from './relations';
import { Subscription } from './subscription';

/** Two resolver maps whose types may overlap (relations and history fields of one type). */
function mergeTypes(a: Resolvers, b: Resolvers): Resolvers {
  const out: Record<string, unknown> = { ...a };
  for (const [type, fields] of Object.entries(b)) out[type] = { ...(out[type] as object | undefined), ...(fields as object) };
  return out as Resolvers;
}

export const resolvers: Resolvers = {
  ...scalarResolvers,
  // Enum values whose API string is not a GraphQL name; the others are the API strings themselves.
  TaxType: { VAT: 'VAT', SALES_TAX: 'Sales Tax', EXEMPT: 'Exempt' },
  SortDirection: { ASC: 'asc', DESC: 'desc' },
  Query,
  Mutation,
  Subscription,
  ...mergeTypes(relations, changeResolvers),
  PaymentSourceConnection: connectionResolvers<PaymentSourceModel>(),
  PaymentConnection: connectionResolvers<PaymentModel>(),
  AccountConnection: connectionResolvers<AccountModel>(),
  ArticleConnection: connectionResolvers<ArticleModel>(),
  ArticlePriceConnection: connectionResolvers<ArticlePrice>(),
  CustomerConnection: connectionResolvers<CustomerModel>(),
  AddressConnection: connectionResolvers<AddressModel>(),
  TaxCodeConnection: connectionResolvers<TaxCodeModel>(),
  AcademicTermConnection: connectionResolvers<AcademicTermModel>(),
};
