import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { PaymentSourceModel, PaymentModel, AccountModel, ArticleModel, ArticlePriceModel, CustomerModel, AddressModel, TaxCodeModel, AcademicTermModel, QuoteModel, QuoteLineModel, QuoteTotalsModel, PaymentSourceConnectionModel, PaymentConnectionModel, AccountConnectionModel, ArticleConnectionModel, ArticlePriceConnectionModel, CustomerConnectionModel, AddressConnectionModel, TaxCodeConnectionModel, AcademicTermConnectionModel, PaymentSourceEdgeModel, PaymentEdgeModel, AccountEdgeModel, ArticleEdgeModel, ArticlePriceEdgeModel, CustomerEdgeModel, AddressEdgeModel, TaxCodeEdgeModel, AcademicTermEdgeModel } from '../models';
import type { GraphqlContext } from '../context';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** An instant as an ISO 8601 date-time with a time zone (`2026-01-01T00:00:00Z`, `2026-01-01T01:00:00+01:00`); a plain date (`2026-01-01`) means midnight UTC of that day. Always returned in UTC with milliseconds (`2026-01-01T00:00:00.000Z`). */
  DateTime: { input: Date; output: Date; }
  /** An exact decimal number. Returned as a JSON number written from its exact decimal value (never through a binary float); accepted as a JSON number or a numeric string (`"19.00"`). */
  Decimal: { input: string; output: { toFixed(): string }; }
  /** A UUID (RFC 9562) in its textual form; accepted in any letter case, always returned in lower case. */
  UUID: { input: string; output: string; }
};

/** An academic term (semester or period) used to organise billing. */
export type AcademicTerm = {
  __typename?: 'AcademicTerm';
  /** Term code (a season letter pair plus year). */
  code: Scalars['String']['output'];
  /** End of the term. */
  endDate: Scalars['DateTime']['output'];
  /** Reference in an external system. */
  externalSystemId?: Maybe<Scalars['String']['output']>;
  /** The term's id. */
  id: Scalars['UUID']['output'];
  /** Start of the term. */
  startDate: Scalars['DateTime']['output'];
  /** Statistical identifier used for reporting. */
  statisticalSemester?: Maybe<Scalars['String']['output']>;
};

/** A page of academic terms. */
export type AcademicTermConnection = {
  __typename?: 'AcademicTermConnection';
  /** The records of this page with their cursors. */
  edges: Array<AcademicTermEdge>;
  /** The records of this page. */
  nodes: Array<AcademicTerm>;
  /** Whether more records follow, and the cursor to continue after. */
  pageInfo: PageInfo;
  /** How many records match `where` in all (ignoring first, after and offset); computed only when asked for. */
  totalCount: Scalars['Int']['output'];
};

/** One of academic terms in a page, with its cursor. */
export type AcademicTermEdge = {
  __typename?: 'AcademicTermEdge';
  /** The cursor of this record: pass it as `after` to continue after it. */
  cursor: Scalars['String']['output'];
  /** The record. */
  node: AcademicTerm;
};

/** One sort key of a AcademicTerm list: exactly one field per element; later elements break ties of earlier ones, and the id (ascending) breaks the rest. */
export type AcademicTermOrderBy = {
  /** Sort by code. */
  code?: InputMaybe<SortDirection>;
  /** Sort by endDate. */
  endDate?: InputMaybe<SortDirection>;
  /** Sort by externalSystemId. */
  externalSystemId?: InputMaybe<SortDirection>;
  /** Sort by id. */
  id?: InputMaybe<SortDirection>;
  /** Sort by startDate. */
  startDate?: InputMaybe<SortDirection>;
  /** Sort by statisticalSemester. */
  statisticalSemester?: InputMaybe<SortDirection>;
};

/** A condition on AcademicTerm records: every field given must hold (AND); combine with AND, OR and NOT. */
export type AcademicTermWhere = {
  /** All of these conditions hold. */
  AND?: InputMaybe<Array<AcademicTermWhere>>;
  /** This condition does not hold. */
  NOT?: InputMaybe<AcademicTermWhere>;
  /** At least one of these conditions holds. */
  OR?: InputMaybe<Array<AcademicTermWhere>>;
  /** Condition on code. */
  code?: InputMaybe<StringFilter>;
  /** Condition on endDate. */
  endDate?: InputMaybe<DateTimeFilter>;
  /** Condition on externalSystemId. */
  externalSystemId?: InputMaybe<StringFilter>;
  /** Condition on id. */
  id?: InputMaybe<UuidFilter>;
  /** Condition on startDate. */
  startDate?: InputMaybe<DateTimeFilter>;
  /** Condition on statisticalSemester. */
  statisticalSemester?: InputMaybe<StringFilter>;
};

/** A financial (ledger) account. */
export type Account = {
  __typename?: 'Account';
  /** The account code (unique). */
  code: Scalars['String']['output'];
  /** The account's id. */
  id: Scalars['UUID']['output'];
  /** Whether the account can be used. */
  isActive: Scalars['Boolean']['output'];
  /** Display name. */
  name: Scalars['String']['output'];
  /** The payment sources posting to this account, by code. */
  paymentSources: Array<PaymentSource>;
  /** The account type. */
  type: AccountType;
};

/** A page of accounts. */
export type AccountConnection = {
  __typename?: 'AccountConnection';
  /** The records of this page with their cursors. */
  edges: Array<AccountEdge>;
  /** The records of this page. */
  nodes: Array<Account>;
  /** Whether more records follow, and the cursor to continue after. */
  pageInfo: PageInfo;
  /** How many records match `where` in all (ignoring first, after and offset); computed only when asked for. */
  totalCount: Scalars['Int']['output'];
};

/** One of accounts in a page, with its cursor. */
export type AccountEdge = {
  __typename?: 'AccountEdge';
  /** The cursor of this record: pass it as `after` to continue after it. */
  cursor: Scalars['String']['output'];
  /** The record. */
  node: Account;
};

/** One sort key of a Account list: exactly one field per element; later elements break ties of earlier ones, and the id (ascending) breaks the rest. */
export type AccountOrderBy = {
  /** Sort by code. */
  code?: InputMaybe<SortDirection>;
  /** Sort by id. */
  id?: InputMaybe<SortDirection>;
  /** Sort by isActive. */
  isActive?: InputMaybe<SortDirection>;
  /** Sort by name. */
  name?: InputMaybe<SortDirection>;
  /** Sort by type. */
  type?: InputMaybe<SortDirection>;
};

/** The type of a financial account. */
export type AccountType =
  /** An asset account (the only type a payment source may post to). */
  | 'Asset'
  /** An equity account. */
  | 'Equity'
  /** An expense account. */
  | 'Expense'
  /** A liability account. */
  | 'Liability'
  /** A revenue account. */
  | 'Revenue';

/** A condition on an AccountType field; gt/lt compare the values as strings. Several operators in one filter must all hold. */
export type AccountTypeFilter = {
  /** Equal to the value; `eq: null` selects records where the field is null. */
  eq?: InputMaybe<AccountType>;
  /** Greater than or equal to the value. */
  ge?: InputMaybe<AccountType>;
  /** Greater than the value. */
  gt?: InputMaybe<AccountType>;
  /** One of the values (a null item also selects records where the field is null); an empty list matches nothing. */
  in?: InputMaybe<Array<InputMaybe<AccountType>>>;
  /** true: the field is null; false: the field has a value. */
  isNull?: InputMaybe<Scalars['Boolean']['input']>;
  /** Less than or equal to the value. */
  le?: InputMaybe<AccountType>;
  /** Less than the value. */
  lt?: InputMaybe<AccountType>;
  /** Not equal to the value (records where the field is null are included); `ne: null` selects records where the field has a value. */
  ne?: InputMaybe<AccountType>;
};

/** A condition on Account records: every field given must hold (AND); combine with AND, OR and NOT. */
export type AccountWhere = {
  /** All of these conditions hold. */
  AND?: InputMaybe<Array<AccountWhere>>;
  /** This condition does not hold. */
  NOT?: InputMaybe<AccountWhere>;
  /** At least one of these conditions holds. */
  OR?: InputMaybe<Array<AccountWhere>>;
  /** Condition on code. */
  code?: InputMaybe<StringFilter>;
  /** Condition on id. */
  id?: InputMaybe<UuidFilter>;
  /** Condition on isActive. */
  isActive?: InputMaybe<BooleanFilter>;
  /** Condition on name. */
  name?: InputMaybe<StringFilter>;
  /** Condition on type. */
  type?: InputMaybe<AccountTypeFilter>;
};

/** An address of a customer. */
export type Address = {
  __typename?: 'Address';
  /** The use of the address: Billing, Home and Correspondence are the named values; the field is open text. */
  addressType: Scalars['String']['output'];
  /** City. */
  city: Scalars['String']['output'];
  /** Country. */
  country: Scalars['String']['output'];
  /** The owning customer (customerId). */
  customer: Customer;
  /** The owning customer. */
  customerId: Scalars['UUID']['output'];
  /** The address's id. */
  id: Scalars['UUID']['output'];
  /** Whether this is the customer's default address (at most one is). */
  isDefault: Scalars['Boolean']['output'];
  /** Postal code. */
  postalCode: Scalars['String']['output'];
  /** Street and number. */
  street: Scalars['String']['output'];
};

/** A page of addresses. */
export type AddressConnection = {
  __typename?: 'AddressConnection';
  /** The records of this page with their cursors. */
  edges: Array<AddressEdge>;
  /** The records of this page. */
  nodes: Array<Address>;
  /** Whether more records follow, and the cursor to continue after. */
  pageInfo: PageInfo;
  /** How many records match `where` in all (ignoring first, after and offset); computed only when asked for. */
  totalCount: Scalars['Int']['output'];
};

/** One of addresses in a page, with its cursor. */
export type AddressEdge = {
  __typename?: 'AddressEdge';
  /** The cursor of this record: pass it as `after` to continue after it. */
  cursor: Scalars['String']['output'];
  /** The record. */
  node: Address;
};

/** One sort key of a Address list: exactly one field per element; later elements break ties of earlier ones, and the id (ascending) breaks the rest. */
export type AddressOrderBy = {
  /** Sort by addressType. */
  addressType?: InputMaybe<SortDirection>;
  /** Sort by city. */
  city?: InputMaybe<SortDirection>;
  /** Sort by country. */
  country?: InputMaybe<SortDirection>;
  /** Sort by customerId. */
  customerId?: InputMaybe<SortDirection>;
  /** Sort by id. */
  id?: InputMaybe<SortDirection>;
  /** Sort by isDefault. */
  isDefault?: InputMaybe<SortDirection>;
  /** Sort by postalCode. */
  postalCode?: InputMaybe<SortDirection>;
  /** Sort by street. */
  street?: InputMaybe<SortDirection>;
};

