// What a resource IS, declared once per resource (src/domain/<resource>/resource.ts; the
// build collects every such folder, src/domain/resources.ts). Everything that lists
// resources (the OData model, the OpenAPI paths, the import registry, GraphQL's loaders,
// resolvers and record types, the services, the read path's SQL) derives from these
// declarations instead of restating names, tables and relations.

import type { z } from 'zod';
import type { Prisma } from '../../db/__generated__/prisma/client';
import type { FieldCatalog } from '../../query/fields';
import type { SortKey } from '../../query/filter-tree';
import type { ImportSpec } from './natural-key';

/** Every resource's table is its Prisma model's (no @@map in prisma/schema.prisma). */
export type ModelName = Prisma.ModelName;

/**
 * A relation to records of another resource. `target` names the other resource's model;
 * declarations name each other by model, never by import, so the domain folders stay free
 * of cycles (src/domain/resources.ts resolves the names).
 */
export type Relation =
  /** This record holds the other's id in `foreignKey` (a payment source's `account`). */
  | {
      readonly kind: 'one';
      readonly target: ModelName;
      readonly foreignKey: string;
      readonly nullable: boolean;
      readonly expandable: boolean;
    }
  /** The other records hold this record's id in their `foreignKey`, read in `order` (ties by id). */
  | {
      readonly kind: 'many';
      readonly target: ModelName;
      readonly foreignKey: string;
      readonly order: readonly SortKey[];
      readonly expandable: boolean;
    };

/** The target and nullability stay literal types: GraphQL's record types are computed from them (src/graphql/models.ts). */
export type RelationOne<T extends ModelName = ModelName, N extends boolean = boolean> = Extract<Relation, { kind: 'one' }> & {
  readonly target: T;
  readonly nullable: N;
};
export type RelationMany<T extends ModelName = ModelName> = Extract<Relation, { kind: 'many' }> & { readonly target: T };

/** `expandable`: REST clients may `$expand` it and the OData metadata lists it (GraphQL has every relation). */
export function one<const T extends ModelName>(
  target: T,
  foreignKey: string,
  options?: { nullable?: false; expandable?: boolean },
): RelationOne<T, false>;
export function one<const T extends ModelName>(
  target: T,
  foreignKey: string,
  options: { nullable: true; expandable?: boolean },
): RelationOne<T, true>;
export function one(target: ModelName, foreignKey: string, { nullable = false, expandable = false } = {}): RelationOne {
  return { kind: 'one', target, foreignKey, nullable, expandable };
}
export const many = <const T extends ModelName>(
  target: T,
  foreignKey: string,
  order: readonly SortKey[] = [],
  { expandable = false } = {},
): RelationMany<T> => ({
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
  /** Prisma model, database table, GraphQL type and OData entity type (one name for all four); the names below are its inflections (defineResource). */
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
  /**
   * The to-one relation (its name in `relations`) to the record this one belongs under: its
   * change-log entries name that record as their owner and show in its history too (an
   * address's in its customer's). Absent for records that stand alone.
   */
  readonly belongsTo?: string;
  /** Reference data the import writes from its own section (src/import/registry.ts); absent for the others. */
  readonly import?: ImportSpec;
  /**
   * The body of POST and PUT when the resource is written through the common write path
   * (its folder's writes.ts holds the store and the rules); absent for the others. The OpenAPI
   * document and the OData capabilities describe the writes from it.
   */
  readonly input?: z.ZodObject<z.ZodRawShape>;
}

/**
 * What a resource's folder declares; its names follow from the model (`declare` below):
 * `collection` says whether it has a REST collection.
 */
export type ResourceSpec = Omit<Resource, 'name' | 'label' | 'plural' | 'entitySet'> & { readonly collection: boolean };

/** The model's words joined by `Sep`, lower case: `PaymentSource` → `payment-source` / `payment source`. */
type Joined<S extends string, Sep extends string, First extends boolean = true> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : First extends true ? Lowercase<H> : `${Sep}${Lowercase<H>}`}${Joined<T, Sep, false>}`
  : '';
/** The English plural these names need: `-es` after an s (`addresses`), `-s` otherwise. */
type Plural<S extends string> = S extends `${string}s` ? `${S}es` : `${S}s`;

/** A declaration with the names its model gives it (as literal types, which the registries derived from them key by). */
export type Declared<D extends ResourceSpec> = Omit<D, 'collection'> & {
  readonly name: Joined<D['model'], '-'>;
  readonly label: Joined<D['model'], ' '>;
  readonly plural: Plural<Uncapitalize<D['model']>>;
} & (D['collection'] extends true
    ? { readonly entitySet: { readonly name: Plural<D['model']>; readonly path: Plural<Joined<D['model'], '-'>> } }
    : object);

const joined = (model: string, sep: string): string => model.replace(/(?!^)([A-Z])/g, `${sep}$1`).toLowerCase();
const plural = (noun: string): string => (noun.endsWith('s') ? `${noun}es` : `${noun}s`);

/**
 * A resource's declaration. Its names are inflections of its model, computed here and, the
 * same rules, in the types (`Declared`): `PaymentSource` is `payment-source` in events and
 * the change log, "payment source" in messages, `paymentSources` as list field, service and
 * import section, and `PaymentSources` at `/payment-sources` as REST collection.
 */
export function defineResource<const D extends ResourceSpec>(spec: D): Declared<D> {
  const { collection, ...rest } = spec;
  const kebab = joined(spec.model, '-');
  const names = { name: kebab, label: joined(spec.model, ' '), plural: plural(spec.model.charAt(0).toLowerCase() + spec.model.slice(1)) };
  const entitySet = collection ? { entitySet: { name: plural(spec.model), path: plural(kebab) } } : {};
  // The names computed above are the ones Declared<D> computes in the types (test/domain/drift.test.ts holds them to each other).
  return { ...rest, ...names, ...entitySet } as Declared<D>;
}

/** The GraphQL single field and loader of a resource: `PaymentSource` → `paymentSource`. */
export const singleFieldOf = (r: Pick<Resource, 'model'>): string => r.model.charAt(0).toLowerCase() + r.model.slice(1);
