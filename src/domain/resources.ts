import type { RelationCatalog, RelationSpec } from '../query/fields';
import type { ModelName, Relation, Resource } from './common/declaration';
import { DECLARED, WRITTEN } from './__generated__/declarations';

/**
 * A folder's declaration must be the model its folder names (`payment-source` declares
 * `PaymentSource`): a registry entry under another model's name does not type-check.
 */
type KeyedByModel<T> = { readonly [K in keyof T]: T[K] extends { readonly model: K } ? T[K] : never };

/**
 * Every resource, by model: the one list the doors, the import and the read path derive
 * theirs from. The build collects it from the folders of src/domain that hold a resource.ts
 * (scripts/resource-folders.mjs), so adding a resource adds no line here.
 */
export const RESOURCES = DECLARED satisfies KeyedByModel<typeof DECLARED> & Partial<Record<ModelName, Resource>>;

export type ResourceModel = keyof typeof RESOURCES;
/** The services' keys, the GraphQL list fields and the import sections: each resource's `plural`. */
export type ResourcePlural = (typeof RESOURCES)[ResourceModel]['plural'];
/** A declaration known to be one of RESOURCES: its model and name are those of a declared resource. */
export type DeclaredResource = Resource & Pick<(typeof RESOURCES)[ResourceModel], 'model' | 'name'>;
export const ALL_RESOURCES: readonly DeclaredResource[] = Object.values(RESOURCES);

/** The resources a billing office maintains through the common write path (their folder has a writes.ts). */
export const WRITTEN_MODELS: readonly ResourceModel[] = WRITTEN;

export const isResourceModel = (model: ModelName): model is ResourceModel => Object.hasOwn(RESOURCES, model);

/** A relation whose target is a declared resource (the drift test holds every declaration to that). */
export const pointsAtResource = <R extends Relation>(relation: R): relation is R & { readonly target: ResourceModel } =>
  isResourceModel(relation.target);

/** The resource a relation points at. */
export const resourceOf = (model: ModelName): Resource | undefined => (isResourceModel(model) ? RESOURCES[model] : undefined);

/** The resource a relation points at, which the drift test holds every declaration to. */
export function targetOf(relation: Relation): Resource {
  const target = resourceOf(relation.target);
  if (!target) throw new Error(`${relation.target} is not a declared resource`);
  return target;
}

/**
 * The relations REST may `$expand` and the OData metadata lists, in the form the OData
 * options and the reads take (query/fields.ts RelationSpec): derived, never declared.
 */
export function expandableRelations(resource: Resource): RelationCatalog {
  const out: Record<string, RelationSpec> = {};
  for (const [name, r] of Object.entries(resource.relations)) {
    if (!r.expandable) continue;
    const { model, fields } = targetOf(r);
    out[name] =
      r.kind === 'one'
        ? { type: model, many: false, nullable: r.nullable, fields, foreignKey: r.foreignKey }
        : { type: model, many: true, nullable: false, fields, defaultOrder: r.order };
  }
  return out;
}
