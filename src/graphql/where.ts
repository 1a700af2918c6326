// Translates the GraphQL `where` input (docs/service.md "GraphQL shape") into the neutral filter tree:
//   { <field>: { eq ne gt ge lt le in contains startsWith endsWith isNull ignoreCase },
//     AND: [Where!], OR: [Where!], NOT: Where }
// Several operators in one field object, and several entries in one where object, are
// ANDed. `eq: null` means "is null" and `ne: null` "has a value", as in OData. `AND: []`
// always holds and `OR: []` never does (the empty conjunction and disjunction).
//
// GraphQL has already coerced the values with the schema's scalars (UUID: lowercase text,
// DateTime: Date, Decimal: exact decimal text, enums: their string values), and validation
// has refused unknown fields; this still checks everything, with the same rules as $filter
// (src/query/conditions.ts), because a where can also arrive through variables and
// because the two doors must accept exactly the same conditions. Faults are INVALID_QUERY
// naming the path of the offending value (`where.OR[1].code.eq`).

import { invalidQuery } from '../errors/catalogue';
import { compareCondition, inCondition, textCondition, unknownFieldMessage, type Built, type CaseMode } from '../query/conditions';
import { lookupField } from '../query/fields';
import type { FieldCatalog, FieldSpec } from '../query/fields';
import { COMPARISON_OPERATORS, type FilterNode, type TextOperator } from '../query/filter-tree';
import { DATE_PATTERN, type RawValue } from '../query/values';

/** Deepest nesting of AND / OR / NOT accepted: a where may come from variables, unchecked by query depth limits. */
export const MAX_WHERE_DEPTH = 50;
/** Most conditions accepted in one where. */
export const MAX_WHERE_CONDITIONS = 1000;

const TEXT_OPERATORS: Readonly<Record<string, TextOperator>> = { contains: 'contains', startsWith: 'startswith', endsWith: 'endswith' };
const KNOWN_OPERATORS = new Set<string>([...COMPARISON_OPERATORS, 'in', ...Object.keys(TEXT_OPERATORS), 'isNull', 'ignoreCase']);

type InputObject = Readonly<Record<string, unknown>>;

const isObject = (v: unknown): v is InputObject => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

class WhereTranslator {
  private conditions = 0;

  constructor(private readonly fields: FieldCatalog) {}

  private fault(path: string, message: string): never {
    throw invalidQuery(path, message);
  }

  where(input: unknown, path: string, depth: number): FilterNode {
    if (depth > MAX_WHERE_DEPTH) this.fault(path, `nested deeper than ${MAX_WHERE_DEPTH} levels`);
    if (!isObject(input)) this.fault(path, 'expected an object');
    const parts: FilterNode[] = [];
    for (const [key, value] of Object.entries(input)) {
      // An absent (undefined) entry is no condition; so is an explicit null on AND/OR/NOT.
      if (value === undefined) continue;
      const at = `${path}.${key}`;
      if (key === 'AND' || key === 'OR') {
        if (value === null) continue;
        if (!Array.isArray(value)) this.fault(at, 'expected a list of where objects');
        const nodes = value.map((w, i) => this.where(w, `${at}[${i}]`, depth + 1));
        parts.push({ kind: key === 'AND' ? 'and' : 'or', nodes });
      } else if (key === 'NOT') {
        if (value === null) continue;
        parts.push({ kind: 'not', node: this.where(value, at, depth + 1) });
      } else {
        const spec = lookupField(this.fields, key);
        if (!spec) this.fault(at, unknownFieldMessage(key, this.fields));
        parts.push(...this.fieldConditions(key, spec, value, at));
      }
    }
    const [only] = parts;
    return parts.length === 1 && only ? only : { kind: 'and', nodes: parts };
  }

  private fieldConditions(name: string, spec: FieldSpec, ops: unknown, path: string): FilterNode[] {
    if (!isObject(ops)) this.fault(path, 'expected an object of operators');
    for (const key of Object.keys(ops)) {
      if (!KNOWN_OPERATORS.has(key)) this.fault(`${path}.${key}`, `unknown operator '${key}'`);
    }
    const ignore = ops.ignoreCase;
    if (ignore !== undefined && ignore !== null && typeof ignore !== 'boolean') this.fault(`${path}.ignoreCase`, 'expected a boolean');
    const mode: CaseMode = ignore === true ? 'ignore' : undefined;
    const out: FilterNode[] = [];
    const take = (op: string, result: Built): void => {
      if (++this.conditions > MAX_WHERE_CONDITIONS) this.fault(`${path}.${op}`, `more than ${MAX_WHERE_CONDITIONS} conditions`);
      if (!result.ok) {
        this.fault(result.item === undefined ? `${path}.${op}` : `${path}.${op}[${result.item}]`, result.message);
      }
      out.push(result.node);
    };

    for (const op of COMPARISON_OPERATORS) {
      if (ops[op] === undefined) continue;
      take(op, compareCondition(name, spec, op, this.raw(spec, ops[op], `${path}.${op}`), mode));
    }
    if (ops.in !== undefined) {
      if (!Array.isArray(ops.in)) this.fault(`${path}.in`, 'expected a list');
      const raws = ops.in.map((v: unknown, i) => this.raw(spec, v, `${path}.in[${i}]`));
      take('in', inCondition(name, spec, raws, mode));
    }
    for (const [key, op] of Object.entries(TEXT_OPERATORS)) {
      if (ops[key] === undefined) continue;
      take(key, textCondition(name, spec, op, this.raw(spec, ops[key], `${path}.${key}`), mode));
    }
    if (ops.isNull !== undefined) {
      if (typeof ops.isNull !== 'boolean') this.fault(`${path}.isNull`, 'expected true or false');
      take('isNull', compareCondition(name, spec, ops.isNull ? 'eq' : 'ne', null));
    }
    if (mode !== undefined && out.length === 0 && spec.type !== 'string') {
      this.fault(`${path}.ignoreCase`, `ignoreCase applies only to text fields; '${name}' is not one`);
    }
    return out;
  }

  /** A GraphQL value as a raw literal for the field's type; null stays null. */
  private raw(spec: FieldSpec, value: unknown, path: string): RawValue | null {
    if (value === null) return null;
    if (typeof value === 'boolean') return { type: 'boolean', value };
    if (value instanceof Date) return { type: 'instant', value };
    if (typeof value === 'number') {
      // An Int or Float where a Decimal is expected: exact only in plain notation.
      if (!Number.isFinite(value)) this.fault(path, 'expected a finite number');
      return { type: 'number', text: String(value) };
    }
    if (typeof value === 'string') {
      if (spec.type === 'decimal') return { type: 'number', text: value };
      if (spec.type === 'datetime') return DATE_PATTERN.test(value) ? { type: 'date', text: value } : { type: 'datetime', text: value };
      return { type: 'string', value };
    }
    return this.fault(path, 'expected a scalar value');
  }
}

/**
 * The filter tree for a GraphQL `where` argument; undefined when there is none (null,
 * undefined or an object without conditions). Throws INVALID_QUERY naming the path of a
 * value that does not fit its field.
 */
export function graphqlWhereToFilter(where: unknown, fields: FieldCatalog): FilterNode | undefined {
  if (where === undefined || where === null) return undefined;
  const node = new WhereTranslator(fields).where(where, 'where', 0);
  return node.kind === 'and' && node.nodes.length === 0 ? undefined : node;
}
