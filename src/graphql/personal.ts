// Personal fields in a GraphQL operation (src/query/fields.ts `personal`): a caller without
// the personal-data scope who selects one (directly, through fragments or under an alias) or
// names one in a `where` or `orderBy` argument gets 403 FORBIDDEN before anything runs,
// with the path of each. The walk of the document is made once per operation (Apollo keeps
// the parsed document of a query text), so a request whose caller may see personal data
// costs nothing, and one naming no personal field a look-up; variables are looked at only
// where an argument could name a personal field.

import {
  getNamedType,
  GraphQLError,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { ALL_RESOURCES } from '../domain/resources';
import { personalFieldsOf } from '../query/fields';
import { personalDataForbidden } from '../query/personal';
import { httpGraphQLError } from './errors';

/**
 * Personal field names by GraphQL type: a resource's record type, its `where` and `orderBy`
 * inputs and its mutations' inputs (schema.graphql names them after the model, as
 * CreatePaymentSourceInput or CustomerInput, and CustomerAddressInput for an address inside a
 * customer's; their fields after the catalogue), so a mutation setting one is refused as a
 * query naming one is.
 */
const PERSONAL: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  ALL_RESOURCES.flatMap((r) => {
    const names = personalFieldsOf(r.fields);
    // The maintained resources' input (`CustomerInput`), and a record's input inside its parent's (`CustomerAddressInput`).
    const inside = ALL_RESOURCES.filter((p) => Object.values(p.relations).some((rel) => rel.target === r.model)).map(
      (p) => `${p.model}${r.model}Input`,
    );
    const types = [
      r.model,
      `${r.model}Where`,
      `${r.model}OrderBy`,
      `Create${r.model}Input`,
      `Update${r.model}Input`,
      `${r.model}Input`,
      ...inside,
    ];
    return names.size === 0 ? [] : types.map((t) => [t, names] as const);
  }),
);

/** An argument whose value may name a personal field, seen per request (it may hold variables). */
interface ArgumentToCheck {
  readonly path: readonly string[];
  readonly type: GraphQLInputType;
  readonly value: ValueNode;
}

interface Analysis {
  /** Response paths of the personal fields selected. */
  readonly selected: readonly string[];
  readonly argumentsToCheck: readonly ArgumentToCheck[];
}

const analysed = new WeakMap<OperationDefinitionNode, Analysis>();
const reachesPersonal = new Map<GraphQLNamedType, boolean>();

/** Whether an input type, or one nested in it, has personal fields (computed once per type). */
function mayNamePersonal(type: GraphQLInputType): boolean {
  const named = getNamedType(type);
  const known = reachesPersonal.get(named);
  if (known !== undefined) return known;
  reachesPersonal.set(named, false); // a type nested in itself (AND/OR lists) decides nothing
  const result =
    isInputObjectType(named) && (PERSONAL.has(named.name) || Object.values(named.getFields()).some((f) => mayNamePersonal(f.type)));
  reachesPersonal.set(named, result);
  return result;
}

function analyse(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): Analysis {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const selected: string[] = [];
  const argumentsToCheck: ArgumentToCheck[] = [];

  const walk = (
    set: SelectionSetNode,
    parent: GraphQLNamedType | null | undefined,
    path: readonly string[],
    inFragments: ReadonlySet<string>,
  ): void => {
    for (const s of set.selections) {
      if (s.kind === Kind.FRAGMENT_SPREAD) {
        const f = fragments.get(s.name.value);
        if (f && !inFragments.has(f.name.value))
          walk(f.selectionSet, schema.getType(f.typeCondition.name.value), path, new Set([...inFragments, f.name.value]));
        continue;
      }
      if (s.kind === Kind.INLINE_FRAGMENT) {
        walk(s.selectionSet, s.typeCondition ? schema.getType(s.typeCondition.name.value) : parent, path, inFragments);
        continue;
      }
      if (!parent || !(isObjectType(parent) || isInterfaceType(parent))) continue;
      const def: GraphQLField<unknown, unknown> | undefined = parent.getFields()[s.name.value];
      if (!def) continue; // __typename and the other meta fields
      const here = [...path, s.alias?.value ?? s.name.value];
      if (PERSONAL.get(parent.name)?.has(s.name.value)) selected.push(here.join('.'));
      for (const a of s.arguments ?? []) {
        const arg = def.args.find((x) => x.name === a.name.value);
        if (arg && mayNamePersonal(arg.type)) argumentsToCheck.push({ path: [...here, a.name.value], type: arg.type, value: a.value });
      }
      if (s.selectionSet) walk(s.selectionSet, getNamedType(def.type), here, inFragments);
    }
  };
  walk(operation.selectionSet, schema.getRootType(operation.operation), [], new Set());
  return { selected, argumentsToCheck };
}

/** Personal fields named in an argument's value (a literal, or a variable's JSON value), as paths. */
function namedInValue(type: GraphQLInputType, value: unknown, path: readonly string[], out: string[]): void {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (value === null || value === undefined) return;
  if (isListType(inner)) {
    if (Array.isArray(value)) value.forEach((v, i) => namedInValue(inner.ofType, v, [...path, String(i)], out));
    else namedInValue(inner.ofType, value, path, out); // a single value where a list is expected
    return;
  }
  if (!isInputObjectType(inner) || typeof value !== 'object') return;
  const personal = PERSONAL.get(inner.name);
  const fields = inner.getFields();
  for (const [key, v] of Object.entries(value)) {
    if (personal?.has(key)) out.push([...path, key].join('.'));
    const f = fields[key];
    if (f) namedInValue(f.type, v, [...path, key], out);
  }
}

/** A value node as the plain value it stands for: variables from the request (no coercion; only the keys matter here). */
function plain(node: ValueNode, variables: Readonly<Record<string, unknown>>): unknown {
  switch (node.kind) {
    case Kind.VARIABLE:
      return variables[node.name.value];
    case Kind.LIST:
      return node.values.map((v) => plain(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, plain(f.value, variables)]));
    default:
      return true; // a scalar or enum: its value never names a field
  }
}

/** The default values of an operation's variables, as plain values. */
function defaultValues(operation: OperationDefinitionNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const v of operation.variableDefinitions ?? []) if (v.defaultValue) out[v.variable.name.value] = plain(v.defaultValue, {});
  return out;
}

/**
 * FORBIDDEN (HTTP 403) naming the path of each personal field the operation selects or
 * names in an argument, when the caller lacks the personal-data scope; nothing otherwise.
 */
export function checkPersonalFields(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>> | undefined,
): void {
  let analysis = analysed.get(operation);
  if (!analysis) analysed.set(operation, (analysis = analyse(schema, document, operation)));
  if (analysis.selected.length === 0 && analysis.argumentsToCheck.length === 0) return;
  const named = [...analysis.selected];
  // A variable the request leaves out has its default value (`$i: CustomerInput = { email: … }`): what the field gets.
  const values = { ...defaultValues(operation), ...variables };
  for (const a of analysis.argumentsToCheck) namedInValue(a.type, plain(a.value, values), a.path, named);
  if (named.length === 0) return;
  const error = httpGraphQLError(personalDataForbidden(named));
  throw new GraphQLError(error.message, { path: named[0]!.split('.'), originalError: error.originalError, extensions: error.extensions });
}
