// Relation fields. Each goes through the request's DataLoaders (src/graphql/loaders.ts):
// one SQL query per relation and batch, whatever the number of parents. Scalar fields have
// no resolvers: the default resolver reads them off the service records.

import { AppError } from '../../errors/catalogue';
import type { Resolvers } from '../__generated__/resolvers-types';
import type { AddressModel, CustomerModel } from '../models';
import type { GraphqlContext } from '../context';
import type { ModelName } from '../../domain/common/resource';
import { ALL_RESOURCES } from '../../domain/resources';

/** A to-one relation that the database guarantees (a foreign key): missing means a concurrent delete. */
function required<T>(value: T | null, what: string, id: string): T {
  if (value === null) throw new AppError('NOT_FOUND', `No ${what} with id ${id}`);
  return value;
}

const addressesOf = (c: CustomerModel, ctx: GraphqlContext): AddressModel[] | Promise<AddressModel[]> =>
  c.addresses ?? ctx.loaders.addressesByCustomer.load(c.id);

/** A relation read with the record (connection.ts RelationReads), or undefined when it was not. */
const held = <T>(value: T | undefined, load: () => T | Promise<T>): T | Promise<T> => (value === undefined ? load() : value);

/**
 * For each relation field of a type, the declared relation (src/domain/<resource>/resource.ts)
 * it shows. Selected, the relation is read inside the records' own statement (src/db/read),
 * not through a loader afterwards: an article with its tax code is one statement.
 */
export type RelationReads = Readonly<Record<string, string>>;

/** For each relation field of a type, the fields of its own record that the field's resolver reads besides the id. */
export type RelationNeeds = Readonly<Record<string, readonly string[]>>;

/** Relation fields by other names than the relation they show. */
const SHOWN_AS: Readonly<Partial<Record<ModelName, RelationReads>>> = { Customer: { defaultAddress: 'addresses' } };

/** Each type's relation fields as the declared relations they show: the same names, and those of SHOWN_AS. */
export const RELATION_READS: Readonly<Partial<Record<ModelName, RelationReads>>> = Object.fromEntries(
  ALL_RESOURCES.map((r) => [r.model, { ...Object.fromEntries(Object.keys(r.relations).map((name) => [name, name])), ...SHOWN_AS[r.model] }]),
);

const defaultOf = (addresses: readonly AddressModel[]): AddressModel | null => addresses.find((a) => a.isDefault) ?? null;

/** Fields of a type that are neither record fields nor declared relations, and what they read off the record besides its id. */
const COMPUTED: Readonly<Partial<Record<ModelName, RelationNeeds>>> = { Article: { priceAt: [] }, Customer: { defaultAddress: [] } };

/**
 * What the fields below (and `history`) read off their record besides its id: a to-one
 * relation its foreign key. With it, lists and single records read only the fields a query
 * selects (./selection.ts); a field missing here makes its record read every field.
 */
export const RELATION_NEEDS: Readonly<Partial<Record<ModelName, RelationNeeds>>> = Object.fromEntries(
  ALL_RESOURCES.map((r) => [
    r.model,
    { ...Object.fromEntries(Object.entries(r.relations).map(([name, rel]) => [name, rel.kind === 'one' ? [rel.foreignKey] : []])), history: [], ...COMPUTED[r.model] },
  ]),
);

export const relations: Resolvers = {
  PaymentSource: {
    account: async (p, _a, { loaders }) => required(await held(p.account, () => loaders.account.load(p.accountId)), 'account', p.accountId),
    payments: (p, _a, { loaders }) => held(p.payments, () => loaders.paymentsBySource.load(p.id)),
  },
  Payment: {
    paymentSource: async (p, _a, { loaders }) =>
      required(await held(p.paymentSource, () => loaders.paymentSource.load(p.paymentSourceId)), 'payment source', p.paymentSourceId),
    customer: async (p, _a, { loaders }) => required(await held(p.customer, () => loaders.customer.load(p.customerId)), 'customer', p.customerId),
  },
  Account: {
    paymentSources: (p, _a, { loaders }) => held(p.paymentSources, () => loaders.paymentSourcesByAccount.load(p.id)),
  },
  Article: {
    prices: (p, _a, { loaders }) => p.prices ?? loaders.pricesByArticle.load(p.id),
    priceAt: (p, { date }, { loaders }) => loaders.priceAt.load({ articleId: p.id, date }),
    defaultTaxCode: (p, _a, { loaders }) => held(p.defaultTaxCode, () => (p.defaultTaxCodeId ? loaders.taxCode.load(p.defaultTaxCodeId) : null)),
    revenueAccount: (p, _a, { loaders }) => held(p.revenueAccount, () => (p.revenueAccountId ? loaders.account.load(p.revenueAccountId) : null)),
  },
  ArticlePrice: {
    article: async (p, _a, { loaders }) => required(await held('article' in p ? p.article : undefined, () => loaders.article.load(p.articleId)), 'article', p.articleId),
  },
  Customer: {
    addresses: (c, _a, ctx) => addressesOf(c, ctx),
    defaultAddress: (c, _a, ctx) => {
      const addresses = addressesOf(c, ctx);
      return Array.isArray(addresses) ? defaultOf(addresses) : addresses.then(defaultOf);
    },
    payments: (c, _a, { loaders }) => held(c.payments, () => loaders.paymentsByCustomer.load(c.id)),
    receivableAccount: (c, _a, { loaders }) => held(c.receivableAccount, () => (c.receivableAccountId ? loaders.account.load(c.receivableAccountId) : null)),
    prepaymentAccount: (c, _a, { loaders }) => held(c.prepaymentAccount, () => (c.prepaymentAccountId ? loaders.account.load(c.prepaymentAccountId) : null)),
  },
  Address: {
    customer: async (a, _a, { loaders }) => required(await held(a.customer, () => loaders.customer.load(a.customerId)), 'customer', a.customerId),
  },
  TaxCode: {
    taxAccount: async (t, _a, { loaders }) => required(await held(t.taxAccount, () => loaders.account.load(t.taxAccountId)), 'account', t.taxAccountId),
    revenueAccount: async (t, _a, { loaders }) =>
      required(await held(t.revenueAccount, () => loaders.account.load(t.revenueAccountId)), 'account', t.revenueAccountId),
  },
  QuoteLine: {
    article: async (l, _a, { loaders }) => required(await loaders.article.load(l.articleId), 'article', l.articleId),
    taxCode: async (l, _a, { loaders }) => required(await loaders.taxCode.load(l.taxCodeId), 'tax code', l.taxCodeId),
    academicTerm: (l, _a, { loaders }) => (l.academicTermId ? loaders.academicTerm.load(l.academicTermId) : null),
  },
};
