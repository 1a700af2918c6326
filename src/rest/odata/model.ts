// The OData model of the REST door: which entity sets exist, under which URL, with which
// entity type, fields and relations. Everything OData-shaped (the service document, the
// metadata, `@odata.context`, entity-set names in URLs, $expand) reads this one list, and
// the list itself is the resource declarations' (src/domain/resources.ts): a resource with
// an entity set is a set here, its expandable relations its navigation properties.

import { ALL_RESOURCES, expandableRelations, type DeclaredResource, type ResourceModel } from '../../domain/resources';
import { changeLogFields } from '../../domain/change-log/fields';
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
  readonly type: ResourceModel | 'Change';
  readonly fields: FieldCatalog;
  readonly relations: RelationCatalog;
  /** Records carry properties beyond `fields` (an OData open type): the change log's seq and changes. */
  readonly open?: boolean;
}

/** The entity set of a resource's REST collection. */
export type ResourceSetModel = EntitySetModel & { readonly type: ResourceModel };

const setOf = (r: DeclaredResource): ResourceSetModel[] =>
  r.entitySet
    ? [{ name: r.entitySet.name, path: r.entitySet.path, type: r.model, fields: r.fields, relations: expandableRelations(r) }]
    : [];

/** The resources' entity sets, in the order of the declarations. */
export const RESOURCE_SETS: readonly ResourceSetModel[] = ALL_RESOURCES.flatMap(setOf);

/** The change log (docs/changes.md): not a resource of its own, read with the scope billing.audit. */
export const CHANGES_SET: EntitySetModel = {
  name: 'Changes',
  path: 'changes',
  type: 'Change',
  fields: changeLogFields,
  relations: {},
  open: true,
};

/** Every entity set: the resources', then the change log. */
export const ALL_ENTITY_SETS: readonly EntitySetModel[] = [...RESOURCE_SETS, CHANGES_SET];

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
  for (const s of ALL_ENTITY_SETS)
    types.set(s.type, { name: s.type, fields: s.fields, relations: s.relations, ...(s.open ? { open: true } : {}) });
  for (const s of ALL_ENTITY_SETS) {
    for (const r of Object.values(s.relations))
      if (!types.has(r.type)) types.set(r.type, { name: r.type, fields: r.fields, relations: {} });
  }
  return [...types.values()];
}
