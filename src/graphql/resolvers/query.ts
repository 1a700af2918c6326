// Query: one field per record (ids are GraphQL IDs, as docs/service.md writes them, checked to
// be UUIDs: VALIDATION_FAILED otherwise; null for an unknown id, through the request's loaders, so
// aliased look-ups share a query) and one list field per resource.

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
import { listQuery, nodesSelect } from './connection';
import { parseId } from '../../domain/common/validate';
import { RELATION_NEEDS } from './relations';

const ADDRESS_FIELDS = ['addresses', 'defaultAddress'] as const;
const PRICE_FIELDS = ['prices'] as const;

export const Query: QueryResolvers = {
  paymentSource: (_p, { id }, { loaders }) => loaders.paymentSource.load(parseId(id)),
  paymentSources: (_p, args, { services }, info) => services.paymentSources.list(listQuery(args, paymentSourceFields, info)),

  payment: (_p, { id }, { loaders }) => loaders.payment.load(parseId(id)),
  payments: (_p, args, { services }, info) => services.payments.list(listQuery(args, paymentFields, info)),

  account: (_p, { id }, { loaders }) => loaders.account.load(parseId(id)),
  accounts: (_p, args, { services }, info) => services.accounts.list(listQuery(args, accountFields, info)),

  article: (_p, { id }, { loaders }) => loaders.article.load(parseId(id)),
  // With their prices in the same statement when the query asks for them (as customers' addresses).
  articles: (_p, args, { services }, info) => {
    const q = listQuery(args, articleFields, info, RELATION_NEEDS.Article);
    return nodesSelect(info, PRICE_FIELDS) ? services.articles.withPrices.listSelected(q) : services.articles.listSelected(q);
  },

  articlePrice: (_p, { id }, { loaders }) => loaders.articlePrice.load(parseId(id)),
  articlePrices: (_p, args, { services }, info) => services.articlePrices.list(listQuery(args, articlePriceFields, info)),

  customer: (_p, { id }, { loaders }) => loaders.customer.load(parseId(id)),
  // With their addresses (read by the same statement, which is cheaper than a second one
  // through the loader) only when the query asks for them.
  customers: (_p, args, { services }, info) => {
    const q = listQuery(args, customerFields, info, RELATION_NEEDS.Customer);
    return nodesSelect(info, ADDRESS_FIELDS) ? services.customers.withAddresses.listSelected(q) : services.customers.listSelected(q);
  },

  address: (_p, { id }, { loaders }) => loaders.address.load(parseId(id)),
  addresses: (_p, args, { services }, info) => services.addresses.list(listQuery(args, addressFields, info)),

  taxCode: (_p, { id }, { loaders }) => loaders.taxCode.load(parseId(id)),
  taxCodes: (_p, args, { services }, info) => services.taxCodes.list(listQuery(args, taxCodeFields, info)),

  academicTerm: (_p, { id }, { loaders }) => loaders.academicTerm.load(parseId(id)),
  academicTerms: (_p, args, { services }, info) => services.academicTerms.list(listQuery(args, academicTermFields, info)),

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
