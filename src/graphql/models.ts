// The values the resolvers pass around (codegen "mappers", codegen.yml): service records,
// not GraphQL shapes. A connection is the service layer's Page itself; edges and pageInfo
// are computed from it only when selected.

import type { AcademicTerm } from '../domain/academic-term/service';
import type { Account } from '../domain/account/service';
import type { ArticlePrice } from '../domain/article-price/service';
import type { Article } from '../domain/article/service';
import type { ChangeEntry, FeedPage } from '../domain/change-log/service';
import type { Page } from '../domain/common/list';
import type { Selected } from '../domain/common/read-service';
import type { Address, Customer } from '../domain/customer/service';
import type { PaymentSource } from '../domain/payment-source/service';
import type { Payment } from '../domain/payment/service';
import type { Quote, QuoteLine, QuoteTotals } from '../domain/pricing/types';
import type { TaxCode } from '../domain/tax-code/service';
import type { DecimalValue } from '../query/values';


// A relation property (`account?`) is present when the record was read with that relation
// inside it (the query selected it: resolvers/connection.ts RelationReads); its resolver
// then needs no loader.
export type PaymentSourceModel = PaymentSource & { account?: AccountModel; payments?: PaymentModel[] };
export type PaymentModel = Payment & { paymentSource?: PaymentSourceModel; customer?: CustomerModel };
export type AccountModel = Account & { paymentSources?: PaymentSourceModel[] };
/** A stored price, or the one the pricing service picked (a decimal.js Decimal). */
export type ArticlePriceModel = (ArticlePrice & { article?: ArticleModel }) | { id: string; articleId: string; amount: DecimalValue; validFrom: Date };
/**
 * An article; `prices` is present when the list already loaded them with the article. A list
 * reads only the fields its query selects (and its relations need): hence Selected.
 */
export type ArticleModel = Selected<Article> & { prices?: ArticlePriceModel[]; defaultTaxCode?: TaxCodeModel | null; revenueAccount?: AccountModel | null };
/** A customer; `addresses` is present when the list already loaded them with the customer (Selected: as articles). */
export type CustomerModel = Selected<Customer> & { addresses?: AddressModel[]; payments?: PaymentModel[]; receivableAccount?: AccountModel | null; prepaymentAccount?: AccountModel | null };
export type AddressModel = Address & { customer?: CustomerModel };
export type TaxCodeModel = TaxCode & { taxAccount?: AccountModel; revenueAccount?: AccountModel };
export type AcademicTermModel = AcademicTerm;
export type QuoteModel = Quote;
export type QuoteLineModel = QuoteLine;
export type QuoteTotalsModel = QuoteTotals;

export type ConnectionModel<T> = Page<T>;
export interface EdgeModel<T> {
  readonly cursor: string;
  readonly node: T;
}

export type PaymentSourceConnectionModel = ConnectionModel<PaymentSourceModel>;
export type PaymentConnectionModel = ConnectionModel<PaymentModel>;
export type AccountConnectionModel = ConnectionModel<AccountModel>;
export type ArticleConnectionModel = ConnectionModel<ArticleModel>;
/** Lists hold stored prices only. */
export type ArticlePriceConnectionModel = ConnectionModel<ArticlePrice>;
export type CustomerConnectionModel = ConnectionModel<CustomerModel>;
export type AddressConnectionModel = ConnectionModel<AddressModel>;
export type TaxCodeConnectionModel = ConnectionModel<TaxCodeModel>;
export type AcademicTermConnectionModel = ConnectionModel<AcademicTermModel>;

export type PaymentSourceEdgeModel = EdgeModel<PaymentSourceModel>;
export type PaymentEdgeModel = EdgeModel<PaymentModel>;
export type AccountEdgeModel = EdgeModel<AccountModel>;
export type ArticleEdgeModel = EdgeModel<ArticleModel>;
export type ArticlePriceEdgeModel = EdgeModel<ArticlePrice>;
export type CustomerEdgeModel = EdgeModel<CustomerModel>;
export type AddressEdgeModel = EdgeModel<AddressModel>;
export type TaxCodeEdgeModel = EdgeModel<TaxCodeModel>;
export type AcademicTermEdgeModel = EdgeModel<AcademicTermModel>;

export type ChangeModel = ChangeEntry;
/** A page of the change log in feed order; its cursor is where to continue, also when it is empty. */
export type ChangeConnectionModel = FeedPage;
export type ChangeEdgeModel = EdgeModel<ChangeEntry>;
