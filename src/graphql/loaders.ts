// Per-request DataLoaders: every relation of the schema is read with ONE query per batch
// (the services' getMany, and byParents with the relation's declaration), so a page of N parents with a relation
// costs a constant number of SQL queries, not N (docs/service.md "GraphQL shape"). Loaders are made
// lazily: a request builds only the ones its query needs. Each lives for one request, so
// its cache never serves another caller or a later write.

import DataLoader from 'dataloader';
import type { ChangeEntry } from '../domain/change-log/service';
import type { LoggedResource } from '../domain/common/change-log';
import type { PaymentSource } from '../domain/payment-source/service';
import type { Payment } from '../domain/payment/service';
import type { Services } from '../domain/services';
import { RESOURCES } from '../domain/resources';
import type { AcademicTermModel, AccountModel, AddressModel, ArticleModel, ArticlePriceModel, CustomerModel, TaxCodeModel } from './models';
import type { EffectivePrice } from '../domain/pricing/service';

interface PriceAtKey {
  readonly articleId: string;
  readonly date: Date;
}


/** One record per id (null for an unknown id), in the order of the keys. */
function byId<T extends { id: string }>(fetch: (ids: readonly string[]) => Promise<T[]>): DataLoader<string, T | null> {
  return new DataLoader<string, T | null>(async (ids) => {
    const rows = await fetch(ids);
    const found = new Map<string, T>();
    for (const r of rows) found.set(r.id, r);
    return ids.map((id) => found.get(id) ?? null);
  });
}

/** All records per parent id (an empty list for a parent without any), in the relation's order. */
function byParent<T>(fetch: (ids: readonly string[]) => Promise<Map<string, T[]>>): DataLoader<string, T[]> {
  return new DataLoader<string, T[]>(async (ids) => {
    const groups = await fetch(ids);
    return ids.map((id) => groups.get(id) ?? []);
  });
}

/** Rows by a key, in the order given. */
function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const r of rows) {
    const list = groups.get(key(r));
    if (list) list.push(r);
    else groups.set(key(r), [r]);
  }
  return groups;
}

export class Loaders {
  constructor(private readonly s: Services) {}

  #paymentSource?: DataLoader<string, PaymentSource | null>;
  #payment?: DataLoader<string, Payment | null>;
  #account?: DataLoader<string, AccountModel | null>;
  #article?: DataLoader<string, ArticleModel | null>;
  #articlePrice?: DataLoader<string, ArticlePriceModel | null>;
  #customer?: DataLoader<string, CustomerModel | null>;
  #address?: DataLoader<string, AddressModel | null>;
  #taxCode?: DataLoader<string, TaxCodeModel | null>;
  #academicTerm?: DataLoader<string, AcademicTermModel | null>;
  #paymentsBySource?: DataLoader<string, Payment[]>;
  #paymentsByCustomer?: DataLoader<string, Payment[]>;
  #paymentSourcesByAccount?: DataLoader<string, PaymentSource[]>;
  #pricesByArticle?: DataLoader<string, ArticlePriceModel[]>;
  #addressesByCustomer?: DataLoader<string, AddressModel[]>;
  #priceAt?: DataLoader<PriceAtKey, EffectivePrice | null, string>;
  #history?: Map<LoggedResource, DataLoader<string, ChangeEntry[]>>;

  get paymentSource() {
    return (this.#paymentSource ??= byId((ids) => this.s.paymentSources.getMany(ids)));
  }
  get payment() {
    return (this.#payment ??= byId((ids) => this.s.payments.getMany(ids)));
  }
  get account() {
    return (this.#account ??= byId((ids) => this.s.accounts.getMany(ids)));
  }
  get article() {
    return (this.#article ??= byId((ids) => this.s.articles.getMany(ids)));
  }
  get articlePrice() {
    return (this.#articlePrice ??= byId((ids) => this.s.articlePrices.getMany(ids)));
  }
  /** Customers without their addresses (Customer.addresses has its own loader). */
  get customer() {
    return (this.#customer ??= byId<CustomerModel>((ids) => this.s.customers.getMany(ids)));
  }
  get address() {
    return (this.#address ??= byId((ids) => this.s.addresses.getMany(ids)));
  }
  get taxCode() {
    return (this.#taxCode ??= byId((ids) => this.s.taxCodes.getMany(ids)));
  }
  get academicTerm() {
    return (this.#academicTerm ??= byId((ids) => this.s.academicTerms.getMany(ids)));
  }

  /** Payments of payment sources, newest receivedAt first. */
  get paymentsBySource() {
    return (this.#paymentsBySource ??= byParent((ids) => this.s.payments.byParents(RESOURCES.PaymentSource.relations.payments, ids)));
  }
  /** Payments of customers, newest receivedAt first. */
  get paymentsByCustomer() {
    return (this.#paymentsByCustomer ??= byParent((ids) => this.s.payments.byParents(RESOURCES.Customer.relations.payments, ids)));
  }
  /** Payment sources of accounts, by code. */
  get paymentSourcesByAccount() {
    return (this.#paymentSourcesByAccount ??= byParent((ids) => this.s.paymentSources.byParents(RESOURCES.Account.relations.paymentSources, ids)));
  }
  /** Prices of articles, newest validFrom first. */
  get pricesByArticle() {
    return (this.#pricesByArticle ??= byParent<ArticlePriceModel>((ids) => this.s.articlePrices.byParents(RESOURCES.Article.relations.prices, ids)));
  }
  /** Addresses of customers, the default first, then by addressType. */
  get addressesByCustomer() {
    return (this.#addressesByCustomer ??= byParent((ids) => this.s.addresses.byParents(RESOURCES.Customer.relations.addresses, ids)));
  }

  /** The `history` field of a resource's records: their change-log entries, oldest first. */
  history(resource: LoggedResource): DataLoader<string, ChangeEntry[]> {
    const loaders = (this.#history ??= new Map<LoggedResource, DataLoader<string, ChangeEntry[]>>());
    let loader = loaders.get(resource);
    if (!loader) loaders.set(resource, (loader = byParent(async (ids) => groupBy(await this.s.changeLog.historyOf(resource, ids), (e) => e.recordId))));
    return loader;
  }

  /** Article.priceAt: the effective price of (article, date), through the pricing service's batched pricesAt. */
  get priceAt() {
    return (this.#priceAt ??= new DataLoader<PriceAtKey, EffectivePrice | null, string>((keys) => this.s.pricing.pricesAt(keys), {
      cacheKeyFn: (k) => `${k.articleId}|${k.date.getTime()}`,
    }));
  }
}
