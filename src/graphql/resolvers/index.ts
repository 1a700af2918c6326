// All resolvers of schema.graphql, typed by the generated resolver types (npm run codegen).

import type { ArticlePrice } from '../../domain/article-price/service';
import type { Resolvers } from '../__generated__/resolvers-types';
import type { AcademicTermModel, AccountModel, AddressModel, ArticleModel, CustomerModel, PaymentModel, PaymentSourceModel, TaxCodeModel } from '../models';
import { scalarResolvers } from '../scalars';
import { connectionResolvers } from './connection';
import { Mutation } from './mutation';
import { Query } from './query';
import { relations } from './relations';
import { Change, Subscription } from './subscription';

export const resolvers: Resolvers = {
  ...scalarResolvers,
  // Enum values whose API string is not a GraphQL name; the others are the API strings themselves.
  TaxType: { VAT: 'VAT', SALES_TAX: 'Sales Tax', EXEMPT: 'Exempt' },
  SortDirection: { ASC: 'asc', DESC: 'desc' },
  Query,
  Mutation,
  Subscription,
  Change,
  ...relations,
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
