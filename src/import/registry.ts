import type { z } from 'zod';
import type { Prisma } from '../generated/prisma/client';
import type { FieldCatalog } from '../query/fields';
import { academicTermFields } from '../domain/academic-term/fields';
import { academicTermRecord } from '../domain/academic-term/schema';
import { accountFields } from '../domain/account/fields';
import { accountRecord } from '../domain/account/schema';
import { addressFields } from '../domain/address/fields';
import { articlePriceFields } from '../domain/article-price/fields';
import { articlePriceRecord } from '../domain/article-price/schema';
import { articleFields } from '../domain/article/fields';
import { articleRecord } from '../domain/article/schema';
import { customerFields } from '../domain/customer/fields';
import { customerRecord } from '../domain/customer/schema';
import { paymentSourceFields } from '../domain/payment-source/fields';
import { codeKey } from '../domain/payment-source/rules';
import { paymentSourceRecord } from '../domain/payment-source/schema';
import { taxCodeFields } from '../domain/tax-code/fields';
import { taxCodeRecord } from '../domain/tax-code/schema';

// The one registry of what an import file holds: its sections, in the order the import
// writes them when it can, and for each the record schema, the table, the columns (the
// resource's field catalogue), the references to other sections and the unique key.
// Everything else of the import (section lists, write order, lookups, upserts, moving keys
// aside, counts) is derived from here: adding a resource to the import is one entry.

export type Raw = Record<string, unknown>;

export interface Reference {
  /** The field holding the id. */
  readonly field: string;
  readonly target: FileSection;
}

/** A unique key of a section's table other than the id (codes, debtor numbers, an article's price dates). */
export interface UniqueKey {
  /** The field a clash is reported on. */
  readonly field: string;
  /** The key as written in the record (parsed, or raw when the record is invalid); undefined: none to claim. */
  readonly text: (r: Raw) => string | undefined;
  /** What is compared: two records clash when their keys are equal. */
  readonly key: (text: string) => string;
  /** SQL: the table's row `t` holds the key `f.key` (from `key`). Built from our own names only. */
  readonly match: string;
  /**
   * SQL of the SET clause that moves the key of row `t` aside, `f.n` being its 1-based
   * number among the rows moved (for keys the file swaps between rows).
   */
  readonly moveAside: string;
  /** The problem of a record whose key another record of the file has (at `other`). */
  readonly inFile: (text: string, other: string) => string;
  /** How the key is named in a problem with a row of the database. */
  readonly show: (key: string) => string;
}

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

export interface SectionDef {
  readonly noun: string;
  readonly table: Prisma.ModelName;
  readonly schema: z.ZodType;
  /** The columns written: every field of the catalogue (audit fields handled apart). */
  readonly fields: FieldCatalog;
  /** Database enum types of enum columns stored as such (other enums are text with a CHECK). */
  readonly enumTypes?: Readonly<Record<string, string>>;
  readonly references: readonly Reference[];
  readonly unique?: UniqueKey;
}

