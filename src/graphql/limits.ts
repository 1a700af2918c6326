// Limits on what one GraphQL request may ask for (docs/service.md: "Depth and cost are
// limited"). Every limit fails with extensions.code QUERY_TOO_COMPLEX and HTTP 400, and
// holds before the work it limits:
//
//  - Tokens (graphql-js's own `maxTokens` parse option, server.ts): a document longer than
//    LIMITS.tokens is refused while it is parsed, after reading at most LIMITS.tokens tokens. A
//    1,000-alias document is therefore never parsed whole, validated or walked.
//  - Variables (checkVariables): JSON nested deeper than LIMITS.variableDepth is refused before
//    graphql-js coerces it (its coercion recurses once per level, and a `where` nested a
//    thousand deep overflowed the stack).
//  - Depth, root fields, aliases and cost: ONE walk of the operation (measure), checked once
//    the operation is known and before anything runs. Fragments are expanded; each fragment
//    is measured once per request (memo), so fragments spreading into fragments many times
//    over cost linear, not exponential, time.
//      depth: fields nested more than LIMITS.depth deep;
//      breadth: more than LIMITS.rootFields fields at the root, more than LIMITS.aliases aliases;
//      cost: every object a query can return counts 1, multiplied by the sizes of the lists
//        around it. A list field with `first` counts `first` (default 100, capped at 1000; it
//        may come from a variable, so cost is per request); a relation list without paging
//        (Customer.addresses, Article.prices, ...) counts LIMITS.relationFanout; `nodes` and
//        `edges` of a connection count once more per record; federation's `_entities` counts
//        its representations. Scalars are free: their cost is in the rows already counted.
//  - Batches: at most LIMITS.batchOperations operations in one request (refused whole before
//    anything is parsed, ./persisted/documents.ts), each checked as above, and their costs
//    added up as each is checked (chargeCost): the operations of one request together stay
//    within LIMITS.cost, so a batch cannot multiply it.
// Introspection fields (__schema, __type) are left out of depth and cost: introspection is
// off in production, and an IDE's own introspection query (GraphiQL's) is deeper than any data
// query needs to be.

// List sizes are the service layer's, the same in both doors.
import { DEFAULT_PAGE_SIZE as DEFAULT_FIRST, MAX_PAGE_SIZE as MAX_FIRST } from '../domain/common/list';
import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isCompositeType,
  isListType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** What one request may ask for; the header above says how each is counted and when. */
export const LIMITS = {
  /** Tokens in one document: GraphiQL's introspection query has 183, the alias attack 6,000. */
  tokens: 2000,
  /** Nesting of objects and lists in the variables: a `where` 50 levels deep (its own limit) is 101. */
  variableDepth: 128,
  depth: 10,
  cost: 50_000,
  rootFields: 20,
  aliases: 50,
  /** Assumed size of a relation list that has no `first` argument. */
  relationFanout: 10,
  /** Operations in one batched request (a JSON array, as Apollo's BatchHttpLink sends); their costs together stay within `cost`. */
  batchOperations: 10,
} as const;

const tooComplex = (message: string, nodes?: FieldNode | OperationDefinitionNode): GraphQLError =>
  new GraphQLError(message, { ...(nodes ? { nodes } : {}), extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } } });

const isIntrospection = (name: string): boolean => name === '__schema' || name === '__type';

// ---------------------------------------------------------------------------------------
// Variables

/**
 * Throws QUERY_TOO_COMPLEX when the variables nest objects and lists deeper than `max`.
 * Iterative, so that the check itself cannot overflow the stack.
 */