/** A condition on Address records: every field given must hold (AND); combine with AND, OR and NOT. */
export type AddressWhere = {
  /** All of these conditions hold. */
  AND?: InputMaybe<Array<AddressWhere>>;
  /** This condition does not hold. */
  NOT?: InputMaybe<AddressWhere>;
  /** At least one of these conditions holds. */
  OR?: InputMaybe<Array<AddressWhere>>;
  /** Condition on addressType. */
  addressType?: InputMaybe<StringFilter>;
  /** Condition on city. */
  city?: InputMaybe<StringFilter>;
  /** Condition on country. */
  country?: InputMaybe<StringFilter>;
  /** Condition on customerId. */
  customerId?: InputMaybe<UuidFilter>;
  /** Condition on id. */
  id?: InputMaybe<UuidFilter>;
  /** Condition on isDefault. */
  isDefault?: InputMaybe<BooleanFilter>;
  /** Condition on postalCode. */
  postalCode?: InputMaybe<StringFilter>;
  /** Condition on street. */
  street?: InputMaybe<StringFilter>;
};

/** A billable product or service. */
export type Article = {
  __typename?: 'Article';
  /** Short code, unique per article. */
  code: Scalars['String']['output'];
  /** When the record was created. */
  createdAt: Scalars['DateTime']['output'];
  /** The user who created the record. */
  createdById: Scalars['UUID']['output'];
  /** The default cost center of invoice lines of this article. */
  defaultCostCenterId?: Maybe<Scalars['UUID']['output']>;
  /** The default tax code (defaultTaxCodeId). */
  defaultTaxCode?: Maybe<TaxCode>;
  /** The default tax code. */
  defaultTaxCodeId?: Maybe<Scalars['UUID']['output']>;
  /** Detailed description. */
  description?: Maybe<Scalars['String']['output']>;
  /** The article's id. */
  id: Scalars['UUID']['output'];
  /** Whether the article can be billed. */
  isActive: Scalars['Boolean']['output'];
  /** Display name. */
  name: Scalars['String']['output'];
  /** The price that applies on `date`: the one with the latest validFrom on or before it; null when none does. */
  priceAt?: Maybe<ArticlePrice>;
  /** All prices of the article, newest validFrom first. */
  prices: Array<ArticlePrice>;
  /** The revenue account (revenueAccountId). */
  revenueAccount?: Maybe<Account>;
  /** The revenue account. */
  revenueAccountId?: Maybe<Scalars['UUID']['output']>;
  /** When the record was last updated; null when never updated. */
  updatedAt?: Maybe<Scalars['DateTime']['output']>;
  /** The user who last updated the record; null when never updated. */
  updatedById?: Maybe<Scalars['UUID']['output']>;
  /** When true, the article's cost center is always used, whatever an invoice line says. */
  useArticleCostCenter: Scalars['Boolean']['output'];
};


/** A billable product or service. */
export type ArticlePriceAtArgs = {
  date: Scalars['DateTime']['input'];
};

/** A page of articles. */
export type ArticleConnection = {
  __typename?: 'ArticleConnection';
  /** The records of this page with their cursors. */
  edges: Array<ArticleEdge>;
  /** The records of this page. */
  nodes: Array<Article>;
  /** Whether more records follow, and the cursor to continue after. */
  pageInfo: PageInfo;
  /** How many records match `where` in all (ignoring first, after and offset); computed only when asked for. */
  totalCount: Scalars['Int']['output'];
};

/** One of articles in a page, with its cursor. */
export type ArticleEdge = {
  __typename?: 'ArticleEdge';
  /** The cursor of this record: pass it as `after` to continue after it. */
  cursor: Scalars['String']['output'];
  /** The record. */
  node: Article;
};

/** One sort key of a Article list: exactly one field per element; later elements break ties of earlier ones, and the id (ascending) breaks the rest. */
export type ArticleOrderBy = {
  /** Sort by code. */
  code?: InputMaybe<SortDirection>;
  /** Sort by createdAt. */
  createdAt?: InputMaybe<SortDirection>;
  /** Sort by createdById. */
  createdById?: InputMaybe<SortDirection>;
  /** Sort by defaultCostCenterId. */
  defaultCostCenterId?: InputMaybe<SortDirection>;
  /** Sort by defaultTaxCodeId. */
  defaultTaxCodeId?: InputMaybe<SortDirection>;
  /** Sort by description. */
  description?: InputMaybe<SortDirection>;
  /** Sort by id. */
  id?: InputMaybe<SortDirection>;
  /** Sort by isActive. */
  isActive?: InputMaybe<SortDirection>;
  /** Sort by name. */
  name?: InputMaybe<SortDirection>;
  /** Sort by revenueAccountId. */
  revenueAccountId?: InputMaybe<SortDirection>;
  /** Sort by updatedAt. */
  updatedAt?: InputMaybe<SortDirection>;
  /** Sort by updatedById. */
  updatedById?: InputMaybe<SortDirection>;
  /** Sort by useArticleCostCenter. */
  useArticleCostCenter?: InputMaybe<SortDirection>;
};

/** A price of an article, effective from a date until the next price of the article. */
export type ArticlePrice = {
  __typename?: 'ArticlePrice';
  /** The price amount (up to 4 decimals). */
  amount: Scalars['Decimal']['output'];
  /** The article (articleId). */
  article: Article;
  /** The article the price belongs to. */
  articleId: Scalars['UUID']['output'];
  /** The price's id. */
  id: Scalars['UUID']['output'];
  /** The instant from which the price applies. */
  validFrom: Scalars['DateTime']['output'];
};

/** A page of article prices. */
export type ArticlePriceConnection = {
  __typename?: 'ArticlePriceConnection';
  /** The records of this page with their cursors. */
  edges: Array<ArticlePriceEdge>;
  /** The records of this page. */
  nodes: Array<ArticlePrice>;
  /** Whether more records follow, and the cursor to continue after. */
  pageInfo: PageInfo;
  /** How many records match `where` in all (ignoring first, after and offset); computed only when asked for. */
  totalCount: Scalars['Int']['output'];
};

/** One of article prices in a page, with its cursor. */
export type ArticlePriceEdge = {
  __typename?: 'ArticlePriceEdge';
  /** The cursor of this record: pass it as `after` to continue after it. */
  cursor: Scalars['String']['output'];
  /** The record. */
  node: ArticlePrice;
};

/** One sort key of a ArticlePrice list: exactly one field per element; later elements break ties of earlier ones, and the id (ascending) breaks the rest. */
export type ArticlePriceOrderBy = {
  /** Sort by amount. */
  amount?: InputMaybe<SortDirection>;
  /** Sort by articleId. */
  articleId?: InputMaybe<SortDirection>;
  /** Sort by id. */
  id?: InputMaybe<SortDirection>;
  /** Sort by validFrom. */
  validFrom?: InputMaybe<SortDirection>;
};

/** A condition on ArticlePrice records: every field given must hold (AND); combine with AND, OR and NOT. */
export type ArticlePriceWhere = {
  /** All of these conditions hold. */
  AND?: InputMaybe<Array<ArticlePriceWhere>>;
  /** This condition does not hold. */
  NOT?: InputMaybe<ArticlePriceWhere>;
  /** At least one of these conditions holds. */
  OR?: InputMaybe<Array<ArticlePriceWhere>>;
  /** Condition on amount. */
  amount?: InputMaybe<DecimalFilter>;
  /** Condition on articleId. */
  articleId?: InputMaybe<UuidFilter>;
  /** Condition on id. */
  id?: InputMaybe<UuidFilter>;
  /** Condition on validFrom. */
  validFrom?: InputMaybe<DateTimeFilter>;
};

/** A condition on Article records: every field given must hold (AND); combine with AND, OR and NOT. */
export type ArticleWhere = {
  /** All of these conditions hold. */
  AND?: InputMaybe<Array<ArticleWhere>>;
  /** This condition does not hold. */
  NOT?: InputMaybe<ArticleWhere>;
  /** At least one of these conditions holds. */
  OR?: InputMaybe<Array<ArticleWhere>>;
  /** Condition on code. */
  code?: InputMaybe<StringFilter>;
  /** Condition on createdAt. */
  createdAt?: InputMaybe<DateTimeFilter>;
  /** Condition on createdById. */
  createdById?: InputMaybe<UuidFilter>;
  /** Condition on defaultCostCenterId. */
  defaultCostCenterId?: InputMaybe<UuidFilter>;
  /** Condition on defaultTaxCodeId. */
  defaultTaxCodeId?: InputMaybe<UuidFilter>;
  /** Condition on description. */
  description?: InputMaybe<StringFilter>;
  /** Condition on id. */
  id?: InputMaybe<UuidFilter>;
  /** Condition on isActive. */
  isActive?: InputMaybe<BooleanFilter>;
  /** Condition on name. */
  name?: InputMaybe<StringFilter>;
  /** Condition on revenueAccountId. */
  revenueAccountId?: InputMaybe<UuidFilter>;
  /** Condition on updatedAt. */
  updatedAt?: InputMaybe<DateTimeFilter>;
  /** Condition on updatedById. */
  updatedById?: InputMaybe<UuidFilter>;
  /** Condition on useArticleCostCenter. */
  useArticleCostCenter?: InputMaybe<BooleanFilter>;
};

/** A condition on a boolean field. Several operators in one filter must all hold. */
export type BooleanFilter = {
  /** Equal to the value; `eq: null` selects records where the field is null. */
  eq?: InputMaybe<Scalars['Boolean']['input']>;
  /** One of the values (a null item also selects records where the field is null); an empty list matches nothing. */
  in?: InputMaybe<Array<InputMaybe<Scalars['Boolean']['input']>>>;
  /** true: the field is null; false: the field has a value. */
  isNull?: InputMaybe<Scalars['Boolean']['input']>;
  /** Not equal to the value (records where the field is null are included); `ne: null` selects records where the field has a value. */
  ne?: InputMaybe<Scalars['Boolean']['input']>;
};

/** A new payment. */
export type CreatePaymentInput = {
  /** The amount: > 0, up to 4 decimals. */
  amount: Scalars['Decimal']['input'];
  /** The paying customer. */
  customerId: Scalars['UUID']['input'];
  /** The payment source; when absent the default payment source is used. It must be active. */
  paymentSourceId?: InputMaybe<Scalars['UUID']['input']>;
  /** When the payment was received; now when absent. */
  receivedAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** Optional reference; up to 200 characters. */
  reference?: InputMaybe<Scalars['String']['input']>;
};

