// Limits on what one GraphQL request may ask for (CONTRACT.md: "Query depth and cost are
// limited"). Every limit fails with extensions.code QUERY_TOO_COMPLEX and HTTP 400.
//
//  - Depth (a validation rule, so it is checked once per distinct document and cached by
//    Apollo with the parsed document): fields nested more than MAX_DEPTH deep.
//  - Breadth (validation rule): more than MAX_ROOT_FIELDS fields at the root of an
//    operation, or more than MAX_ALIASES aliases in the document.
//  - Cost (checked per request once the operation is known, because `first:` may come from
//    a variable): every object a query can return counts 1, multiplied by the sizes of the
//    lists around it. A list field with `first` counts `first` (default 100, capped at
//    1000); a relation list without paging (Customer.addresses, Article.prices, ...) counts
//    RELATION_FANOUT; `nodes` and `edges` of a connection count once more per record.
//    Scalars are free: their cost is in the rows already counted.
// Introspection fields (__schema, __type) are left out: introspection is off in production,
// and an IDE's own introspection query (GraphiQL's) is deeper than any data query needs to be.

import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isCompositeType,
  isListType,
  Kind,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

export const MAX_DEPTH = 10;
export const MAX_COST = 50_000;
export const MAX_ROOT_FIELDS = 20;
export const MAX_ALIASES = 50;
/** Assumed size of a relation list that has no `first` argument. */
export const RELATION_FANOUT = 10;
export const DEFAULT_FIRST = 100;
export const MAX_FIRST = 1000;

const tooComplex = (message: string, nodes?: FieldNode | OperationDefinitionNode): GraphQLError =>
  new GraphQLError(message, { ...(nodes ? { nodes } : {}), extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } } });

const isIntrospection = (name: string): boolean => name === '__schema' || name === '__type';

type Fragments = (name: string) => FragmentDefinitionNode | undefined;

/**
 * Depth of a selection set: 1 for a set of leaves; fragments are expanded (cycles are
 * another rule's fault). A fragment's depth does not depend on where it is spread, so it is
 * computed once (`memo`): a document spreading fragments into fragments many times over
 * costs linear, not exponential, time.
 */
function depthOf(set: SelectionSetNode, fragments: Fragments, seen: ReadonlySet<string>, memo: Map<string, number>): number {
  let deepest = 0;
  for (const sel of set.selections) {
    let d = 0;
    if (sel.kind === Kind.FIELD) {
      if (isIntrospection(sel.name.value)) continue;
      d = 1 + (sel.selectionSet ? depthOf(sel.selectionSet, fragments, seen, memo) : 0);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      d = depthOf(sel.selectionSet, fragments, seen, memo);
    } else {
      const name = sel.name.value;
      const known = memo.get(name);
      if (known !== undefined) d = known;
      else {
        const fragment = seen.has(name) ? undefined : fragments(name);
        if (fragment) {
          d = depthOf(fragment.selectionSet, fragments, new Set([...seen, name]), memo);
          memo.set(name, d);
        }
      }
    }
    if (d > deepest) deepest = d;
  }
  return deepest;
}

/** Validation rule: no field nested deeper than `max`. */
export function depthLimitRule(max = MAX_DEPTH): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(node) {
      const depth = depthOf(node.selectionSet, (n) => context.getFragment(n) ?? undefined, new Set(), new Map());
      if (depth > max) context.reportError(tooComplex(`The query is nested ${depth} levels deep; at most ${max} are allowed`, node));
    },
  });
}

/** Fields at the root of a selection set, fragments expanded (each fragment counted once, see depthOf). */
function rootFieldCount(set: SelectionSetNode, fragments: Fragments, seen: ReadonlySet<string>, memo: Map<string, number>): number {
  let n = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) n += 1;
    else if (sel.kind === Kind.INLINE_FRAGMENT) n += rootFieldCount(sel.selectionSet, fragments, seen, memo);
    else {
      const name = sel.name.value;
      let count = memo.get(name);
      if (count === undefined && !seen.has(name)) {
        const fragment = fragments(name);
        count = fragment ? rootFieldCount(fragment.selectionSet, fragments, new Set([...seen, name]), memo) : 0;
        memo.set(name, count);
      }
      n += count ?? 0;
    }
  }
  return n;
}

