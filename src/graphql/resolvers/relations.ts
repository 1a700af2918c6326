// Relation fields, derived from the resource declarations. Each answers with the relation
// read inside its record when the query selected it, or goes through the request's
// DataLoaders (src/graphql/loaders.ts): one SQL query per relation and batch, whatever the
// number of parents. Scalar fields have no resolvers: the default resolver reads them off
// the service records.

import { AppError } from '../../errors/catalogue';
import type { Resolvers } from '../__generated__/resolvers-types';
import type { GraphModel } from '../models';
import type { GraphqlContext } from '../context';
import type { ModelName, Relation } from '../../domain/common/declaration';
import { ALL_RESOURCES, pointsAtResource, RESOURCES, targetOf } from '../../domain/resources';
import { recordBy } from '../../lib/collections';

/** A to-one relation that the database guarantees (a foreign key): missing means a concurrent delete. */
function required<T>(value: T | null, what: string, id: string): T {
  if (value === null) throw new AppError('NOT_FOUND', `No ${what} with id ${id}`);
  return value;
}

const addressesOf = (c: GraphModel<'Customer'>, { loaders }: GraphqlContext) =>
  c.addresses ?? loaders.children(RESOURCES.Customer.relations.addresses).load(c.id);

/**
 * For each relation field of a type, the declared relation (src/domain/<resource>/resource.ts)
 * it shows. Selected, the relation is read inside the records' own statement (src/db/read),
 * not through a loader afterwards: an article with its tax code is one statement.
 */
export type RelationReads = Readonly<Record<string, string>>;

/** For each relation field of a type, the fields of its own record that the field's resolver reads besides the id. */
export type RelationNeeds = Readonly<Record<string, readonly string[]>>;

/** Relation fields by other names than the relation they show. */
const SHOWN_AS: Readonly<Partial<Record<ModelName, RelationReads>>> = { Customer: { defaultAddress: 'addresses' } };

/** Each type's relation fields as the declared relations they show: the same names, and those of SHOWN_AS. */
export const RELATION_READS: Readonly<Partial<Record<ModelName, RelationReads>>> = Object.fromEntries(
  ALL_RESOURCES.map((r) => [
    r.model,
    { ...Object.fromEntries(Object.keys(r.relations).map((name) => [name, name])), ...SHOWN_AS[r.model] },
  ]),
);

const defaultOf = (addresses: readonly GraphModel<'Address'>[]): GraphModel<'Address'> | null => addresses.find((a) => a.isDefault) ?? null;

/** Fields of a type that are neither record fields nor declared relations, and what they read off the record besides its id. */
const COMPUTED: Readonly<Partial<Record<ModelName, RelationNeeds>>> = { Article: { priceAt: [] }, Customer: { defaultAddress: [] } };

/**
 * What the fields below (and `history`) read off their record besides its id: a to-one
 * relation its foreign key. With it, lists and single records read only the fields a query
 * selects (./selection.ts); a field missing here makes its record read every field.
 */
export const RELATION_NEEDS: Readonly<Partial<Record<ModelName, RelationNeeds>>> = Object.fromEntries(
  ALL_RESOURCES.map((r) => [
    r.model,
    {
      ...Object.fromEntries(Object.entries(r.relations).map(([name, rel]) => [name, rel.kind === 'one' ? [rel.foreignKey] : []])),
      history: [],
      ...COMPUTED[r.model],
    },
  ]),
);

/** A record as a relation field's resolver sees it: its id, and whatever else it was read with. */
type ReadRecord = { readonly id: string } & Readonly<Record<string, unknown>>;
type RelationField = (record: ReadRecord, args: unknown, ctx: GraphqlContext) => unknown;

/** The foreign key of a to-one relation, which the record was read with (RELATION_NEEDS). */
function keyOf(record: ReadRecord, field: string): string | null {
  const key = record[field];
  if (key === null || typeof key === 'string') return key;
  throw new Error(`${field} was not read with the record`);
}

/**
 * The resolver of a relation field: the relation's value when the record was read with it
 * inside (RELATION_READS), otherwise the request's loader (one statement per batch). A
 * required to-one relation that is gone was deleted meanwhile: NOT_FOUND.
 */
function relationField(name: string, relation: Relation): RelationField {
  if (!pointsAtResource(relation)) throw new Error(`${relation.target} is not a declared resource`);
  if (relation.kind === 'many') return (p, _a, { loaders }) => p[name] ?? loaders.children(relation).load(p.id);
  const { label } = targetOf(relation);
  return (p, _a, { loaders }) => {
    const held = p[name];
    if (held !== undefined && (held !== null || relation.nullable)) return held;
    const key = keyOf(p, relation.foreignKey);
    if (key === null) {
      if (relation.nullable) return null;
      throw new Error(`${relation.foreignKey} is null on a required relation`);
    }
    if (held === null) return required(held, label, key);
    const loaded = loaders.record(relation.target).load(key);
    return relation.nullable ? loaded : loaded.then((found) => required(found, label, key));
  };
}

/**
 * Every declared relation's field, on every resource's type: derived from the declarations
 * (src/domain/<resource>/resource.ts), so a new relation or resource needs no resolver here.
 */
export const relations: Resolvers = recordBy(
  ALL_RESOURCES,
  (r) => r.model,
  (r) => Object.fromEntries(Object.entries(r.relations).map(([name, rel]) => [name, relationField(name, rel)])),
);

/** The fields that are not declared relations (COMPUTED), and the quote's references. */
export const computed: Resolvers = {
  Article: {
    priceAt: (p, { date }, { loaders }) => loaders.priceAt.load({ articleId: p.id, date }),
  },
  Customer: {
    defaultAddress: async (c, _a, ctx) => defaultOf(await addressesOf(c, ctx)),
  },
  QuoteLine: {
    article: async (l, _a, { loaders }) =>
      required(await loaders.record('Article').load(l.articleId), RESOURCES.Article.label, l.articleId),
    taxCode: async (l, _a, { loaders }) =>
      required(await loaders.record('TaxCode').load(l.taxCodeId), RESOURCES.TaxCode.label, l.taxCodeId),
    academicTerm: (l, _a, { loaders }) => (l.academicTermId ? loaders.record('AcademicTerm').load(l.academicTermId) : null),
  },
};