/** A new payment source. */
export type CreatePaymentSourceInput = {
  /** The financial account: it must exist, be active and be of type Asset. */
  accountId: Scalars['UUID']['input'];
  /** Unique across all payment sources (compared case-insensitively); 1-50 characters. */
  code: Scalars['String']['input'];
  /** Optional description; up to 1000 characters. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** Whether the source can be used for new payments; true when absent or null. */
  isActive?: InputMaybe<Scalars['Boolean']['input']>;
  /** Whether this is the default payment source (another default makes this fail with DEFAULT_ALREADY_SET); false when absent or null. */
  isDefault?: InputMaybe<Scalars['Boolean']['input']>;
  /** Display name; 1-200 characters. */
  name: Scalars['String']['input'];
  /** The kind of channel. */
  sourceType: SourceType;
};

/** A customer (a student or another entity) who receives invoices. */
export type Customer = {
  __typename?: 'Customer';
  /** The customer's addresses, the default one first, then by addressType. */
  addresses: Array<Address>;
  /** Identifier in the campus management system. */
  cmsStudentId?: Maybe<Scalars['String']['output']>;
  /** Creditor number; may be null. */
  creditorNumber?: Maybe<Scalars['String']['output']>;
  /** Debtor number: unique across all customers; the key to external financial systems. */
  debtorNumber: Scalars['String']['output'];
  /** The customer's default address; null when none is marked default. */
  defaultAddress?: Maybe<Address>;
  /** E-mail address. */
  email?: Maybe<Scalars['String']['output']>;
  /** First name. */
  firstName: Scalars['String']['output'];
  /** The customer's id. */
  id: Scalars['UUID']['output'];
  /** Last name. */
  lastName: Scalars['String']['output'];
  /** Matriculation number. */
  matriculationId?: Maybe<Scalars['String']['output']>;
  /** The customer's payments, newest receivedAt first. */
  payments: Array<Payment>;
  /** The prepayment account (prepaymentAccountId). */
  prepaymentAccount?: Maybe<Account>;
  /** The prepayment account. */
  prepaymentAccountId?: Maybe<Scalars['UUID']['output']>;
  /** The receivable account (receivableAccountId). */
  receivableAccount?: Maybe<Account>;
  /** The receivable account. */
  receivableAccountId?: Maybe<Scalars['UUID']['output']>;
};

/** A page of customers. */
export type CustomerConnection = {
  __typename?: 'CustomerConnection';
  /** The records of this page with their cursors. */
  edges: Array<CustomerEdge>;
  /** The records of this page. */
  nodes: Array<Customer>;
  /** Whether more records follow, and the cursor to continue after. */
  pageInfo: PageInfo;
  /** How many records match `where` in all (ignoring first, after and offset); computed only when asked for. */
  totalCount: Scalars['Int']['output'];
};

/** One of customers in a page, with its cursor. */
export type CustomerEdge = {
  __typename?: 'CustomerEdge';
  /** The cursor of this record: pass it as `after` to continue after it. */
  cursor: Scalars['String']['output'];
  /** The record. */
  node: Customer;
};

/** One sort key of a Customer list: exactly one field per element; later elements break ties of earlier ones, and the id (ascending) breaks the rest. */
export type CustomerOrderBy = {
  /** Sort by cmsStudentId. */
  cmsStudentId?: InputMaybe<SortDirection>;
  /** Sort by creditorNumber. */
  creditorNumber?: InputMaybe<SortDirection>;
  /** Sort by debtorNumber. */
  debtorNumber?: InputMaybe<SortDirection>;
  /** Sort by email. */
  email?: InputMaybe<SortDirection>;
  /** Sort by firstName. */
  firstName?: InputMaybe<SortDirection>;
  /** Sort by id. */
  id?: InputMaybe<SortDirection>;
  /** Sort by lastName. */
  lastName?: InputMaybe<SortDirection>;
  /** Sort by matriculationId. */
  matriculationId?: InputMaybe<SortDirection>;
  /** Sort by prepaymentAccountId. */
  prepaymentAccountId?: InputMaybe<SortDirection>;
  /** Sort by receivableAccountId. */
  receivableAccountId?: InputMaybe<SortDirection>;
};

/** A condition on Customer records: every field given must hold (AND); combine with AND, OR and NOT. */
export type CustomerWhere = {
  /** All of these conditions hold. */
  AND?: InputMaybe<Array<CustomerWhere>>;
  /** This condition does not hold. */
  NOT?: InputMaybe<CustomerWhere>;
  /** At least one of these conditions holds. */
  OR?: InputMaybe<Array<CustomerWhere>>;
  /** Condition on cmsStudentId. */
  cmsStudentId?: InputMaybe<StringFilter>;
  /** Condition on creditorNumber. */
  creditorNumber?: InputMaybe<StringFilter>;
  /** Condition on debtorNumber. */
  debtorNumber?: InputMaybe<StringFilter>;
  /** Condition on email. */
  email?: InputMaybe<StringFilter>;
  /** Condition on firstName. */
  firstName?: InputMaybe<StringFilter>;
  /** Condition on id. */
  id?: InputMaybe<UuidFilter>;
  /** Condition on lastName. */
  lastName?: InputMaybe<StringFilter>;
  /** Condition on matriculationId. */
  matriculationId?: InputMaybe<StringFilter>;
  /** Condition on prepaymentAccountId. */
  prepaymentAccountId?: InputMaybe<UuidFilter>;
  /** Condition on receivableAccountId. */
  receivableAccountId?: InputMaybe<UuidFilter>;
};

/** A condition on a date-time field (a plain date means midnight UTC). Several operators in one filter must all hold. */
export type DateTimeFilter = {
  /** Equal to the value; `eq: null` selects records where the field is null. */
  eq?: InputMaybe<Scalars['DateTime']['input']>;
  /** Greater than or equal to the value. */
  ge?: InputMaybe<Scalars['DateTime']['input']>;
  /** Greater than the value. */
  gt?: InputMaybe<Scalars['DateTime']['input']>;
  /** One of the values (a null item also selects records where the field is null); an empty list matches nothing. */
  in?: InputMaybe<Array<InputMaybe<Scalars['DateTime']['input']>>>;
  /** true: the field is null; false: the field has a value. */
  isNull?: InputMaybe<Scalars['Boolean']['input']>;
  /** Less than or equal to the value. */
  le?: InputMaybe<Scalars['DateTime']['input']>;
  /** Less than the value. */
  lt?: InputMaybe<Scalars['DateTime']['input']>;
  /** Not equal to the value (records where the field is null are included); `ne: null` selects records where the field has a value. */
  ne?: InputMaybe<Scalars['DateTime']['input']>;
};

/** A condition on a decimal field (exact comparison). Several operators in one filter must all hold. */
export type DecimalFilter = {
  /** Equal to the value; `eq: null` selects records where the field is null. */
  eq?: InputMaybe<Scalars['Decimal']['input']>;
  /** Greater than or equal to the value. */
  ge?: InputMaybe<Scalars['Decimal']['input']>;
  /** Greater than the value. */
  gt?: InputMaybe<Scalars['Decimal']['input']>;
  /** One of the values (a null item also selects records where the field is null); an empty list matches nothing. */
  in?: InputMaybe<Array<InputMaybe<Scalars['Decimal']['input']>>>;
  /** true: the field is null; false: the field has a value. */
  isNull?: InputMaybe<Scalars['Boolean']['input']>;
  /** Less than or equal to the value. */
  le?: InputMaybe<Scalars['Decimal']['input']>;
  /** Less than the value. */
  lt?: InputMaybe<Scalars['Decimal']['input']>;
  /** Not equal to the value (records where the field is null are included); `ne: null` selects records where the field has a value. */
  ne?: InputMaybe<Scalars['Decimal']['input']>;
};

/** Writes. Needs a token with the scope billing.write. A rejected write changes nothing. */
export type Mutation = {
  __typename?: 'Mutation';
  /** Records a payment; without paymentSourceId the default payment source is used. Errors: VALIDATION_FAILED, PAYMENT_SOURCE_INACTIVE, NO_DEFAULT_PAYMENT_SOURCE. */
  createPayment: Payment;
  /** Creates a payment source. Errors: VALIDATION_FAILED, DUPLICATE_CODE, DEFAULT_ALREADY_SET, ACCOUNT_NOT_USABLE. */
  createPaymentSource: PaymentSource;
  /** Deletes a payment source that has no payments; true when it was deleted. Errors: NOT_FOUND, HAS_PAYMENTS. */
  deletePaymentSource: Scalars['Boolean']['output'];
  /** Changes the given fields of a payment source; omitted fields keep their value. Errors: VALIDATION_FAILED, NOT_FOUND, DUPLICATE_CODE, DEFAULT_ALREADY_SET, ACCOUNT_NOT_USABLE. */
  updatePaymentSource: PaymentSource;
};


/** Writes. Needs a token with the scope billing.write. A rejected write changes nothing. */
export type MutationCreatePaymentArgs = {
  input: CreatePaymentInput;
};


/** Writes. Needs a token with the scope billing.write. A rejected write changes nothing. */
export type MutationCreatePaymentSourceArgs = {
  input: CreatePaymentSourceInput;
};


/** Writes. Needs a token with the scope billing.write. A rejected write changes nothing. */
export type MutationDeletePaymentSourceArgs = {
  id: Scalars['ID']['input'];
};


/** Writes. Needs a token with the scope billing.write. A rejected write changes nothing. */
export type MutationUpdatePaymentSourceArgs = {
  id: Scalars['ID']['input'];
  input: UpdatePaymentSourceInput;
};

/** Where a page of a list ends. */
export type PageInfo = {
  __typename?: 'PageInfo';
  /** The cursor of the last record of this page (pass it as `after` for the next page); null when the page is empty. */
  endCursor?: Maybe<Scalars['String']['output']>;
  /** Whether more matching records follow this page. */
  hasNextPage: Scalars['Boolean']['output'];
};

/** A payment received from a customer through a payment source. */
export type Payment = {
  __typename?: 'Payment';
  /** The amount (> 0, up to 4 decimals). */
  amount: Scalars['Decimal']['output'];
  /** When the record was created. */
  createdAt: Scalars['DateTime']['output'];
  /** The user who recorded the payment. */
  createdById: Scalars['UUID']['output'];
  /** The customer (customerId). */
  customer: Customer;
  /** The paying customer. */
  customerId: Scalars['UUID']['output'];
  /** Assigned by the service. */
  id: Scalars['UUID']['output'];
  /** The payment source (paymentSourceId). */
  paymentSource: PaymentSource;
  /** The payment source that received the payment. */
  paymentSourceId: Scalars['UUID']['output'];
  /** When the payment was received. */
  receivedAt: Scalars['DateTime']['output'];
  /** Optional reference (e.g. the bank's remittance text). */
  reference?: Maybe<Scalars['String']['output']>;
};

