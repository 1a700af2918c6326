// Query: one field per record (ids are GraphQL IDs, as docs/service.md writes them, checked to
// be UUIDs: VALIDATION_FAILED otherwise; null for an unknown id) and one list field per
// resource. The relations a query selects on the records are read with them (src/db/read).

import { academicTermFields } from '../../domain/academic-term/fields';
import { accountFields } from '../../domain/account/fields';
import { addressFields } from '../../domain/address/fields';
import { articlePriceFields } from '../../domain/article-price/fields';
import { articleFields } from '../../domain/article/fields';
import { customerFields } from '../../domain/customer/fields';
import { paymentSourceFields } from '../../domain/payment-source/fields';
import { paymentFields } from '../../domain/payment/fields';
import { taxCodeFields } from '../../domain/tax-code/fields';
import type { QueryResolvers } from '../__generated__/resolvers-types';
import type DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import { listQuery, recordRelations, type RelationReads } from './connection';
import { parseId } from '../../domain/common/validate';
import { RELATION_NEEDS, RELATION_READS } from './relations';

/**
 * One record by id: through the request's loader (aliased look-ups share a statement), or,
 * when the selection shows relations, in one statement with those relations inside.
 */
function one<T>(
  loader: DataLoader<string, T | null>,
  read: { getMany(ids: readonly string[], include: readonly string[]): Promise<T[]> },
  rawId: string,
  info: GraphQLResolveInfo,
  reads: RelationReads,
): Promise<T | null> {
  const id = parseId(rawId);
  const include = recordRelations(info, reads);
  return include.length === 0 ? loader.load(id) : read.getMany([id], include).then((found) => found[0] ?? null);
}

export const Query: QueryResolvers = {
  paymentSource: (_p, { id }, { loaders, services }, info) => one(loaders.paymentSource, services.paymentSources, id, info, RELATION_READS.PaymentSource),
  paymentSources: (_p, args, { services }, info) => services.paymentSources.list(listQuery(args, paymentSourceFields, info, undefined, RELATION_READS.PaymentSource)),

  payment: (_p, { id }, { loaders, services }, info) => one(loaders.payment, services.payments, id, info, RELATION_READS.Payment),
  payments: (_p, args, { services }, info) => services.payments.list(listQuery(args, paymentFields, info, undefined, RELATION_READS.Payment)),

  account: (_p, { id }, { loaders, services }, info) => one(loaders.account, services.accounts, id, info, RELATION_READS.Account),
  accounts: (_p, args, { services }, info) => services.accounts.list(listQuery(args, accountFields, info, undefined, RELATION_READS.Account)),

  article: (_p, { id }, { loaders, services }, info) => one(loaders.article, services.articles, id, info, RELATION_READS.Article),
  // Reading only the fields the query selects, and the relations it selects with them.
  articles: (_p, args, { services }, info) => services.articles.listSelected(listQuery(args, articleFields, info, RELATION_NEEDS.Article, RELATION_READS.Article)),

  articlePrice: (_p, { id }, { loaders, services }, info) => one(loaders.articlePrice, services.articlePrices, id, info, RELATION_READS.ArticlePrice),
  articlePrices: (_p, args, { services }, info) => services.articlePrices.list(listQuery(args, articlePriceFields, info, undefined, RELATION_READS.ArticlePrice)),

  customer: (_p, { id }, { loaders, services }, info) => one(loaders.customer, services.customers, id, info, RELATION_READS.Customer),
  customers: (_p, args, { services }, info) => services.customers.listSelected(listQuery(args, customerFields, info, RELATION_NEEDS.Customer, RELATION_READS.Customer)),

  address: (_p, { id }, { loaders, services }, info) => one(loaders.address, services.addresses, id, info, RELATION_READS.Address),
  addresses: (_p, args, { services }, info) => services.addresses.list(listQuery(args, addressFields, info, undefined, RELATION_READS.Address)),

  taxCode: (_p, { id }, { loaders, services }, info) => one(loaders.taxCode, services.taxCodes, id, info, RELATION_READS.TaxCode),
  taxCodes: (_p, args, { services }, info) => services.taxCodes.list(listQuery(args, taxCodeFields, info, undefined, RELATION_READS.TaxCode)),

  academicTerm: (_p, { id }, { loaders, services }, info) => one(loaders.academicTerm, services.academicTerms, id, info, RELATION_READS.AcademicTerm),
  academicTerms: (_p, args, { services }, info) => services.academicTerms.list(listQuery(args, academicTermFields, info, undefined, RELATION_READS.AcademicTerm)),

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
