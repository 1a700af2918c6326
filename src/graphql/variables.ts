// The operation's variables checked against their declared types before anything runs, so
// that a fault names its place as data (`lines[0].quantity`), in the catalogue's
// VALIDATION_FAILED with every fault listed, rather than in graphql-js's English message
// (`Variable "$input" got invalid value ... at "input.lines[0].quantity"`), which a client
// (or we) would have to pick apart. The rules are GraphQL's input coercion rules: a value
// for a list may be a single item, input objects accept only their fields and need their
// non-null fields without a default, scalars and enums parse with the schema's own
// parseValue. graphql-js then coerces the same values again, without a fault left to find.
// checkVariables (limits.ts) has bounded the nesting before this recursion runs.

import {
  isEnumType,
  isInputObjectType,
  isInputType,
  isListType,
  isNonNullType,
  isScalarType,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { validationFailed, type AppError, type FieldError } from '../errors/catalogue';

/** graphql-js stops at this many variable faults too. */
const MAX_FAULTS = 50;

type Path = ReadonlyArray<string | number>;

/**
 * The place of a fault: inside an input object as the services name input fields
 * (`lines[0].quantity` of `$input`), the variable's name for the whole of it or a list
 * item of it (`t[1]`).
 */
function pathText(variable: string, path: Path): string {
  if (path.length === 0 || typeof path[0] === 'number') path = [variable, ...path];
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function check(value: unknown, type: GraphQLInputType, path: Path, fault: (path: Path, message: string) => void): void {
  if (isNonNullType(type)) {
    if (value === null) return fault(path, `must not be null (${type.toString()})`);
    return check(value, type.ofType, path, fault);
  }
  if (value === null) return;
  if (isListType(type)) {
    // A single value stands for a list of one (GraphQL's input coercion).
    if (!Array.isArray(value)) return check(value, type.ofType, path, fault);
    value.forEach((item, i) => check(item, type.ofType, [...path, i], fault));
    return;
  }
  if (isInputObjectType(type)) {
    if (!isObject(value)) return fault(path, `must be an object (${type.name})`);
    const fields = type.getFields();
    for (const key of Object.keys(value)) if (!Object.hasOwn(fields, key)) fault([...path, key], `is not a field of ${type.name}`);
    for (const [name, f] of Object.entries(fields)) {
      const v = value[name];
      if (v === undefined) {
        if (isNonNullType(f.type) && f.defaultValue === undefined) fault([...path, name], `is required (${f.type.toString()})`);
      } else check(v, f.type, [...path, name], fault);
    }
    return;
  }
  if (isScalarType(type) || isEnumType(type)) {
    try {
      if (type.parseValue(value) === undefined) fault(path, `is not a valid ${type.name}`);
    } catch (e) {
      fault(path, e instanceof Error ? e.message : `is not a valid ${type.name}`);
    }
  }
}

/** VALIDATION_FAILED listing every variable that does not fit its type (at most MAX_FAULTS), or undefined. */
export function variableFaults(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>>,
): AppError | undefined {
  const faults: FieldError[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type);
    // An unknown or non-input type was refused by validation already.
    if (!type || !isInputType(type)) continue;
    const fault = (path: Path, message: string) => {
      if (faults.length < MAX_FAULTS) faults.push({ field: pathText(name, path), message });
    };
    const value = Object.hasOwn(variables, name) ? variables[name] : undefined;
    if (value === undefined) {
      if (isNonNullType(type) && definition.defaultValue === undefined) fault([], `is required (${type.toString()})`);
      continue;
    }
    check(value, type, [], fault);
  }
  return faults.length === 0 ? undefined : validationFailed(faults);
}