export function checkVariables(variables: unknown, max = LIMITS.variableDepth): void {
  const stack: Array<[unknown, number]> = [[variables, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > max) throw tooComplex(`The variables are nested more than ${max} levels deep`);
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
}

// ---------------------------------------------------------------------------------------
// One walk: depth, root fields, aliases, cost

/** What a selection set asks for. Cost is at multiplier 1: every term is a multiple of the multiplier. */
interface Shape {
  depth: number;
  /** Fields directly in the set, fragments expanded. */
  fields: number;
  aliases: number;
  cost: number;
}

interface Walk {
  readonly schema: GraphQLSchema;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  readonly operation: OperationDefinitionNode;
  readonly variables: Readonly<Record<string, unknown>> | undefined;
  /** Whether a variable decided some `first`: then the measure cannot be cached with the document. */
  usedVariables: boolean;
  readonly memo: Map<string, Shape>;
}

/** The `first` a list field will use: its argument, variable or default, within 0..MAX_FIRST. */
function firstOf(node: FieldNode, walk: Walk): number {
  const arg = node.arguments?.find((a) => a.name.value === 'first');
  let value: unknown = DEFAULT_FIRST;
  if (arg) {
    if (arg.value.kind === Kind.INT) value = Number(arg.value.value);
    else if (arg.value.kind === Kind.VARIABLE) {
      walk.usedVariables = true;
      const name = arg.value.name.value;
      const given = walk.variables?.[name];
      const definition = walk.operation.variableDefinitions?.find((d) => d.variable.name.value === name);
      const fallback = definition?.defaultValue?.kind === Kind.INT ? Number(definition.defaultValue.value) : DEFAULT_FIRST;
      value = given === undefined || given === null ? fallback : given;
    }
  }
  // A value the resolver will refuse (not an integer, out of range) costs the most it could.
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? Math.min(value, MAX_FIRST) : MAX_FIRST;
}

/** Federation's `_entities` (./federation.ts): a list of one record per representation. */
const ENTITIES = '_entities';

/** How many records `_entities` asks for: its representations, written in the document or in a variable. */
function representationsOf(node: FieldNode, walk: Walk): number {
  const arg = node.arguments?.find((a) => a.name.value === 'representations');
  if (arg?.value.kind === Kind.LIST) return arg.value.values.length;
  if (arg?.value.kind !== Kind.VARIABLE) return 1;
  walk.usedVariables = true;
  const given = walk.variables?.[arg.value.name.value];
  // A single value where a list is expected is a list of one (GraphQL's input coercion).
  return Array.isArray(given) ? given.length : 1;
}

const add = (into: Shape, part: Shape): void => {
  if (part.depth > into.depth) into.depth = part.depth;
  into.fields += part.fields;
  into.aliases += part.aliases;
  into.cost += part.cost;
};

function measureSet(set: SelectionSetNode, parent: GraphQLCompositeType | undefined, walk: Walk, seen: ReadonlySet<string>): Shape {
  const shape: Shape = { depth: 0, fields: 0, aliases: 0, cost: 0 };
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      shape.fields += 1;
      if (sel.alias) shape.aliases += 1;
      const name = sel.name.value;
      if (isIntrospection(name)) continue;
      const field = parent && 'getFields' in parent ? parent.getFields()[name] : undefined;
      const type = field ? getNamedType(field.type) : undefined;
      if (!sel.selectionSet) {
        if (shape.depth < 1) shape.depth = 1;
        continue;
      }
      const child = measureSet(sel.selectionSet, type && isCompositeType(type) ? type : undefined, walk, seen);
      if (1 + child.depth > shape.depth) shape.depth = 1 + child.depth;
      shape.aliases += child.aliases;
      if (!field || !parent) continue;
      let factor = 1;
      if (field.args.some((a) => a.name === 'first')) factor = firstOf(sel, walk);
      else if (name === ENTITIES) factor = representationsOf(sel, walk);
      else if (isListType(getNullableType(field.type)) && !parent.name.endsWith('Connection')) factor = LIMITS.relationFanout;
      shape.cost += factor + factor * child.cost;
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const type = sel.typeCondition ? walk.schema.getType(sel.typeCondition.name.value) : parent;
      add(shape, measureSet(sel.selectionSet, type && isCompositeType(type) ? type : undefined, walk, seen));
    } else {
      const name = sel.name.value;
      let part = walk.memo.get(name);
      if (part === undefined && !seen.has(name)) {
        const fragment = walk.fragments.get(name);
        const type = fragment ? walk.schema.getType(fragment.typeCondition.name.value) : undefined;
        part = fragment
          ? measureSet(fragment.selectionSet, type && isCompositeType(type) ? type : undefined, walk, new Set([...seen, name]))
          : { depth: 0, fields: 0, aliases: 0, cost: 0 };
        walk.memo.set(name, part);
      }
      if (part) add(shape, part);
    }
  }
  return shape;
}

/** Measures of operations that do not depend on variables (the document objects are cached by Apollo). */
const staticShapes = new WeakMap<OperationDefinitionNode, Shape>();
const fragmentMaps = new WeakMap<DocumentNode, Map<string, FragmentDefinitionNode>>();

/** Depth, root fields, aliases and cost of running `operation` of `document` with these variables. */
export function measure(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>> | undefined,
): Readonly<Shape> {
  const cached = staticShapes.get(operation);
  if (cached !== undefined) return cached;
  let fragments = fragmentMaps.get(document);
  if (!fragments) {
    fragments = new Map(
      document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
    );
    fragmentMaps.set(document, fragments);
  }
  const root = schema.getRootType(operation.operation) ?? undefined;
  const walk: Walk = { schema, fragments, operation, variables, usedVariables: false, memo: new Map() };
  const shape = measureSet(operation.selectionSet, root, walk, new Set());
  if (!walk.usedVariables) staticShapes.set(operation, shape);
  return shape;
}

/** Throws QUERY_TOO_COMPLEX (HTTP 400) when the operation is over any limit; else its cost. */
export function checkLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>> | undefined,
  max = LIMITS.cost,
): number {
  const { depth, fields, aliases, cost } = measure(schema, document, operation, variables);
  if (depth > LIMITS.depth) throw tooComplex(`The query is nested ${depth} levels deep; at most ${LIMITS.depth} are allowed`, operation);
  if (fields > LIMITS.rootFields)
    throw tooComplex(`The operation has ${fields} root fields; at most ${LIMITS.rootFields} are allowed`, operation);
  if (aliases > LIMITS.aliases) throw tooComplex(`The query uses ${aliases} aliases; at most ${LIMITS.aliases} are allowed`, operation);
  if (cost > max)
    throw tooComplex(`The query could return about ${cost} objects; at most ${max} are allowed (ask for smaller pages with first:)`);
  return cost;
}

/** What the operations of one HTTP request have cost so far (a batch shares one cost limit). */
export interface CostBudget {
  spent: number;
}

/** Adds an operation's cost to its request's; QUERY_TOO_COMPLEX once the request's operations together are over `max`. */
export function chargeCost(budget: CostBudget, cost: number, max = LIMITS.cost): void {
  budget.spent += cost;
  if (budget.spent > max)
    throw tooComplex(`The operations of this request could return about ${budget.spent} objects together; at most ${max} are allowed`);
}
