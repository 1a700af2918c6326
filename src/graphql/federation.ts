// The GraphQL door as an Apollo Federation 2 subgraph (docs/federation.md).
//
// schema.graphql links the federation spec and marks every resource an entity (@key by its
// id, and by its natural key where it has one: ENTITY_KEYS, derived from the declarations
// and held to the schema by test/graphql/federation.test.ts). @apollo/subgraph's
// buildSubgraphSchema reads those links and adds what the spec asks of a subgraph: the
// federation directives, `_service { sdl }` and `_entities(representations:)` with the `_Any`
// and `_Entity` types. Our resolvers are then applied as makeExecutableSchema applied them
// before (@graphql-tools/schema), so every other type and field resolves as it did.
//
// `_entities` calls each type's reference resolver once per representation; here each one is
// a load of the request's entity loader (./loaders.ts), so the representations of one type and
// key are one read of the compiled read path with the fields and relations the operation
// selects on that type (resolvers/selection.ts entitySelection): 100 customers with their
// addresses are one statement and one more for the addresses, as `customers(where: { id: {
// in: [...] } })` reads them. Everything before execution (scope, limits, personal fields,
// persisted and trusted documents) sees `_entities` as any other query field.

import { buildSubgraphSchema } from '@apollo/subgraph';
import { addResolversToSchema } from '@graphql-tools/schema';
import { MapperKind, mapSchema } from '@graphql-tools/utils';
import { GraphQLError, GraphQLScalarType, parse, valueFromASTUntyped, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { seesPersonalData } from '../auth/principal';
import { naturalKeyOf } from '../domain/common/natural-key';
import { parseId } from '../domain/common/validate';
import { ALL_RESOURCES, type DeclaredResource, type ResourceModel } from '../domain/resources';
import { validationFailed } from '../errors/catalogue';
import { recordBy } from '../lib/collections';
import { textProblem } from '../query/values';
import type { Resolvers } from './__generated__/resolvers-types';
import { withReferenceResolver } from './apollo-internals';
import type { GraphqlContext } from './context';
import { entitySelection } from './resolvers/selection';

/** A key of an entity: the id, or a natural key (one text column, maybe compared ignoring case). */
export interface EntityKey {
  readonly field: string;
  readonly ignoresCase: boolean;
}

/** The keys of each resource's entity, in the order a representation's fields are tried: the id first. */
export const ENTITY_KEYS: Readonly<Record<ResourceModel, readonly EntityKey[]>> = recordBy(
  ALL_RESOURCES,
  (r) => r.model,
  (r): readonly EntityKey[] => {
    const natural = naturalKeyOf(r);
    const id: EntityKey = { field: 'id', ignoresCase: false };
    return natural?.kind === 'column' ? [id, { field: natural.field, ignoresCase: natural.caseInsensitive }] : [id];
  },
);

/**
 * The key a representation names and its value as the loader keys it (a UUID in lower case, a
 * code folded to lower case when codes ignore case); VALIDATION_FAILED for one that names no
 * key or gives a value the key cannot hold (never a database error).
 */
function keyOf(r: DeclaredResource, reference: object): { key: EntityKey; value: string } {
  const keys = ENTITY_KEYS[r.model];
  const key = keys.find((k) => Object.hasOwn(reference, k.field));
  if (!key)
    throw validationFailed([{ field: 'representations', message: `a ${r.model} is found by ${keys.map((k) => k.field).join(' or ')}` }]);
  const raw: unknown = Object.getOwnPropertyDescriptor(reference, key.field)?.value;
  if (key.field === 'id') return { key, value: parseId(raw) };
  const problem = typeof raw === 'string' ? textProblem(raw) : 'must be a string';
  if (typeof raw !== 'string' || problem) throw validationFailed([{ field: key.field, message: problem ?? 'must be a string' }]);
  return { key, value: key.ignoresCase ? raw.toLowerCase() : raw };
}

/**
 * `__resolveReference` of a resource: its record, read with those of the other representations
 * of the operation, or null. Async, so that a bad representation fails its own entity (a null
 * with its error) and not the whole `_entities`; the load still happens at once, in the batch.
 */
function referenceResolver(r: DeclaredResource) {
  return async (reference: object, context: GraphqlContext, info: GraphQLResolveInfo): Promise<unknown> => {
    const { key, value } = keyOf(r, reference);
    const selection = entitySelection(info, r.model);
    return context.loaders.entity(r.model, key, selection, seesPersonalData(context.principal)).load(value);
  };
}

/** A representation: an object whose `__typename` names one of the entities. */
function representation(value: unknown): object {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new GraphQLError('A representation is an object with __typename and a key of that type');
  const typename: unknown = Object.getOwnPropertyDescriptor(value, '__typename')?.value;
  if (typeof typename !== 'string' || !Object.hasOwn(ENTITY_KEYS, typename))
    throw new GraphQLError(`A representation's __typename is one of ${Object.keys(ENTITY_KEYS).join(', ')}`);
  return value;
}

/**
 * `_Any`, which only `_entities(representations:)` takes, parsed as a representation of one of
 * these entities: anything else is refused with the other faults of the variables (or the
 * document's validation) before anything runs, instead of failing inside @apollo/subgraph's
 * resolver as a fault of the service.
 */
const Any = new GraphQLScalarType({
  name: '_Any',
  serialize: (value) => value,
  parseValue: representation,
  parseLiteral: (node, variables) => representation(valueFromASTUntyped(node, variables)),
});

/**
 * The executable subgraph schema of schema.graphql with the door's resolvers, and the
 * reference resolvers where @apollo/subgraph calls them (./apollo-internals.ts, assumption 7).
 */
export function subgraphSchema(typeDefs: string, resolvers: Resolvers): GraphQLSchema {
  const schema = addResolversToSchema({ schema: buildSubgraphSchema(parse(typeDefs)), resolvers: { ...resolvers, _Any: Any } });
  const references = new Map(ALL_RESOURCES.map((r) => [r.model as string, referenceResolver(r)]));
  return mapSchema(schema, {
    [MapperKind.OBJECT_TYPE]: (type) => {
      const resolveReference = references.get(type.name);
      return resolveReference ? withReferenceResolver(type, resolveReference) : type;
    },
  });
}