/** Validation rule: at most `maxRoot` root fields per operation and `maxAliases` aliases per document. */
export function breadthLimitRule(maxRoot = MAX_ROOT_FIELDS, maxAliases = MAX_ALIASES): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    let aliases = 0;
    let reported = false;
    return {
      OperationDefinition(node) {
        const roots = rootFieldCount(node.selectionSet, (n) => context.getFragment(n) ?? undefined, new Set(), new Map());
        if (roots > maxRoot) context.reportError(tooComplex(`The operation has ${roots} root fields; at most ${maxRoot} are allowed`, node));
      },
      Field(node) {
        if (!node.alias) return;
        aliases += 1;
        if (aliases > maxAliases && !reported) {
          reported = true;
          context.reportError(tooComplex(`The query uses more than ${maxAliases} aliases`, node));
        }
      },
    };
  };
}

export const limitRules: ValidationRule[] = [depthLimitRule(), breadthLimitRule()];

// ---------------------------------------------------------------------------------------
// Cost

interface CostWalk {
  readonly schema: GraphQLSchema;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  readonly operation: OperationDefinitionNode;
  readonly variables: Readonly<Record<string, unknown>> | undefined;
  /** Whether a variable decided some `first`: then the cost cannot be cached with the document. */
  usedVariables: boolean;
  /** Cost of each fragment at multiplier 1 (every term is a multiple of the multiplier). */
  readonly fragmentCosts: Map<string, number>;
}

/** The `first` a list field will use: its argument, variable or default, within 0..MAX_FIRST. */
function firstOf(node: FieldNode, walk: CostWalk): number {
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

function costOf(set: SelectionSetNode, parent: GraphQLCompositeType, multiplier: number, walk: CostWalk, seen: ReadonlySet<string>): number {
  let total = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      const name = sel.name.value;
      if (name.startsWith('__') || !sel.selectionSet || !('getFields' in parent)) continue;
      const field = parent.getFields()[name];
      if (!field) continue;
      const type = getNamedType(field.type);
      if (!isCompositeType(type)) continue;
      let factor = 1;
      if (field.args.some((a) => a.name === 'first')) factor = firstOf(sel, walk);
      else if (isListType(getNullableType(field.type)) && !parent.name.endsWith('Connection')) factor = RELATION_FANOUT;
      const n = multiplier * factor;
      total += n + costOf(sel.selectionSet, type, n, walk, seen);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const type = sel.typeCondition ? walk.schema.getType(sel.typeCondition.name.value) : parent;
      if (type && isCompositeType(type)) total += costOf(sel.selectionSet, type, multiplier, walk, seen);
    } else {
      const fragmentName = sel.name.value;
      let unit = walk.fragmentCosts.get(fragmentName);
      if (unit === undefined && !seen.has(fragmentName)) {
        const fragment = walk.fragments.get(fragmentName);
        const type = fragment ? walk.schema.getType(fragment.typeCondition.name.value) : undefined;
        unit = fragment && type && isCompositeType(type) ? costOf(fragment.selectionSet, type, 1, walk, new Set([...seen, fragmentName])) : 0;
        walk.fragmentCosts.set(fragmentName, unit);
      }
      total += multiplier * (unit ?? 0);
    }
  }
  return total;
}

/** Costs of operations whose cost does not depend on variables (the document objects are cached by Apollo). */
const staticCosts = new WeakMap<OperationDefinitionNode, number>();
const fragmentMaps = new WeakMap<DocumentNode, Map<string, FragmentDefinitionNode>>();

/** The cost of running `operation` of `document` with these variables. */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>> | undefined,
): number {
  const cached = staticCosts.get(operation);
  if (cached !== undefined) return cached;
  let fragments = fragmentMaps.get(document);
  if (!fragments) {
    fragments = new Map(
      document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
    );
    fragmentMaps.set(document, fragments);
  }
  const root = schema.getRootType(operation.operation);
  if (!root) return 0;
  const walk: CostWalk = { schema, fragments, operation, variables, usedVariables: false, fragmentCosts: new Map() };
  const cost = costOf(operation.selectionSet, root, 1, walk, new Set());
  if (!walk.usedVariables) staticCosts.set(operation, cost);
  return cost;
}

/** Throws QUERY_TOO_COMPLEX (HTTP 400) when the operation costs more than `max`. */
export function checkCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>> | undefined,
  max = MAX_COST,
): void {
  const cost = operationCost(schema, document, operation, variables);
  if (cost > max) throw tooComplex(`The query could return about ${cost} objects; at most ${max} are allowed (ask for smaller pages with first:)`);
}
