// Builds the leaves of the neutral filter tree (compare / in / text) with the type rules
// both doors share: which operator a field type allows, where `null` may appear, when a
// case-insensitive comparison is allowed and when it can never hold. The OData binder and
// the GraphQL `where` translation both call these, so the rules are written once.
//
// Nothing here throws: a fault says what is wrong and which part of the condition it is
// in, and the caller reports it with its own position (OData) or path (GraphQL).

import type { FieldCatalog, FieldSpec } from './fields';
import { decided, type ComparisonOperator, type FilterNode, type FilterValue, type TextOperator } from './filter-tree';
import { bindValue, isInCase, textProblem, type RawValue } from './values';

/**
 * How letter case is treated: not at all (undefined), OData's tolower()/toupper() applied
 * to the field (a literal not already in that case can never match), or GraphQL's
 * `ignoreCase: true` (compare ignoring case, whatever the literal's case).
 */
export type CaseMode = undefined | 'tolower' | 'toupper' | 'ignore';

/** Which part of the condition is at fault: lets the caller point at the right token. */
export type FaultSite = 'field' | 'operator' | 'function' | 'value';

export type Built =
  | { readonly ok: true; readonly node: FilterNode }
  /** `item` is the index of the offending list element for `in`. */
  | { readonly ok: false; readonly site: FaultSite; readonly message: string; readonly item?: number };

const built = (node: FilterNode): Built => ({ ok: true, node });
const fault = (site: FaultSite, message: string, item?: number): Built =>
  item === undefined ? { ok: false, site, message } : { ok: false, site, message, item };

export const unknownFieldMessage = (name: string, fields: FieldCatalog): string =>
  `unknown field '${name}' (known: ${Object.keys(fields).join(', ')})`;

const caseName = (mode: Exclude<CaseMode, undefined>): string => (mode === 'ignore' ? 'ignoreCase' : `${mode}()`);

function checkCase(spec: FieldSpec, name: string, mode: CaseMode): Built | undefined {
  if (mode !== undefined && spec.type !== 'string') {
    return fault('function', `${caseName(mode)} applies only to text fields; '${name}' is ${article(spec.type)}`);
  }
  return undefined;
}

/** The text of a value bound to a string field (checkCase has made sure it is one). */
const textOf = (value: FilterValue): string => (value.type === 'string' ? value.value : '');

const article = (type: FieldSpec['type']): string =>
  ({ uuid: 'a GUID', string: 'a string', boolean: 'a boolean', decimal: 'a number', datetime: 'a date-time', enum: 'an enum' })[type];

/** `field op value`, `value: null` for `eq null` / `ne null`. */
export function compareCondition(
  name: string,
  spec: FieldSpec,
  op: ComparisonOperator,
  raw: RawValue | null,
  mode: CaseMode = undefined,
): Built {
  const caseFault = checkCase(spec, name, mode);
  if (caseFault) return caseFault;
  if (raw === null) {
    if (op !== 'eq' && op !== 'ne') return fault('value', `null can only be compared with eq or ne, not ${op}`);
    // A field that cannot be null is never null: no need to ask the database.
    if (!spec.nullable) return built(decided(op !== 'eq', name));
    // tolower(null) is null, so the case function changes nothing here.
    return built({ kind: 'compare', field: name, op, value: null });
  }
  if (spec.type === 'boolean' && op !== 'eq' && op !== 'ne') {
    return fault('operator', `${op} is not defined for the boolean field '${name}'; use eq or ne`);
  }
  if (mode !== undefined && op !== 'eq' && op !== 'ne') {
    return fault('operator', `${caseName(mode)} can only be used with eq, ne, in and the text functions, not ${op}`);
  }
  const bound = bindValue(name, spec, raw);
  if (!bound.ok) return fault('value', bound.message);
  if (mode === undefined) return built({ kind: 'compare', field: name, op, value: bound.value });
  if (mode !== 'ignore' && !isInCase(textOf(bound.value), mode)) {
    // tolower(x) never equals 'ABC': eq can never hold, ne always does (null ne 'ABC' too).
    return built(decided(op !== 'eq', name));
  }
  return built({ kind: 'compare', field: name, op, value: bound.value, ignoreCase: true });
}

/** `field in (v1, v2, ...)`; a `null` item means "or the field is null". */
export function inCondition(name: string, spec: FieldSpec, raws: readonly (RawValue | null)[], mode: CaseMode = undefined): Built {
  const caseFault = checkCase(spec, name, mode);
  if (caseFault) return caseFault;
  const values: FilterValue[] = [];
  let withNull = false;
  for (const [index, raw] of raws.entries()) {
    if (raw === null) {
      withNull = true;
      continue;
    }
    const bound = bindValue(name, spec, raw);
    if (!bound.ok) return fault('value', bound.message, index);
    // Under tolower()/toupper(), a value not in that case can never match: drop it.
    if (mode !== undefined && mode !== 'ignore' && !isInCase(textOf(bound.value), mode)) continue;
    values.push(bound.value);
  }
  const ignoreCase = mode !== undefined;
  const list: FilterNode = ignoreCase ? { kind: 'in', field: name, values, ignoreCase } : { kind: 'in', field: name, values };
  if (!withNull || !spec.nullable) return built(list);
  const isNull: FilterNode = { kind: 'compare', field: name, op: 'eq', value: null };
  return built(values.length === 0 ? isNull : { kind: 'or', nodes: [list, isNull] });
}

/** contains / startswith / endswith: the value is literal text, `%` and `_` included. */
export function textCondition(name: string, spec: FieldSpec, op: TextOperator, raw: RawValue | null, mode: CaseMode = undefined): Built {
  if (spec.type !== 'string') {
    return fault('field', `${op} applies only to text fields; '${name}' is ${article(spec.type)}`);
  }
  if (raw === null || raw.type !== 'string') return fault('value', `${op} needs a string literal`);
  const problem = textProblem(raw.value);
  if (problem) return fault('value', `a value for field '${name}' ${problem}`);
  if (mode === undefined) return built({ kind: 'text', field: name, op, value: raw.value });
  if (mode !== 'ignore' && !isInCase(raw.value, mode)) return built(decided(false, name));
  return built({ kind: 'text', field: name, op, value: raw.value, ignoreCase: true });
}
