// What a resource IS, declared once per resource (src/domain/<resource>/resource.ts; the
// build collects every such folder, src/domain/resources.ts). Everything that lists
// resources (the OData model, the OpenAPI paths, the import registry, GraphQL's loaders,
// resolvers and record types, the services, the read path's SQL) derives from these
// declarations instead of restating names, tables and relations.

import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client';
import type { FieldCatalog } from '../../query/fields';
import type { SortKey } from '../../query/filter-tree';
import type { ImportSpec } from './import-key';

/** Every resource's table is its Prisma model's (no @@map in prisma/schema.prisma). */
export type ModelName = Prisma.ModelName;

/**
 * A relation to records of another resource. `target` names the other resource's model;
 * declarations name each other by model, never by import, so the domain folders stay free
 * of cycles (src/domain/resources.ts resolves the names).
 */
export type Relation =
  /** This record holds the other's id in `foreignKey` (a payment source's `account`). */
  | { readonly kind: 'one'; readonly target: ModelName; readonly foreignKey: string; readonly nullable: boolean; readonly expandable: boolean }
  /** The other records hold this record's id in their `foreignKey`, read in `order` (ties by id). */
  | { readonly kind: 'many'; readonly target: ModelName; readonly foreignKey: string; readonly order: readonly SortKey[]; readonly expandable: boolean };

/** The target and nullability stay literal types: GraphQL's record types are computed from them (src/graphql/models.ts). */
export type RelationOne<T extends ModelName = ModelName, N extends boolean = boolean> = Extract<Relation, { kind: 'one' }> & { readonly target: T; readonly nullable: N };
export type RelationMany<T extends ModelName = ModelName> = Extract<Relation, { kind: 'many' }> & { readonly target: T };

/** `expandable`: REST clients may `$expand` it and the OData metadata lists it (GraphQL has every relation). */
export function one<const T extends ModelName>(target: T, foreignKey: string, options?: { nullable?: false; expandable?: boolean }): RelationOne<T, false>;
export function one<const T extends ModelName>(target: T, foreignKey: string, options: { nullable: true; expandable?: boolean }): RelationOne<T, true>;
export function one(target: ModelName, foreignKey: string, { nullable = false, expandable = false } = {}): RelationOne {
  return { kind: 'one', target, foreignKey, nullable, expandable };
}
export const many = <const T extends ModelName>(target: T, foreignKey: string, order: readonly SortKey[] = [], { expandable = false } = {}): RelationMany<T> => ({
  kind: 'many',
  target,
  foreignKey,
  order,
  expandable,
});

/** The REST collection of a resource: its OData entity-set name and its URL segment under /api/v1. */
export interface EntitySet {
  readonly name: string;
  readonly path: string;
}

export interface Resource<F extends FieldCatalog = FieldCatalog> {
  /** Prisma model, database table, GraphQL type and OData entity type (one name for all four). */
  readonly model: ModelName;
  /** Kebab-case singular, as events and the change log name it (`payment-source`). */
  readonly name: string;
  /** The noun in messages ("No payment source with id ..."); its plural (+s) tags the REST collection in OpenAPI. */
  readonly label: string;
  /**
   * camelCase plural: the GraphQL list field, the key in the services registry and the
   * import file's section. The GraphQL single field and the request's loader are the model
   * name in camelCase (singleFieldOf).
   */
  readonly plural: string;
  /** Its REST collection; absent for records reached only through another resource (addresses, prices). */
  readonly entitySet?: EntitySet;
  readonly fields: F;
  /** A record as the doors return it (the OpenAPI schema) and, for imported resources, as the import file holds it. */
  readonly record: z.ZodObject<z.ZodRawShape>;
  readonly relations: Readonly<Record<string, Relation>>;
  /** Reference data the import writes from its own section (src/import/registry.ts); absent for the others. */
  readonly import?: ImportSpec;
}

/** `const`: names stay literal types, so the registries derived from them keep their keys. */
export const defineResource = <const D extends Resource>(r: D): D => r;

/** The GraphQL single field and loader of a resource: `PaymentSource` → `paymentSource`. */
export const singleFieldOf = (r: Pick<Resource, 'model'>): string => r.model.charAt(0).toLowerCase() + r.model.slice(1);
