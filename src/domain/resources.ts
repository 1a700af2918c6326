import type { RelationCatalog, RelationSpec } from '../query/fields';
import type { ModelName, Relation, Resource } from './common/resource';
import { academicTermResource } from './academic-term/resource';
import { accountResource } from './account/resource';
import { addressResource } from './address/resource';
import { articlePriceResource } from './article-price/resource';
import { articleResource } from './article/resource';
import { customerResource } from './customer/resource';
import { paymentSourceResource } from './payment-source/resource';
import { paymentResource } from './payment/resource';
import { taxCodeResource } from './tax-code/resource';

/** Every resource, by model: the one list the doors, the import and the read path derive theirs from. */
export const RESOURCES = {
  PaymentSource: paymentSourceResource,
  Payment: paymentResource,
  Account: accountResource,
  Article: articleResource,
  ArticlePrice: articlePriceResource,
  Customer: customerResource,
  Address: addressResource,
  TaxCode: taxCodeResource,
  AcademicTerm: academicTermResource,
} as const satisfies Partial<Record<ModelName, Resource>>;

export type ResourceModel = keyof typeof RESOURCES;
/** The services' keys, the GraphQL list fields and the import sections: each resource's `plural`. */
export type ResourcePlural = (typeof RESOURCES)[ResourceModel]['plural'];
export const ALL_RESOURCES: readonly Resource[] = Object.values(RESOURCES);

/** The resource a relation points at. */
export const resourceOf = (model: ModelName): Resource | undefined => (Object.hasOwn(RESOURCES, model) ? RESOURCES[model as ResourceModel] : undefined);

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