const str = (r: Raw, name: string): string | undefined => (typeof r[name] === 'string' ? r[name] : undefined);
const preview = (v: string): string => {
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

/** A text column that is unique as it is written. */
function column(field: string, what: string): UniqueKey {
  return {
    field,
    text: (r) => str(r, field),
    key: (t) => t,
    match: `t."${field}" = f.key`,
    // A temporary key that cannot clash: '~' and 19 hex digits of the row's id hash (fits varchar(20)).
    moveAside: `"${field}" = '~' || substr(md5(t."id"::text), 1, 19)`,
    inFile: (t, other) => `${what} ${preview(t)} is also used by ${other}`,
    show: (k) => `${what} ${preview(k)}`,
  };
}

const ref = (field: string, target: FileSection): Reference => ({ field, target });

export const SECTIONS = {
  accounts: {
    noun: 'account',
    table: 'Account',
    schema: accountRecord,
    fields: accountFields,
    enumTypes: { type: '"AccountType"' },
    references: [],
    unique: column('code', 'code'),
  },
  taxCodes: {
    noun: 'tax code',
    table: 'TaxCode',
    schema: taxCodeRecord,
    fields: taxCodeFields,
    references: [ref('taxAccountId', 'accounts'), ref('revenueAccountId', 'accounts')],
  },
  articles: {
    noun: 'article',
    table: 'Article',
    schema: articleRecord,
    fields: articleFields,
    references: [ref('defaultTaxCodeId', 'taxCodes'), ref('revenueAccountId', 'accounts')],
    unique: column('code', 'code'),
  },
  articlePrices: {
    noun: 'article price',
    table: 'ArticlePrice',
    schema: articlePriceRecord,
    fields: articlePriceFields,
    references: [ref('articleId', 'articles')],
    unique: {
      field: 'validFrom',
      // Only of a valid record: "articleId validFrom" with the instant in ISO form.
      text: (r) => (r.validFrom instanceof Date && typeof r.articleId === 'string' ? `${r.articleId} ${r.validFrom.toISOString()}` : undefined),
      key: (t) => t,
      match: `t."articleId" = split_part(f.key, ' ', 1)::uuid AND t."validFrom" = split_part(f.key, ' ', 2)::timestamptz`,
      // Distinct instants no price uses: the first milliseconds of year 1, one per row.
      moveAside: `"validFrom" = timestamptz '0001-01-01T00:00:00Z' + f.n * interval '1 millisecond'`,
      inFile: (t, other) => `the article already has a price from ${t.split(' ')[1]}: ${other}`,
      show: (k) => `validFrom ${k.split(' ')[1]} of this article`,
    },
  },
  customers: {
    noun: 'customer',
    table: 'Customer',
    schema: customerRecord,
    fields: customerFields,
    references: [ref('receivableAccountId', 'accounts'), ref('prepaymentAccountId', 'accounts')],
    unique: column('debtorNumber', 'debtor number'),
  },
  academicTerms: {
    noun: 'academic term',
    table: 'AcademicTerm',
    schema: academicTermRecord,
    fields: academicTermFields,
    references: [],
    unique: column('code', 'code'),
  },
  paymentSources: {
    noun: 'payment source',
    table: 'PaymentSource',
    schema: paymentSourceRecord,
    fields: paymentSourceFields,
    enumTypes: { sourceType: '"SourceType"' },
    references: [ref('accountId', 'accounts')],
    unique: {
      ...column('code', 'code'),
      key: codeKey,
      match: `lower(t."code") = f.key`,
      inFile: (t, other) => `code ${preview(t)} is also used by ${other}; codes compare case-insensitively`,
      show: (k) => `code ${preview(k)} (compared case-insensitively)`,
    },
  },
} satisfies Record<FileSection, SectionDef>;

/** The records nested in customers: written to their own table, counted as their own section. */
export const ADDRESSES = { noun: 'address', table: 'Address', fields: addressFields } as const satisfies Pick<SectionDef, 'noun' | 'table' | 'fields'>;

/** What the import counts: the file sections, addresses right after the customers that hold them. */
export const IMPORT_SECTIONS = FILE_SECTIONS.flatMap((s) => (s === 'customers' ? (['customers', 'addresses'] as const) : [s]));
export type ImportSection = FileSection | 'addresses';

/** A section's definition, as the common shape. */
export const sectionDef = (s: FileSection): SectionDef => SECTIONS[s];

export const isFileSection = (name: string): name is FileSection => Object.hasOwn(SECTIONS, name);

/** Sections whose rows a section's records point at. */
export const dependsOn = (s: FileSection): FileSection[] => [...new Set(sectionDef(s).references.map((r) => r.target))];

/** Database tables per counted section. */
export const TABLE = Object.fromEntries(
  IMPORT_SECTIONS.map((s) => [s, s === 'addresses' ? ADDRESSES.table : SECTIONS[s].table]),
) as Readonly<Record<ImportSection, Prisma.ModelName>>;

export const NOUN = (s: ImportSection): string => (s === 'addresses' ? ADDRESSES.noun : SECTIONS[s].noun);

/** Per file section, a value made by `f`. */
export function perFileSection<T>(f: (s: FileSection) => T): Record<FileSection, T> {
  return Object.fromEntries(FILE_SECTIONS.map((s) => [s, f(s)])) as Record<FileSection, T>;
}

/** Per counted section, a value made by `f`. */
export function perSection<T>(f: (s: ImportSection) => T): Record<ImportSection, T> {
  return Object.fromEntries(IMPORT_SECTIONS.map((s) => [s, f(s)])) as Record<ImportSection, T>;
}

export type RecordOf<S extends FileSection> = z.output<(typeof SECTIONS)[S]['schema']>;
