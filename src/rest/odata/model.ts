// The OData model of the REST door: which entity sets exist, under which URL, with which
// entity type, fields and relations. Everything OData-shaped (the service document, the
// metadata, `@odata.context`, entity-set names in URLs, $expand) reads this one list, and
// the list itself reads the field and relation catalogues each resource declares once.

import { accountFields } from '../../domain/account/fields';
import { academicTermFields } from '../../domain/academic-term/fields';
import { articleFields, articleRelations } from '../../domain/article/fields';
import { changeLogFields } from '../../domain/change-log/fields';
import { customerFields, customerRelations } from '../../domain/customer/fields';
import { paymentFields, paymentRelations } from '../../domain/payment/fields';
import { paymentSourceFields, paymentSourceRelations } from '../../domain/payment-source/fields';
import { taxCodeFields } from '../../domain/tax-code/fields';
import type { FieldCatalog, RelationCatalog } from '../../query/fields';

/** The schema namespace of the metadata (`Billing.PaymentSource`). */
export const NAMESPACE = 'Billing';
export const CONTAINER = 'Container';

export interface EntitySetModel {
  /** The entity set's name in the metadata and service document (an OData identifier). */
  readonly name: string;
  /** Its URL segment under the REST base (`payment-sources`); the name works as well. */
  readonly path: string;
  /** The entity type of its records. */
  readonly type: string;
  readonly fields: FieldCatalog;
  readonly relations: RelationCatalog;
  /** Records carry properties beyond `fields` (an OData open type): the change log's seq and changes. */
  readonly open?: boolean;
}

const set = (name: string, path: string, type: string, fields: FieldCatalog, relations: RelationCatalog = {}, open = false): EntitySetModel => ({
  name,
  path,
  type,
  fields,
  relations,
  ...(open ? { open } : {}),
});

export const ENTITY_SETS = {
  paymentSources: set('PaymentSources', 'payment-sources', 'PaymentSource', paymentSourceFields, paymentSourceRelations),
  payments: set('Payments', 'payments', 'Payment', paymentFields, paymentRelations),
  accounts: set('Accounts', 'accounts', 'Account', accountFields),
  articles: set('Articles', 'articles', 'Article', articleFields, articleRelations),
  customers: set('Customers', 'customers', 'Customer', customerFields, customerRelations),
  taxCodes: set('TaxCodes', 'tax-codes', 'TaxCode', taxCodeFields),
  academicTerms: set('AcademicTerms', 'academic-terms', 'AcademicTerm', academicTermFields),
  changes: set('Changes', 'changes', 'Change', changeLogFields, {}, true),
} as const satisfies Record<string, EntitySetModel>;

export const ALL_ENTITY_SETS: readonly EntitySetModel[] = Object.values(ENTITY_SETS);

/** The entity set a URL segment names, by its path (`payment-sources`) or its name (`PaymentSources`). */
export const entitySetOf = (segment: string): EntitySetModel | undefined =>
  ALL_ENTITY_SETS.find((s) => s.path === segment || s.name === segment);

export interface EntityTypeModel {
  readonly name: string;
  readonly fields: FieldCatalog;
  readonly relations: RelationCatalog;
  readonly open?: boolean;
}

/**
 * Every entity type: those of the entity sets, and those reached only through a relation
 * (an article's prices, a customer's addresses), which have no set of their own.
 */
export function entityTypes(): EntityTypeModel[] {
  const types = new Map<string, EntityTypeModel>();
  for (const s of ALL_ENTITY_SETS) types.set(s.type, { name: s.type, fields: s.fields, relations: s.relations, ...(s.open ? { open: true } : {}) });
  for (const s of ALL_ENTITY_SETS) {
    for (const r of Object.values(s.relations)) if (!types.has(r.type)) types.set(r.type, { name: r.type, fields: r.fields, relations: {} });
  }
  return [...types.values()];
}