/** A page of payments. */
export type PaymentConnection = {
  __typename?: 'PaymentConnection';
  /** The records of this page with their cursors. */
  edges: Array<PaymentEdge>;
  /** The records of this page. */
  nodes: Array<Payment>;
  /** Whether more records follow, and the cursor to continue after. */
  pageInfo: PageInfo;
  /** How many records match `where` in all (ignoring first, after and offset); computed only when asked for. */
  totalCount: Scalars['Int']['output'];
};

/** One of payments in a page, with its cursor. */
export type PaymentEdge = {
  __typename?: 'PaymentEdge';
  /** The cursor of this record: pass it as `after` to continue after it. */
  cursor: Scalars['String']['output'];
  /** The record. */
  node: Payment;
};

/** One sort key of a Payment list: exactly one field per element; later elements break ties of earlier ones, and the id (ascending) breaks the rest. */
export type PaymentOrderBy = {
  /** Sort by amount. */
  amount?: InputMaybe<SortDirection>;
  /** Sort by createdAt. */
  createdAt?: InputMaybe<SortDirection>;
  /** Sort by createdById. */
  createdById?: InputMaybe<SortDirection>;
  /** Sort by customerId. */
  customerId?: InputMaybe<SortDirection>;
  /** Sort by id. */
  id?: InputMaybe<SortDirection>;
  /** Sort by paymentSourceId. */
  paymentSourceId?: InputMaybe<SortDirection>;
  /** Sort by receivedAt. */
  receivedAt?: InputMaybe<SortDirection>;
  /** Sort by reference. */
  reference?: InputMaybe<SortDirection>;
};

/** A channel and account through which customer payments are received. */
export type PaymentSource = {
  __typename?: 'PaymentSource';
  /** The financial account (accountId). */
  account: Account;
  /** The financial account payments are posted to: active and of type Asset. */
  accountId: Scalars['UUID']['output'];
  /** Unique across all payment sources (compared case-insensitively); 1-50 characters. */
  code: Scalars['String']['output'];
  /** When the record was created. */
  createdAt: Scalars['DateTime']['output'];
  /** The user who created the record. */
  createdById: Scalars['UUID']['output'];
  /** Optional description; up to 1000 characters. */
  description?: Maybe<Scalars['String']['output']>;
  /** Assigned by the service. */
  id: Scalars['UUID']['output'];
  /** Whether the source can be used for new payments (inactive sources stay visible for history). */
  isActive: Scalars['Boolean']['output'];
  /** Whether this is the default payment source (at most one is). */
  isDefault: Scalars['Boolean']['output'];
  /** Display name; 1-200 characters. */
  name: Scalars['String']['output'];
  /** The payments received through this source, newest receivedAt first. */
  payments: Array<Payment>;
  /** The kind of channel. */
  sourceType: SourceType;
  /** When the record was last updated; null until the first update. */
  updatedAt?: Maybe<Scalars['DateTime']['output']>;
  /** The user who last updated the record; null until the first update. */
  updatedById?: Maybe<Scalars['UUID']['output']>;
};

/** A page of payment sources. */
export type PaymentSourceConnection = {
  __typename?: 'PaymentSourceConnection';
  /** The records of this page with their cursors. */
  edges: Array<PaymentSourceEdge>;
  /** The records of this page. */
  nodes: Array<PaymentSource>;
  /** Whether more records follow, and the cursor to continue after. */
  pageInfo: PageInfo;
  /** How many records match `where` in all (ignoring first, after and offset); computed only when asked for. */
  totalCount: Scalars['Int']['output'];
};

/** One of payment sources in a page, with its cursor. */
export type PaymentSourceEdge = {
  __typename?: 'PaymentSourceEdge';
  /** The cursor of this record: pass it as `after` to continue after it. */
  cursor: Scalars['String']['output'];
  /** The record. */
  node: PaymentSource;
};

/** One sort key of a PaymentSource list: exactly one field per element; later elements break ties of earlier ones, and the id (ascending) breaks the rest. */
export type PaymentSourceOrderBy = {
  /** Sort by accountId. */
  accountId?: InputMaybe<SortDirection>;
  /** Sort by code. */
  code?: InputMaybe<SortDirection>;
  /** Sort by createdAt. */
  createdAt?: InputMaybe<SortDirection>;
  /** Sort by createdById. */
  createdById?: InputMaybe<SortDirection>;
  /** Sort by description. */
  description?: InputMaybe<SortDirection>;
  /** Sort by id. */
  id?: InputMaybe<SortDirection>;
  /** Sort by isActive. */
  isActive?: InputMaybe<SortDirection>;
  /** Sort by isDefault. */
  isDefault?: InputMaybe<SortDirection>;
  /** Sort by name. */
  name?: InputMaybe<SortDirection>;
  /** Sort by sourceType. */
  sourceType?: InputMaybe<SortDirection>;
  /** Sort by updatedAt. */
  updatedAt?: InputMaybe<SortDirection>;
  /** Sort by updatedById. */
  updatedById?: InputMaybe<SortDirection>;
};

/** A condition on PaymentSource records: every field given must hold (AND); combine with AND, OR and NOT. */
export type PaymentSourceWhere = {
  /** All of these conditions hold. */
  AND?: InputMaybe<Array<PaymentSourceWhere>>;
  /** This condition does not hold. */
  NOT?: InputMaybe<PaymentSourceWhere>;
  /** At least one of these conditions holds. */
  OR?: InputMaybe<Array<PaymentSourceWhere>>;
  /** Condition on accountId. */
  accountId?: InputMaybe<UuidFilter>;
  /** Condition on code. */
  code?: InputMaybe<StringFilter>;
  /** Condition on createdAt. */
  createdAt?: InputMaybe<DateTimeFilter>;
  /** Condition on createdById. */
  createdById?: InputMaybe<UuidFilter>;
  /** Condition on description. */
  description?: InputMaybe<StringFilter>;
  /** Condition on id. */
  id?: InputMaybe<UuidFilter>;
  /** Condition on isActive. */
  isActive?: InputMaybe<BooleanFilter>;
  /** Condition on isDefault. */
  isDefault?: InputMaybe<BooleanFilter>;
  /** Condition on name. */
  name?: InputMaybe<StringFilter>;
  /** Condition on sourceType. */
  sourceType?: InputMaybe<SourceTypeFilter>;
  /** Condition on updatedAt. */
  updatedAt?: InputMaybe<DateTimeFilter>;
  /** Condition on updatedById. */
  updatedById?: InputMaybe<UuidFilter>;
};

/** A condition on Payment records: every field given must hold (AND); combine with AND, OR and NOT. */
export type PaymentWhere = {
  /** All of these conditions hold. */
  AND?: InputMaybe<Array<PaymentWhere>>;
  /** This condition does not hold. */
  NOT?: InputMaybe<PaymentWhere>;
  /** At least one of these conditions holds. */
  OR?: InputMaybe<Array<PaymentWhere>>;
  /** Condition on amount. */
  amount?: InputMaybe<DecimalFilter>;
  /** Condition on createdAt. */
  createdAt?: InputMaybe<DateTimeFilter>;
  /** Condition on createdById. */
  createdById?: InputMaybe<UuidFilter>;
  /** Condition on customerId. */
  customerId?: InputMaybe<UuidFilter>;
  /** Condition on id. */
  id?: InputMaybe<UuidFilter>;
  /** Condition on paymentSourceId. */
  paymentSourceId?: InputMaybe<UuidFilter>;
  /** Condition on receivedAt. */
  receivedAt?: InputMaybe<DateTimeFilter>;
  /** Condition on reference. */
  reference?: InputMaybe<StringFilter>;
};

