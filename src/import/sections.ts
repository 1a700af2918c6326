import type { z } from 'zod';
import { academicTermRecord } from '../domain/academic-term/schema';
import { accountRecord } from '../domain/account/schema';
import { articlePriceRecord } from '../domain/article-price/schema';
import { articleRecord } from '../domain/article/schema';
import { customerRecord } from '../domain/customer/schema';
import { paymentSourceRecord } from '../domain/payment-source/schema';
import { taxCodeRecord } from '../domain/tax-code/schema';

// The sections of an import file (docs/service.md "Reference-data import"), what each
// depends on, and the record schema each is validated with.

/** Top-level keys of an import file, in the order the import writes them when it can. */
export const FILE_SECTIONS = [
  'accounts',
  'taxCodes',
  'articles',
  'articlePrices',
  'customers',
  'academicTerms',
  'paymentSources',
] as const;
export type FileSection = (typeof FILE_SECTIONS)[number];

/** What the import counts: the file sections plus the addresses nested in customers. */
export const IMPORT_SECTIONS = [
  'accounts',
  'taxCodes',
  'articles',
  'articlePrices',
  'customers',
  'addresses',
  'academicTerms',
  'paymentSources',
] as const;
export type ImportSection = (typeof IMPORT_SECTIONS)[number];

export const isFileSection = (name: string): name is FileSection =>
  (FILE_SECTIONS as readonly string[]).includes(name);

/** Sections whose rows a section's foreign keys point at. */
export const DEPENDS_ON: Readonly<Record<FileSection, readonly FileSection[]>> = {
  accounts: [],
  taxCodes: ['accounts'],
  articles: ['taxCodes', 'accounts'],
  articlePrices: ['articles'],
  customers: ['accounts'],
  academicTerms: [],
  paymentSources: ['accounts'],
};

export const SCHEMAS = {
  accounts: accountRecord,
  taxCodes: taxCodeRecord,
  articles: articleRecord,
  articlePrices: articlePriceRecord,
  customers: customerRecord,
  academicTerms: academicTermRecord,
  paymentSources: paymentSourceRecord,
} as const satisfies Record<FileSection, z.ZodType>;

export type RecordOf<S extends FileSection> = z.output<(typeof SCHEMAS)[S]>;

/** Singular nouns for messages. */
export const NOUN: Readonly<Record<FileSection | 'addresses', string>> = {
  accounts: 'account',
  taxCodes: 'tax code',
  articles: 'article',
  articlePrices: 'article price',
  customers: 'customer',
  addresses: 'address',
  academicTerms: 'academic term',
  paymentSources: 'payment source',
};

/** Database tables, for the sections that foreign keys point at and for the checks. */
export const TABLE: Readonly<Record<FileSection | 'addresses', string>> = {
  accounts: 'Account',
  taxCodes: 'TaxCode',
  articles: 'Article',
  articlePrices: 'ArticlePrice',
  customers: 'Customer',
  addresses: 'Address',
  academicTerms: 'AcademicTerm',
  paymentSources: 'PaymentSource',
};