/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type Query = {
  __typename?: 'Query';
  /** The academic term with this id, or null when there is none. */
  academicTerm?: Maybe<AcademicTerm>;
  /** Academic terms matching `where`, in the order of `orderBy` (ties broken by id ascending). */
  academicTerms: AcademicTermConnection;
  /** The financial account with this id, or null when there is none. */
  account?: Maybe<Account>;
  /** Financial accounts matching `where`, in the order of `orderBy` (ties broken by id ascending). */
  accounts: AccountConnection;
  /** The customer address with this id, or null when there is none. */
  address?: Maybe<Address>;
  /** Customer addresses matching `where`, in the order of `orderBy` (ties broken by id ascending). */
  addresses: AddressConnection;
  /** The article with this id, or null when there is none. */
  article?: Maybe<Article>;
  /** The article price with this id, or null when there is none. */
  articlePrice?: Maybe<ArticlePrice>;
  /** Article prices matching `where`, in the order of `orderBy` (ties broken by id ascending). */
  articlePrices: ArticlePriceConnection;
  /** Articles matching `where`, in the order of `orderBy` (ties broken by id ascending). */
  articles: ArticleConnection;
  /** The customer with this id, or null when there is none. */
  customer?: Maybe<Customer>;
  /** Customers matching `where`, in the order of `orderBy` (ties broken by id ascending). */
  customers: CustomerConnection;
  /** The payment with this id, or null when there is none. */
  payment?: Maybe<Payment>;
  /** The payment source with this id, or null when there is none. */
  paymentSource?: Maybe<PaymentSource>;
  /** Payment sources matching `where`, in the order of `orderBy` (ties broken by id ascending). */
  paymentSources: PaymentSourceConnection;
  /** Payments matching `where`, in the order of `orderBy` (ties broken by id ascending). */
  payments: PaymentConnection;
  /** Prices invoice lines without creating anything: for each line the applicable price, tax code, cost center and academic term, with net, tax and gross amounts and their totals. */
  quote: Quote;
  /** The tax code with this id, or null when there is none. */
  taxCode?: Maybe<TaxCode>;
  /** Tax codes matching `where`, in the order of `orderBy` (ties broken by id ascending). */
  taxCodes: TaxCodeConnection;
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryAcademicTermArgs = {
  id: Scalars['ID']['input'];
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryAcademicTermsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  orderBy?: InputMaybe<Array<AcademicTermOrderBy>>;
  where?: InputMaybe<AcademicTermWhere>;
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryAccountArgs = {
  id: Scalars['ID']['input'];
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryAccountsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  orderBy?: InputMaybe<Array<AccountOrderBy>>;
  where?: InputMaybe<AccountWhere>;
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryAddressArgs = {
  id: Scalars['ID']['input'];
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryAddressesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  orderBy?: InputMaybe<Array<AddressOrderBy>>;
  where?: InputMaybe<AddressWhere>;
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryArticleArgs = {
  id: Scalars['ID']['input'];
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryArticlePriceArgs = {
  id: Scalars['ID']['input'];
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryArticlePricesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  orderBy?: InputMaybe<Array<ArticlePriceOrderBy>>;
  where?: InputMaybe<ArticlePriceWhere>;
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryArticlesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  orderBy?: InputMaybe<Array<ArticleOrderBy>>;
  where?: InputMaybe<ArticleWhere>;
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryCustomerArgs = {
  id: Scalars['ID']['input'];
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryCustomersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  orderBy?: InputMaybe<Array<CustomerOrderBy>>;
  where?: InputMaybe<CustomerWhere>;
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryPaymentArgs = {
  id: Scalars['ID']['input'];
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryPaymentSourceArgs = {
  id: Scalars['ID']['input'];
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryPaymentSourcesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  orderBy?: InputMaybe<Array<PaymentSourceOrderBy>>;
  where?: InputMaybe<PaymentSourceWhere>;
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryPaymentsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  orderBy?: InputMaybe<Array<PaymentOrderBy>>;
  where?: InputMaybe<PaymentWhere>;
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryQuoteArgs = {
  input: QuoteInput;
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryTaxCodeArgs = {
  id: Scalars['ID']['input'];
};


/** Read access to every resource, and quotes. Needs a token with the scope billing.read. */
export type QueryTaxCodesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  offset?: InputMaybe<Scalars['Int']['input']>;
  orderBy?: InputMaybe<Array<TaxCodeOrderBy>>;
  where?: InputMaybe<TaxCodeWhere>;
};

/** The result of a quote: priced lines and their totals. */
export type Quote = {
  __typename?: 'Quote';
  /** The priced lines, in the order of the input. */
  lines: Array<QuoteLine>;
  /** The sums of the lines' rounded amounts. */
  totals: QuoteTotals;
};

/** What to quote: one or more invoice lines. */
export type QuoteInput = {
  /** The lines (1 to 200). */
  lines: Array<QuoteLineInput>;
};

/** A priced invoice line. */
export type QuoteLine = {
  __typename?: 'QuoteLine';
  /** The academic term (academicTermId). */
  academicTerm?: Maybe<AcademicTerm>;
  /** The academic term containing the billing date; null when none does. */
  academicTermId?: Maybe<Scalars['UUID']['output']>;
  /** The article (articleId). */
  article: Article;
  /** The article billed. */
  articleId: Scalars['UUID']['output'];
  /** The billing date of the line. */
  billingDate: Scalars['DateTime']['output'];
  /** The cost center of the line; null when neither the line nor the article has one. */
  costCenterId?: Maybe<Scalars['UUID']['output']>;
  /** netAmount + taxAmount. */
  grossAmount: Scalars['Decimal']['output'];
  /** unitPrice x quantity, rounded half-up to 2 decimals. */
  netAmount: Scalars['Decimal']['output'];
  /** The article price applied. */
  priceId: Scalars['UUID']['output'];
  /** The quantity. */
  quantity: Scalars['Decimal']['output'];
  /** The date the price was chosen for (the price-guarantee date when given, else the billing date). */
  referenceDate: Scalars['DateTime']['output'];
  /** netAmount x taxRate / 100, rounded half-up to 2 decimals. */
  taxAmount: Scalars['Decimal']['output'];
  /** The tax code (taxCodeId). */
  taxCode: TaxCode;
  /** The tax code applied. */
  taxCodeId: Scalars['UUID']['output'];
  /** The tax rate in percent, copied from the tax code. */
  taxRate: Scalars['Decimal']['output'];
  /** The unit price. */
  unitPrice: Scalars['Decimal']['output'];
};

/** One invoice line to price. */
export type QuoteLineInput = {
  /** The article billed. */
  articleId: Scalars['UUID']['input'];
  /** The invoice (billing) date: the reference date of the price unless a price guarantee applies; it always chooses the tax code. */
  billingDate: Scalars['DateTime']['input'];
  /** Overrides the article's default cost center, unless the article has useArticleCostCenter. */
  costCenterId?: InputMaybe<Scalars['UUID']['input']>;
  /** Price guarantee: the contract's reference date (e.g. the matriculation date), used instead of the billing date to choose the price. */
  priceGuaranteeDate?: InputMaybe<Scalars['DateTime']['input']>;
  /** The quantity: > 0, up to 4 decimals. */
  quantity: Scalars['Decimal']['input'];
  /** Overrides the article's default tax code. */
  taxCodeId?: InputMaybe<Scalars['UUID']['input']>;
};

/** The totals of a quote. */
export type QuoteTotals = {
  __typename?: 'QuoteTotals';
  /** The sum of the lines' gross amounts. */
  grossAmount: Scalars['Decimal']['output'];
  /** The sum of the lines' net amounts. */
  netAmount: Scalars['Decimal']['output'];
  /** The sum of the lines' tax amounts. */
  taxAmount: Scalars['Decimal']['output'];
};

/** The direction of a sort key. Nulls come first in ascending and last in descending order, as in the REST door (OData's rule). */
export type SortDirection =
  /** Ascending: nulls first, then smallest first. */
  | 'asc'
  /** Descending: largest first, nulls last. */
  | 'desc';

/** The channel through which a payment source receives payments. */
export type SourceType =
  /** Bank transfers and wire payments. */
  | 'BankTransfer'
  /** Cash payments. */
  | 'Cash'
  /** Check payments. */
  | 'Check'
  /** Credit card payments. */
  | 'CreditCard'
  /** Debit card payments. */
  | 'DebitCard'
  /** Direct debit payments. */
  | 'DirectDebit'
  /** Payments through an online wallet provider. */
  | 'OnlineWallet'
  /** Other payment methods. */
  | 'Other';

/** A condition on a SourceType field; gt/lt compare the values as strings. Several operators in one filter must all hold. */
export type SourceTypeFilter = {
  /** Equal to the value; `eq: null` selects records where the field is null. */
  eq?: InputMaybe<SourceType>;
  /** Greater than or equal to the value. */
  ge?: InputMaybe<SourceType>;
  /** Greater than the value. */
  gt?: InputMaybe<SourceType>;
  /** One of the values (a null item also selects records where the field is null); an empty list matches nothing. */
  in?: InputMaybe<Array<InputMaybe<SourceType>>>;
  /** true: the field is null; false: the field has a value. */
  isNull?: InputMaybe<Scalars['Boolean']['input']>;
  /** Less than or equal to the value. */
  le?: InputMaybe<SourceType>;
  /** Less than the value. */
  lt?: InputMaybe<SourceType>;
  /** Not equal to the value (records where the field is null are included); `ne: null` selects records where the field has a value. */
  ne?: InputMaybe<SourceType>;
};

/** A condition on a text field. Comparisons are case-sensitive unless ignoreCase is true; gt/lt compare by code point. Several operators in one filter must all hold. */
export type StringFilter = {
  /** Contains the text (`%`, `_` and `\\` are literal characters). */
  contains?: InputMaybe<Scalars['String']['input']>;
  /** Ends with the text. */
  endsWith?: InputMaybe<Scalars['String']['input']>;
  /** Equal to the value; `eq: null` selects records where the field is null. */
  eq?: InputMaybe<Scalars['String']['input']>;
  /** Greater than or equal to the value. */
  ge?: InputMaybe<Scalars['String']['input']>;
  /** Greater than the value. */
  gt?: InputMaybe<Scalars['String']['input']>;
  /** Compare ignoring letter case (eq, ne, in, contains, startsWith, endsWith). */
  ignoreCase?: InputMaybe<Scalars['Boolean']['input']>;
  /** One of the values (a null item also selects records where the field is null); an empty list matches nothing. */
  in?: InputMaybe<Array<InputMaybe<Scalars['String']['input']>>>;
  /** true: the field is null; false: the field has a value. */
  isNull?: InputMaybe<Scalars['Boolean']['input']>;
  /** Less than or equal to the value. */
  le?: InputMaybe<Scalars['String']['input']>;
  /** Less than the value. */
  lt?: InputMaybe<Scalars['String']['input']>;
  /** Not equal to the value (records where the field is null are included); `ne: null` selects records where the field has a value. */
  ne?: InputMaybe<Scalars['String']['input']>;
  /** Starts with the text. */
  startsWith?: InputMaybe<Scalars['String']['input']>;
};

/** A tax code: a rate and the accounts used for posting. */
export type TaxCode = {
  __typename?: 'TaxCode';
  /** Short code. */
  code: Scalars['String']['output'];
  /** When the record was created. */
  createdAt: Scalars['DateTime']['output'];
  /** The user who created the record. */
  createdById: Scalars['UUID']['output'];
  /** Description. */
  description?: Maybe<Scalars['String']['output']>;
  /** The tax code's id. */
  id: Scalars['UUID']['output'];
  /** Whether the tax code can be used. */
  isActive: Scalars['Boolean']['output'];
  /** Display name. */
  name: Scalars['String']['output'];
  /** The rate in percent (2 decimals, e.g. 19.00). */
  rate: Scalars['Decimal']['output'];
  /** The revenue account (revenueAccountId). */
  revenueAccount: Account;
  /** The account for revenue posting. */
  revenueAccountId: Scalars['UUID']['output'];
  /** The tax account (taxAccountId). */
  taxAccount: Account;
  /** The account for tax posting. */
  taxAccountId: Scalars['UUID']['output'];
  /** The kind of tax. */
  taxType: TaxType;
  /** When the record was last updated; null when never updated. */
  updatedAt?: Maybe<Scalars['DateTime']['output']>;
  /** The user who last updated the record; null when never updated. */
  updatedById?: Maybe<Scalars['UUID']['output']>;
  /** Start of validity. */
  validFrom: Scalars['DateTime']['output'];
  /** End of validity; null when open-ended. */
  validTo?: Maybe<Scalars['DateTime']['output']>;
};

/** A page of tax codes. */
export type TaxCodeConnection = {
  __typename?: 'TaxCodeConnection';
  /** The records of this page with their cursors. */
  edges: Array<TaxCodeEdge>;
  /** The records of this page. */
  nodes: Array<TaxCode>;
  /** Whether more records follow, and the cursor to continue after. */
  pageInfo: PageInfo;
  /** How many records match `where` in all (ignoring first, after and offset); computed only when asked for. */
  totalCount: Scalars['Int']['output'];
};

/** One of tax codes in a page, with its cursor. */
export type TaxCodeEdge = {
  __typename?: 'TaxCodeEdge';
  /** The cursor of this record: pass it as `after` to continue after it. */
  cursor: Scalars['String']['output'];
  /** The record. */
  node: TaxCode;
};

/** One sort key of a TaxCode list: exactly one field per element; later elements break ties of earlier ones, and the id (ascending) breaks the rest. */
export type TaxCodeOrderBy = {
  /** Sort by code. */
  code?: InputMaybe<SortDirection>;
  /** Sort by createdAt. */
  createdAt?: InputMaybe<SortDirection>;
  /** Sort by createdById. */
  createdById?: InputMaybe<SortDirection>;
  /** Sort by description. */
  description?: InputMaybe<SortDirection>;
  /** Sort by id. */
  id?: InputMaybe<SortDirection>;
  /** Sort by isActive. */
  isActive?: InputMaybe<SortDirection>;
  /** Sort by name. */
  name?: InputMaybe<SortDirection>;
  /** Sort by rate. */
  rate?: InputMaybe<SortDirection>;
  /** Sort by revenueAccountId. */
  revenueAccountId?: InputMaybe<SortDirection>;
  /** Sort by taxAccountId. */
  taxAccountId?: InputMaybe<SortDirection>;
  /** Sort by taxType. */
  taxType?: InputMaybe<SortDirection>;
  /** Sort by updatedAt. */
  updatedAt?: InputMaybe<SortDirection>;
  /** Sort by updatedById. */
  updatedById?: InputMaybe<SortDirection>;
  /** Sort by validFrom. */
  validFrom?: InputMaybe<SortDirection>;
  /** Sort by validTo. */
  validTo?: InputMaybe<SortDirection>;
};

/** A condition on TaxCode records: every field given must hold (AND); combine with AND, OR and NOT. */
export type TaxCodeWhere = {
  /** All of these conditions hold. */
  AND?: InputMaybe<Array<TaxCodeWhere>>;
  /** This condition does not hold. */
  NOT?: InputMaybe<TaxCodeWhere>;
  /** At least one of these conditions holds. */
  OR?: InputMaybe<Array<TaxCodeWhere>>;
  /** Condition on code. */
  code?: InputMaybe<StringFilter>;
  /** Condition on createdAt. */
  createdAt?: InputMaybe<DateTimeFilter>;
  /** Condition on createdById. */
  createdById?: InputMaybe<UuidFilter>;
  /** Condition on description. */
  description?: InputMaybe<StringFilter>;
  /** Condition on id. */
  id?: InputMaybe<UuidFilter>;
  /** Condition on isActive. */
  isActive?: InputMaybe<BooleanFilter>;
  /** Condition on name. */
  name?: InputMaybe<StringFilter>;
  /** Condition on rate. */
  rate?: InputMaybe<DecimalFilter>;
  /** Condition on revenueAccountId. */
  revenueAccountId?: InputMaybe<UuidFilter>;
  /** Condition on taxAccountId. */
  taxAccountId?: InputMaybe<UuidFilter>;
  /** Condition on taxType. */
  taxType?: InputMaybe<TaxTypeFilter>;
  /** Condition on updatedAt. */
  updatedAt?: InputMaybe<DateTimeFilter>;
  /** Condition on updatedById. */
  updatedById?: InputMaybe<UuidFilter>;
  /** Condition on validFrom. */
  validFrom?: InputMaybe<DateTimeFilter>;
  /** Condition on validTo. */
  validTo?: InputMaybe<DateTimeFilter>;
};

/** The kind of tax of a tax code. The REST door writes these as the strings `VAT`, `Sales Tax` and `Exempt`; GraphQL enum values cannot hold a space, so they are VAT, SALES_TAX and EXEMPT here. Filters and sorting use the REST strings (SALES_TAX sorts as `Sales Tax`). */
export type TaxType =
  /** Exempt from tax (REST: `Exempt`). */
  | 'Exempt'
  /** Sales tax (REST: `Sales Tax`). */
  | 'Sales Tax'
  /** Value-added tax (REST: `VAT`). */
  | 'VAT';

/** A condition on a TaxType field; gt/lt compare the REST strings (VAT, Sales Tax, Exempt). Several operators in one filter must all hold. */
export type TaxTypeFilter = {
  /** Equal to the value; `eq: null` selects records where the field is null. */
  eq?: InputMaybe<TaxType>;
  /** Greater than or equal to the value. */
  ge?: InputMaybe<TaxType>;
  /** Greater than the value. */
  gt?: InputMaybe<TaxType>;
  /** One of the values (a null item also selects records where the field is null); an empty list matches nothing. */
  in?: InputMaybe<Array<InputMaybe<TaxType>>>;
  /** true: the field is null; false: the field has a value. */
  isNull?: InputMaybe<Scalars['Boolean']['input']>;
  /** Less than or equal to the value. */
  le?: InputMaybe<TaxType>;
  /** Less than the value. */
  lt?: InputMaybe<TaxType>;
  /** Not equal to the value (records where the field is null are included); `ne: null` selects records where the field has a value. */
  ne?: InputMaybe<TaxType>;
};

/** A condition on a UUID field. Several operators in one filter must all hold. */
export type UuidFilter = {
  /** Equal to the value; `eq: null` selects records where the field is null. */
  eq?: InputMaybe<Scalars['UUID']['input']>;
  /** Greater than or equal to the value. */
  ge?: InputMaybe<Scalars['UUID']['input']>;
  /** Greater than the value. */
  gt?: InputMaybe<Scalars['UUID']['input']>;
  /** One of the values (a null item also selects records where the field is null); an empty list matches nothing. */
  in?: InputMaybe<Array<InputMaybe<Scalars['UUID']['input']>>>;
  /** true: the field is null; false: the field has a value. */
  isNull?: InputMaybe<Scalars['Boolean']['input']>;
  /** Less than or equal to the value. */
  le?: InputMaybe<Scalars['UUID']['input']>;
  /** Less than the value. */
  lt?: InputMaybe<Scalars['UUID']['input']>;
  /** Not equal to the value (records where the field is null are included); `ne: null` selects records where the field has a value. */
  ne?: InputMaybe<Scalars['UUID']['input']>;
};

/** Changes to a payment source: only the fields given change; `description: null` clears the description. */
export type UpdatePaymentSourceInput = {
  /** New financial account: it must exist, be active and be of type Asset. */
  accountId?: InputMaybe<Scalars['UUID']['input']>;
  /** New code: unique across all payment sources (compared case-insensitively); 1-50 characters. */
  code?: InputMaybe<Scalars['String']['input']>;
  /** New description (up to 1000 characters); null clears it. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** Whether the source can be used for new payments. */
  isActive?: InputMaybe<Scalars['Boolean']['input']>;
  /** Whether this is the default payment source. */
  isDefault?: InputMaybe<Scalars['Boolean']['input']>;
  /** New display name; 1-200 characters. */
  name?: InputMaybe<Scalars['String']['input']>;
  /** New kind of channel. */
  sourceType?: InputMaybe<SourceType>;
};



export type ResolverTypeWrapper<T> = Promise<T> | T;


export type ResolverWithResolve<TResult, TParent, TContext, TArgs> = {
  resolve: ResolverFn<TResult, TParent, TContext, TArgs>;
};
export type Resolver<TResult, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = ResolverFn<TResult, TParent, TContext, TArgs> | ResolverWithResolve<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<TResult, TKey extends string, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<TTypes, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (
  parent: TParent,
  context: TContext,
  info: GraphQLResolveInfo
) => Maybe<TTypes> | Promise<Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (obj: T, context: TContext, info: GraphQLResolveInfo) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<TResult = Record<PropertyKey, never>, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;





/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  AcademicTerm: ResolverTypeWrapper<AcademicTermModel>;
  AcademicTermConnection: ResolverTypeWrapper<AcademicTermConnectionModel>;
  AcademicTermEdge: ResolverTypeWrapper<AcademicTermEdgeModel>;
  AcademicTermOrderBy: AcademicTermOrderBy;
  AcademicTermWhere: AcademicTermWhere;
  Account: ResolverTypeWrapper<AccountModel>;
  AccountConnection: ResolverTypeWrapper<AccountConnectionModel>;
  AccountEdge: ResolverTypeWrapper<AccountEdgeModel>;
  AccountOrderBy: AccountOrderBy;
  AccountType: AccountType;
  AccountTypeFilter: AccountTypeFilter;
  AccountWhere: AccountWhere;
  Address: ResolverTypeWrapper<AddressModel>;
  AddressConnection: ResolverTypeWrapper<AddressConnectionModel>;
  AddressEdge: ResolverTypeWrapper<AddressEdgeModel>;
  AddressOrderBy: AddressOrderBy;
  AddressWhere: AddressWhere;
  Article: ResolverTypeWrapper<ArticleModel>;
  ArticleConnection: ResolverTypeWrapper<ArticleConnectionModel>;
  ArticleEdge: ResolverTypeWrapper<ArticleEdgeModel>;
  ArticleOrderBy: ArticleOrderBy;
  ArticlePrice: ResolverTypeWrapper<ArticlePriceModel>;
  ArticlePriceConnection: ResolverTypeWrapper<ArticlePriceConnectionModel>;
  ArticlePriceEdge: ResolverTypeWrapper<ArticlePriceEdgeModel>;
  ArticlePriceOrderBy: ArticlePriceOrderBy;
  ArticlePriceWhere: ArticlePriceWhere;
  ArticleWhere: ArticleWhere;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  BooleanFilter: BooleanFilter;
  CreatePaymentInput: CreatePaymentInput;
  CreatePaymentSourceInput: CreatePaymentSourceInput;
  Customer: ResolverTypeWrapper<CustomerModel>;
  CustomerConnection: ResolverTypeWrapper<CustomerConnectionModel>;
  CustomerEdge: ResolverTypeWrapper<CustomerEdgeModel>;
  CustomerOrderBy: CustomerOrderBy;
  CustomerWhere: CustomerWhere;
  DateTime: ResolverTypeWrapper<Scalars['DateTime']['output']>;
  DateTimeFilter: DateTimeFilter;
  Decimal: ResolverTypeWrapper<Scalars['Decimal']['output']>;
  DecimalFilter: DecimalFilter;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  Mutation: ResolverTypeWrapper<Record<PropertyKey, never>>;
  PageInfo: ResolverTypeWrapper<PageInfo>;
  Payment: ResolverTypeWrapper<PaymentModel>;
  PaymentConnection: ResolverTypeWrapper<PaymentConnectionModel>;
  PaymentEdge: ResolverTypeWrapper<PaymentEdgeModel>;
  PaymentOrderBy: PaymentOrderBy;
  PaymentSource: ResolverTypeWrapper<PaymentSourceModel>;
  PaymentSourceConnection: ResolverTypeWrapper<PaymentSourceConnectionModel>;
  PaymentSourceEdge: ResolverTypeWrapper<PaymentSourceEdgeModel>;
  PaymentSourceOrderBy: PaymentSourceOrderBy;
  PaymentSourceWhere: PaymentSourceWhere;
  PaymentWhere: PaymentWhere;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Quote: ResolverTypeWrapper<QuoteModel>;
  QuoteInput: QuoteInput;
  QuoteLine: ResolverTypeWrapper<QuoteLineModel>;
  QuoteLineInput: QuoteLineInput;
  QuoteTotals: ResolverTypeWrapper<QuoteTotalsModel>;
  SortDirection: null;
  SourceType: SourceType;
  SourceTypeFilter: SourceTypeFilter;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  StringFilter: StringFilter;
  TaxCode: ResolverTypeWrapper<TaxCodeModel>;
  TaxCodeConnection: ResolverTypeWrapper<TaxCodeConnectionModel>;
  TaxCodeEdge: ResolverTypeWrapper<TaxCodeEdgeModel>;
  TaxCodeOrderBy: TaxCodeOrderBy;
  TaxCodeWhere: TaxCodeWhere;
  TaxType: null;
  TaxTypeFilter: TaxTypeFilter;
  UUID: ResolverTypeWrapper<Scalars['UUID']['output']>;
  UUIDFilter: UuidFilter;
  UpdatePaymentSourceInput: UpdatePaymentSourceInput;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  AcademicTerm: AcademicTermModel;
  AcademicTermConnection: AcademicTermConnectionModel;
  AcademicTermEdge: AcademicTermEdgeModel;
  AcademicTermOrderBy: AcademicTermOrderBy;
  AcademicTermWhere: AcademicTermWhere;
  Account: AccountModel;
  AccountConnection: AccountConnectionModel;
  AccountEdge: AccountEdgeModel;
  AccountOrderBy: AccountOrderBy;
  AccountTypeFilter: AccountTypeFilter;
  AccountWhere: AccountWhere;
  Address: AddressModel;
  AddressConnection: AddressConnectionModel;
  AddressEdge: AddressEdgeModel;
  AddressOrderBy: AddressOrderBy;
  AddressWhere: AddressWhere;
  Article: ArticleModel;
  ArticleConnection: ArticleConnectionModel;
  ArticleEdge: ArticleEdgeModel;
  ArticleOrderBy: ArticleOrderBy;
  ArticlePrice: ArticlePriceModel;
  ArticlePriceConnection: ArticlePriceConnectionModel;
  ArticlePriceEdge: ArticlePriceEdgeModel;
  ArticlePriceOrderBy: ArticlePriceOrderBy;
  ArticlePriceWhere: ArticlePriceWhere;
  ArticleWhere: ArticleWhere;
  Boolean: Scalars['Boolean']['output'];
  BooleanFilter: BooleanFilter;
  CreatePaymentInput: CreatePaymentInput;
  CreatePaymentSourceInput: CreatePaymentSourceInput;
  Customer: CustomerModel;
  CustomerConnection: CustomerConnectionModel;
  CustomerEdge: CustomerEdgeModel;
  CustomerOrderBy: CustomerOrderBy;
  CustomerWhere: CustomerWhere;
  DateTime: Scalars['DateTime']['output'];
  DateTimeFilter: DateTimeFilter;
  Decimal: Scalars['Decimal']['output'];
  DecimalFilter: DecimalFilter;
  ID: Scalars['ID']['output'];
  Int: Scalars['Int']['output'];
  Mutation: Record<PropertyKey, never>;
  PageInfo: PageInfo;
  Payment: PaymentModel;
  PaymentConnection: PaymentConnectionModel;
  PaymentEdge: PaymentEdgeModel;
  PaymentOrderBy: PaymentOrderBy;
  PaymentSource: PaymentSourceModel;
  PaymentSourceConnection: PaymentSourceConnectionModel;
  PaymentSourceEdge: PaymentSourceEdgeModel;
  PaymentSourceOrderBy: PaymentSourceOrderBy;
  PaymentSourceWhere: PaymentSourceWhere;
  PaymentWhere: PaymentWhere;
  Query: Record<PropertyKey, never>;
  Quote: QuoteModel;
  QuoteInput: QuoteInput;
  QuoteLine: QuoteLineModel;
  QuoteLineInput: QuoteLineInput;
  QuoteTotals: QuoteTotalsModel;
  SourceTypeFilter: SourceTypeFilter;
  String: Scalars['String']['output'];
  StringFilter: StringFilter;
  TaxCode: TaxCodeModel;
  TaxCodeConnection: TaxCodeConnectionModel;
  TaxCodeEdge: TaxCodeEdgeModel;
  TaxCodeOrderBy: TaxCodeOrderBy;
  TaxCodeWhere: TaxCodeWhere;
  TaxTypeFilter: TaxTypeFilter;
  UUID: Scalars['UUID']['output'];
  UUIDFilter: UuidFilter;
  UpdatePaymentSourceInput: UpdatePaymentSourceInput;
};

export type AcademicTermResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['AcademicTerm'] = ResolversParentTypes['AcademicTerm']> = {
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  endDate?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  externalSystemId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  startDate?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  statisticalSemester?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type AcademicTermConnectionResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['AcademicTermConnection'] = ResolversParentTypes['AcademicTermConnection']> = {
  edges?: Resolver<Array<ResolversTypes['AcademicTermEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['AcademicTerm']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type AcademicTermEdgeResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['AcademicTermEdge'] = ResolversParentTypes['AcademicTermEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['AcademicTerm'], ParentType, ContextType>;
};

export type AccountResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['Account'] = ResolversParentTypes['Account']> = {
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  isActive?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  paymentSources?: Resolver<Array<ResolversTypes['PaymentSource']>, ParentType, ContextType>;
  type?: Resolver<ResolversTypes['AccountType'], ParentType, ContextType>;
};

export type AccountConnectionResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['AccountConnection'] = ResolversParentTypes['AccountConnection']> = {
  edges?: Resolver<Array<ResolversTypes['AccountEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['Account']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type AccountEdgeResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['AccountEdge'] = ResolversParentTypes['AccountEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Account'], ParentType, ContextType>;
};

export type AddressResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['Address'] = ResolversParentTypes['Address']> = {
  addressType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  city?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  country?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  customer?: Resolver<ResolversTypes['Customer'], ParentType, ContextType>;
  customerId?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  isDefault?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  postalCode?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  street?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type AddressConnectionResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['AddressConnection'] = ResolversParentTypes['AddressConnection']> = {
  edges?: Resolver<Array<ResolversTypes['AddressEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['Address']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type AddressEdgeResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['AddressEdge'] = ResolversParentTypes['AddressEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Address'], ParentType, ContextType>;
};

export type ArticleResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['Article'] = ResolversParentTypes['Article']> = {
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  createdById?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  defaultCostCenterId?: Resolver<Maybe<ResolversTypes['UUID']>, ParentType, ContextType>;
  defaultTaxCode?: Resolver<Maybe<ResolversTypes['TaxCode']>, ParentType, ContextType>;
  defaultTaxCodeId?: Resolver<Maybe<ResolversTypes['UUID']>, ParentType, ContextType>;
  description?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  isActive?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  priceAt?: Resolver<Maybe<ResolversTypes['ArticlePrice']>, ParentType, ContextType, RequireFields<ArticlePriceAtArgs, 'date'>>;
  prices?: Resolver<Array<ResolversTypes['ArticlePrice']>, ParentType, ContextType>;
  revenueAccount?: Resolver<Maybe<ResolversTypes['Account']>, ParentType, ContextType>;
  revenueAccountId?: Resolver<Maybe<ResolversTypes['UUID']>, ParentType, ContextType>;
  updatedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  updatedById?: Resolver<Maybe<ResolversTypes['UUID']>, ParentType, ContextType>;
  useArticleCostCenter?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type ArticleConnectionResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['ArticleConnection'] = ResolversParentTypes['ArticleConnection']> = {
  edges?: Resolver<Array<ResolversTypes['ArticleEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['Article']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type ArticleEdgeResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['ArticleEdge'] = ResolversParentTypes['ArticleEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Article'], ParentType, ContextType>;
};

export type ArticlePriceResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['ArticlePrice'] = ResolversParentTypes['ArticlePrice']> = {
  amount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  article?: Resolver<ResolversTypes['Article'], ParentType, ContextType>;
  articleId?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  validFrom?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
};

export type ArticlePriceConnectionResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['ArticlePriceConnection'] = ResolversParentTypes['ArticlePriceConnection']> = {
  edges?: Resolver<Array<ResolversTypes['ArticlePriceEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['ArticlePrice']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type ArticlePriceEdgeResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['ArticlePriceEdge'] = ResolversParentTypes['ArticlePriceEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['ArticlePrice'], ParentType, ContextType>;
};

export type CustomerResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['Customer'] = ResolversParentTypes['Customer']> = {
  addresses?: Resolver<Array<ResolversTypes['Address']>, ParentType, ContextType>;
  cmsStudentId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  creditorNumber?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  debtorNumber?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  defaultAddress?: Resolver<Maybe<ResolversTypes['Address']>, ParentType, ContextType>;
  email?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  firstName?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  lastName?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  matriculationId?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  payments?: Resolver<Array<ResolversTypes['Payment']>, ParentType, ContextType>;
  prepaymentAccount?: Resolver<Maybe<ResolversTypes['Account']>, ParentType, ContextType>;
  prepaymentAccountId?: Resolver<Maybe<ResolversTypes['UUID']>, ParentType, ContextType>;
  receivableAccount?: Resolver<Maybe<ResolversTypes['Account']>, ParentType, ContextType>;
  receivableAccountId?: Resolver<Maybe<ResolversTypes['UUID']>, ParentType, ContextType>;
};

export type CustomerConnectionResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['CustomerConnection'] = ResolversParentTypes['CustomerConnection']> = {
  edges?: Resolver<Array<ResolversTypes['CustomerEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['Customer']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type CustomerEdgeResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['CustomerEdge'] = ResolversParentTypes['CustomerEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Customer'], ParentType, ContextType>;
};

export interface DateTimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['DateTime'], any> {
  name: 'DateTime';
}

export interface DecimalScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['Decimal'], any> {
  name: 'Decimal';
}

export type MutationResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = {
  createPayment?: Resolver<ResolversTypes['Payment'], ParentType, ContextType, RequireFields<MutationCreatePaymentArgs, 'input'>>;
  createPaymentSource?: Resolver<ResolversTypes['PaymentSource'], ParentType, ContextType, RequireFields<MutationCreatePaymentSourceArgs, 'input'>>;
  deletePaymentSource?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType, RequireFields<MutationDeletePaymentSourceArgs, 'id'>>;
  updatePaymentSource?: Resolver<ResolversTypes['PaymentSource'], ParentType, ContextType, RequireFields<MutationUpdatePaymentSourceArgs, 'id' | 'input'>>;
};

export type PageInfoResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo']> = {
  endCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type PaymentResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['Payment'] = ResolversParentTypes['Payment']> = {
  amount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  createdById?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  customer?: Resolver<ResolversTypes['Customer'], ParentType, ContextType>;
  customerId?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  paymentSource?: Resolver<ResolversTypes['PaymentSource'], ParentType, ContextType>;
  paymentSourceId?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  receivedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  reference?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type PaymentConnectionResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['PaymentConnection'] = ResolversParentTypes['PaymentConnection']> = {
  edges?: Resolver<Array<ResolversTypes['PaymentEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['Payment']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type PaymentEdgeResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['PaymentEdge'] = ResolversParentTypes['PaymentEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Payment'], ParentType, ContextType>;
};

export type PaymentSourceResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['PaymentSource'] = ResolversParentTypes['PaymentSource']> = {
  account?: Resolver<ResolversTypes['Account'], ParentType, ContextType>;
  accountId?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  createdById?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  description?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  isActive?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  isDefault?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  payments?: Resolver<Array<ResolversTypes['Payment']>, ParentType, ContextType>;
  sourceType?: Resolver<ResolversTypes['SourceType'], ParentType, ContextType>;
  updatedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  updatedById?: Resolver<Maybe<ResolversTypes['UUID']>, ParentType, ContextType>;
};

export type PaymentSourceConnectionResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['PaymentSourceConnection'] = ResolversParentTypes['PaymentSourceConnection']> = {
  edges?: Resolver<Array<ResolversTypes['PaymentSourceEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['PaymentSource']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type PaymentSourceEdgeResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['PaymentSourceEdge'] = ResolversParentTypes['PaymentSourceEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['PaymentSource'], ParentType, ContextType>;
};

export type QueryResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  academicTerm?: Resolver<Maybe<ResolversTypes['AcademicTerm']>, ParentType, ContextType, RequireFields<QueryAcademicTermArgs, 'id'>>;
  academicTerms?: Resolver<ResolversTypes['AcademicTermConnection'], ParentType, ContextType, RequireFields<QueryAcademicTermsArgs, 'first'>>;
  account?: Resolver<Maybe<ResolversTypes['Account']>, ParentType, ContextType, RequireFields<QueryAccountArgs, 'id'>>;
  accounts?: Resolver<ResolversTypes['AccountConnection'], ParentType, ContextType, RequireFields<QueryAccountsArgs, 'first'>>;
  address?: Resolver<Maybe<ResolversTypes['Address']>, ParentType, ContextType, RequireFields<QueryAddressArgs, 'id'>>;
  addresses?: Resolver<ResolversTypes['AddressConnection'], ParentType, ContextType, RequireFields<QueryAddressesArgs, 'first'>>;
  article?: Resolver<Maybe<ResolversTypes['Article']>, ParentType, ContextType, RequireFields<QueryArticleArgs, 'id'>>;
  articlePrice?: Resolver<Maybe<ResolversTypes['ArticlePrice']>, ParentType, ContextType, RequireFields<QueryArticlePriceArgs, 'id'>>;
  articlePrices?: Resolver<ResolversTypes['ArticlePriceConnection'], ParentType, ContextType, RequireFields<QueryArticlePricesArgs, 'first'>>;
  articles?: Resolver<ResolversTypes['ArticleConnection'], ParentType, ContextType, RequireFields<QueryArticlesArgs, 'first'>>;
  customer?: Resolver<Maybe<ResolversTypes['Customer']>, ParentType, ContextType, RequireFields<QueryCustomerArgs, 'id'>>;
  customers?: Resolver<ResolversTypes['CustomerConnection'], ParentType, ContextType, RequireFields<QueryCustomersArgs, 'first'>>;
  payment?: Resolver<Maybe<ResolversTypes['Payment']>, ParentType, ContextType, RequireFields<QueryPaymentArgs, 'id'>>;
  paymentSource?: Resolver<Maybe<ResolversTypes['PaymentSource']>, ParentType, ContextType, RequireFields<QueryPaymentSourceArgs, 'id'>>;
  paymentSources?: Resolver<ResolversTypes['PaymentSourceConnection'], ParentType, ContextType, RequireFields<QueryPaymentSourcesArgs, 'first'>>;
  payments?: Resolver<ResolversTypes['PaymentConnection'], ParentType, ContextType, RequireFields<QueryPaymentsArgs, 'first'>>;
  quote?: Resolver<ResolversTypes['Quote'], ParentType, ContextType, RequireFields<QueryQuoteArgs, 'input'>>;
  taxCode?: Resolver<Maybe<ResolversTypes['TaxCode']>, ParentType, ContextType, RequireFields<QueryTaxCodeArgs, 'id'>>;
  taxCodes?: Resolver<ResolversTypes['TaxCodeConnection'], ParentType, ContextType, RequireFields<QueryTaxCodesArgs, 'first'>>;
};

export type QuoteResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['Quote'] = ResolversParentTypes['Quote']> = {
  lines?: Resolver<Array<ResolversTypes['QuoteLine']>, ParentType, ContextType>;
  totals?: Resolver<ResolversTypes['QuoteTotals'], ParentType, ContextType>;
};

export type QuoteLineResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['QuoteLine'] = ResolversParentTypes['QuoteLine']> = {
  academicTerm?: Resolver<Maybe<ResolversTypes['AcademicTerm']>, ParentType, ContextType>;
  academicTermId?: Resolver<Maybe<ResolversTypes['UUID']>, ParentType, ContextType>;
  article?: Resolver<ResolversTypes['Article'], ParentType, ContextType>;
  articleId?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  billingDate?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  costCenterId?: Resolver<Maybe<ResolversTypes['UUID']>, ParentType, ContextType>;
  grossAmount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  netAmount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  priceId?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  quantity?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  referenceDate?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  taxAmount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  taxCode?: Resolver<ResolversTypes['TaxCode'], ParentType, ContextType>;
  taxCodeId?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  taxRate?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  unitPrice?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
};

export type QuoteTotalsResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['QuoteTotals'] = ResolversParentTypes['QuoteTotals']> = {
  grossAmount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  netAmount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  taxAmount?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
};

export type SortDirectionResolvers = { ASC: 'asc', DESC: 'desc' };

export type TaxCodeResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['TaxCode'] = ResolversParentTypes['TaxCode']> = {
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  createdById?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  description?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  isActive?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  rate?: Resolver<ResolversTypes['Decimal'], ParentType, ContextType>;
  revenueAccount?: Resolver<ResolversTypes['Account'], ParentType, ContextType>;
  revenueAccountId?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  taxAccount?: Resolver<ResolversTypes['Account'], ParentType, ContextType>;
  taxAccountId?: Resolver<ResolversTypes['UUID'], ParentType, ContextType>;
  taxType?: Resolver<ResolversTypes['TaxType'], ParentType, ContextType>;
  updatedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  updatedById?: Resolver<Maybe<ResolversTypes['UUID']>, ParentType, ContextType>;
  validFrom?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  validTo?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
};

export type TaxCodeConnectionResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['TaxCodeConnection'] = ResolversParentTypes['TaxCodeConnection']> = {
  edges?: Resolver<Array<ResolversTypes['TaxCodeEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['TaxCode']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type TaxCodeEdgeResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['TaxCodeEdge'] = ResolversParentTypes['TaxCodeEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['TaxCode'], ParentType, ContextType>;
};

export type TaxTypeResolvers = { EXEMPT: 'Exempt', SALES_TAX: 'Sales Tax', VAT: 'VAT' };

export interface UuidScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['UUID'], any> {
  name: 'UUID';
}

export type Resolvers<ContextType = GraphqlContext> = {
  AcademicTerm?: AcademicTermResolvers<ContextType>;
  AcademicTermConnection?: AcademicTermConnectionResolvers<ContextType>;
  AcademicTermEdge?: AcademicTermEdgeResolvers<ContextType>;
  Account?: AccountResolvers<ContextType>;
  AccountConnection?: AccountConnectionResolvers<ContextType>;
  AccountEdge?: AccountEdgeResolvers<ContextType>;
  Address?: AddressResolvers<ContextType>;
  AddressConnection?: AddressConnectionResolvers<ContextType>;
  AddressEdge?: AddressEdgeResolvers<ContextType>;
  Article?: ArticleResolvers<ContextType>;
  ArticleConnection?: ArticleConnectionResolvers<ContextType>;
  ArticleEdge?: ArticleEdgeResolvers<ContextType>;
  ArticlePrice?: ArticlePriceResolvers<ContextType>;
  ArticlePriceConnection?: ArticlePriceConnectionResolvers<ContextType>;
  ArticlePriceEdge?: ArticlePriceEdgeResolvers<ContextType>;
  Customer?: CustomerResolvers<ContextType>;
  CustomerConnection?: CustomerConnectionResolvers<ContextType>;
  CustomerEdge?: CustomerEdgeResolvers<ContextType>;
  DateTime?: GraphQLScalarType;
  Decimal?: GraphQLScalarType;
  Mutation?: MutationResolvers<ContextType>;
  PageInfo?: PageInfoResolvers<ContextType>;
  Payment?: PaymentResolvers<ContextType>;
  PaymentConnection?: PaymentConnectionResolvers<ContextType>;
  PaymentEdge?: PaymentEdgeResolvers<ContextType>;
  PaymentSource?: PaymentSourceResolvers<ContextType>;
  PaymentSourceConnection?: PaymentSourceConnectionResolvers<ContextType>;
  PaymentSourceEdge?: PaymentSourceEdgeResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  Quote?: QuoteResolvers<ContextType>;
  QuoteLine?: QuoteLineResolvers<ContextType>;
  QuoteTotals?: QuoteTotalsResolvers<ContextType>;
  SortDirection?: SortDirectionResolvers;
  TaxCode?: TaxCodeResolvers<ContextType>;
  TaxCodeConnection?: TaxCodeConnectionResolvers<ContextType>;
  TaxCodeEdge?: TaxCodeEdgeResolvers<ContextType>;
  TaxType?: TaxTypeResolvers;
  UUID?: GraphQLScalarType;
};

