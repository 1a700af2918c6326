// Binds a $filter syntax tree to a resource's fields, giving the neutral FilterNode tree
// (src/query/filter-tree.ts). This is where names are looked up and literals are checked
// against field types; the type rules themselves live in src/query/conditions.ts and
// src/query/values.ts, shared with the GraphQL door. Every fault is INVALID_QUERY with the
// position of the token at fault.

import { invalidQuery } from '../../errors/catalogue';
import { compareCondition, inCondition, textCondition, unknownFieldMessage, type Built, type CaseMode } from '../../query/conditions';
import { lookupField, type FieldCatalog, type FieldSpec } from '../../query/fields';
import { decided, type ComparisonOperator, type FilterNode, type TextOperator } from '../../query/filter-tree';
import { DECIMAL_PATTERN, type RawValue } from '../../query/values';
import { Decimal } from 'decimal.js';
import { isTextFunction, type CallExpr, type ComparisonOp, type Expr, type Literal, type LiteralExpr } from './ast';

/** A field operand: `code`, or `tolower(code)` / `toupper(code)`. */
interface FieldOperand {
  readonly name: string;
  readonly spec: FieldSpec;
  readonly pos: number;
  readonly mode: CaseMode;
  /** Where the case function is written, for faults about it. */
  readonly fnPos: number;
}

// `5 lt amount` is `amount gt 5`.
const MIRRORED: Readonly<Record<ComparisonOp, ComparisonOp>> = { eq: 'eq', ne: 'ne', gt: 'lt', ge: 'le', lt: 'gt', le: 'ge' };

/** Largest exponent written out as plain digits; beyond it a number is refused, not expanded. */
const MAX_EXPONENT = 1000;

/**
 * A number literal in plain decimal notation (`+42` → `42`, `-1.5e3` → `-1500`), exactly,
 * because that is what the value rules and the database compare. INF and NaN stay as written.
 */
export function plainNumber(text: string): string | undefined {
  if (/^-?INF$|^NaN$/.test(text) || DECIMAL_PATTERN.test(text)) return text;
  const exponent = /[eE]([+-]?\d+)$/.exec(text);
  if (exponent && Math.abs(Number(exponent[1])) > MAX_EXPONENT) return undefined;
  const plain = new Decimal(text).toFixed();
  // -0 is 0; decimal.js keeps the sign of a negative zero in toFixed().
  return plain === '-0' ? '0' : plain;
}

// An OData literal is a raw value of the neutral rules (numbers in plain notation), or null.
const toRaw = (literal: Literal): RawValue | null => {
  if (literal.type === 'null') return null;
  if (literal.type === 'number') return { type: 'number', text: plainNumber(literal.text) ?? literal.text };
  return literal;
};

/**
 * Where a literal lies beyond every value a field can hold: INF / -INF / NaN for numbers,
 * instants before 0001-01-01 or after 9999 for date-times. Such comparisons are decided
 * here (`validFrom gt -10000-04-01` holds for every record with a value), never sent on.
 */
type Beyond = 'below' | 'above' | 'nan';

function beyond(spec: FieldSpec, literal: Literal): Beyond | undefined {
  if (spec.type === 'decimal' && literal.type === 'number') {
    return literal.text === 'NaN' ? 'nan' : literal.text === 'INF' ? 'above' : literal.text === '-INF' ? 'below' : undefined;
  }
  if (spec.type === 'datetime' && (literal.type === 'date' || literal.type === 'datetime')) {
    const year = Number(/^-?\d+/.exec(literal.text)?.[0] ?? '1');
    if (literal.text.startsWith('-') || year < 1) return 'below';
    if (year > 9999) return 'above';
  }
  return undefined;
}

/** The truth of `field op v` for a v beyond the field's values (a null field satisfies only ne). */
function beyondCondition(name: string, spec: FieldSpec, op: ComparisonOp, where: Beyond): FilterNode {
  const hasValue: FilterNode = spec.nullable ? { kind: 'compare', field: name, op: 'ne', value: null } : decided(true, name);
  if (op === 'ne') return decided(true, name);
  if (where === 'below' && (op === 'gt' || op === 'ge')) return hasValue;
  if (where === 'above' && (op === 'lt' || op === 'le')) return hasValue;
  return decided(false, name);
}

/** Order of two literals of the same kind, or undefined when they cannot be compared. */
function compareLiterals(a: Literal, b: Literal): number | 'nan' | undefined {
  if (a.type === 'number' && b.type === 'number') {
    const [x, y] = [plainNumber(a.text), plainNumber(b.text)];
    if (x === undefined || y === undefined) return undefined;
    if (x === 'NaN' || y === 'NaN') return 'nan';
    const rank = (v: string): Decimal => (v === 'INF' ? new Decimal(Infinity) : v === '-INF' ? new Decimal(-Infinity) : new Decimal(v));
    return rank(x).comparedTo(rank(y));
  }
  if (a.type === 'boolean' && b.type === 'boolean') return Number(a.value) - Number(b.value);
  if (a.type === 'string' && b.type === 'string') return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  if (a.type === 'guid' && b.type === 'guid') return a.text.toLowerCase().localeCompare(b.text.toLowerCase());
  if ((a.type === 'date' || a.type === 'datetime') && (b.type === 'date' || b.type === 'datetime')) {
    const [x, y] = [instantOf(a.text), instantOf(b.text)];
    return x === undefined || y === undefined ? undefined : Math.sign(x - y);
  }
  return undefined;
}

/** Milliseconds since the epoch of an OData date or date-time, any year (JavaScript's range). */
function instantOf(text: string): number | undefined {
  const m = /^(-?\d+)-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|z|[+-]\d{2}:\d{2}))?$/.exec(text);
  if (!m) return undefined;
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const zone = m[8] ?? 'Z';
  const offset = /^[Zz]$/.test(zone) ? 0 : (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  d.setUTCHours(Number(m[4] ?? 0), Number(m[5] ?? 0) - offset, Number(m[6] ?? 0), Number((m[7] ?? '').slice(0, 3).padEnd(3, '0')));
  return d.getTime();
}

/** OData's value of `a op b` for two literals: null is equal to null and unequal to anything else. */
function foldLiterals(op: ComparisonOp, a: Literal, b: Literal): boolean | undefined {
  if (a.type === 'null' || b.type === 'null') {
    const both = a.type === 'null' && b.type === 'null';
    return op === 'ne' ? !both : both && (op === 'eq' || op === 'ge' || op === 'le');
  }
  const order = compareLiterals(a, b);
  if (order === undefined) return undefined;
  if (order === 'nan') return op === 'ne';
  return { eq: order === 0, ne: order !== 0, gt: order > 0, ge: order >= 0, lt: order < 0, le: order <= 0 }[op];
}

const flatten = (kind: 'and' | 'or', left: FilterNode, right: FilterNode): FilterNode => {
  // `a and b and c` parses as ((a and b) and c); one flat list reads better downstream.
  const parts = (n: FilterNode): readonly FilterNode[] => (n.kind === kind ? n.nodes : [n]);
  return { kind, nodes: [...parts(left), ...parts(right)] };
};

class Binder {
  constructor(
    private readonly fields: FieldCatalog,
    private readonly option: string,
  ) {}

  private fault(message: string, pos: number): never {
    throw invalidQuery(this.option, message, pos);
  }

  /** An expression used as a condition (the whole filter, an operand of and/or/not). */
  condition(expr: Expr): FilterNode {
    switch (expr.kind) {
      case 'and':
      case 'or':
        return flatten(expr.kind, this.condition(expr.left), this.condition(expr.right));
      case 'not':
        return { kind: 'not', node: this.condition(expr.operand) };
      case 'compare':
        return this.compare(expr.op, expr.left, expr.right, expr.opPos);
      case 'in':
        return this.inList(expr.left, expr.items, expr.opPos);
      case 'call':
        if (isTextFunction(expr.name)) return this.textCall(expr, expr.name);
        return this.fault(`${expr.name}() gives text, not a condition; compare it, e.g. ${expr.name}(name) eq 'x'`, expr.pos);
      case 'field': {
        // A boolean field alone is a condition: `isActive` means `isActive eq true`.
        const spec = this.field(expr.name, expr.pos);
        if (spec.type !== 'boolean') {
          this.fault(`'${expr.name}' is not a boolean field, so it is not a condition by itself; compare it with a value`, expr.pos);
        }
        return { kind: 'compare', field: expr.name, op: 'eq', value: { type: 'boolean', value: true } };
      }
      case 'literal':
        if (expr.literal.type === 'boolean') return { kind: 'const', value: expr.literal.value };
        return this.fault('a literal alone is not a condition', expr.pos);
    }
  }

  private field(name: string, pos: number): FieldSpec {
    const spec = lookupField(this.fields, name);
    if (!spec) this.fault(unknownFieldMessage(name, this.fields), pos);
    return spec;
  }

  /** The expression as a field operand, or undefined when it is not one. */
  private fieldOperand(expr: Expr): FieldOperand | undefined {
    if (expr.kind === 'field') {
      return { name: expr.name, spec: this.field(expr.name, expr.pos), pos: expr.pos, mode: undefined, fnPos: expr.pos };
    }
    if (expr.kind === 'call' && (expr.name === 'tolower' || expr.name === 'toupper')) {
      const arg = expr.args[0];
      if (arg?.kind !== 'field') {
        return this.fault(`${expr.name}() takes a field of the resource`, arg?.pos ?? expr.pos);
      }
      return { name: arg.name, spec: this.field(arg.name, arg.pos), pos: arg.pos, mode: expr.name, fnPos: expr.pos };
    }
    return undefined;
  }

  private report(result: Built, at: { field: number; operator: number; fn: number; value: (item?: number) => number }): FilterNode {
    if (result.ok) return result.node;
    const pos =
      result.site === 'field'
        ? at.field
        : result.site === 'operator'
          ? at.operator
          : result.site === 'function'
            ? at.fn
            : at.value(result.item);
    return this.fault(result.message, pos);
  }

  private compare(op: ComparisonOp, left: Expr, right: Expr, opPos: number): FilterNode {
    if (left.kind === 'literal' && right.kind === 'literal') {
      // `true eq false`, `1 lt 2`: the ABNF allows them, and their value is known here.
      const value = foldLiterals(op, left.literal, right.literal);
      if (value === undefined) this.fault(`cannot compare ${left.literal.type} with ${right.literal.type}`, opPos);
      return { kind: 'const', value };
    }
    const [l, r] = [this.fieldOperand(left), this.fieldOperand(right)];
    if (l && r && l.name === r.name && l.mode === r.mode) {
      // `name eq name` (and `name in (name)`): equal to itself, null included (OData: null eq null).
      return decided(op === 'eq' || op === 'ge' || op === 'le', l.name);
    }
    let fieldSide = l;
    let other = right;
    let effectiveOp: ComparisonOperator = op;
    if (!fieldSide) {
      fieldSide = r;
      other = left;
      effectiveOp = MIRRORED[op];
      if (fieldSide && left.kind !== 'literal') this.fault('a field can only be compared with a literal', left.pos);
    } else if (r) {
      this.fault('comparing two fields is not supported; compare a field with a literal', right.pos);
    }
    if (!fieldSide) {
      // `contains(name, 'x') eq true` and `(a or b) eq false` compare a condition with a boolean.
      return this.conditionVersusBoolean(op, left, right, opPos);
    }
    if (other.kind !== 'literal') this.fault(`expected a literal to compare '${fieldSide.name}' with`, other.pos);
    const f = fieldSide;
    const far = f.mode === undefined ? beyond(f.spec, other.literal) : undefined;
    if (far) return beyondCondition(f.name, f.spec, effectiveOp, far);
    if (other.literal.type === 'number' && plainNumber(other.literal.text) === undefined) {
      this.fault(`the number '${other.literal.text}' has an exponent beyond ±${MAX_EXPONENT}`, other.pos);
    }
    const result = compareCondition(f.name, f.spec, effectiveOp, toRaw(other.literal), f.mode);
    return this.report(result, { field: f.pos, operator: opPos, fn: f.fnPos, value: () => other.pos });
  }

  private conditionVersusBoolean(op: ComparisonOp, left: Expr, right: Expr, opPos: number): FilterNode {
    const isBool = (e: Expr): e is LiteralExpr => e.kind === 'literal' && e.literal.type === 'boolean';
    const [cond, bool] = isBool(right) ? [left, right] : isBool(left) ? [right, left] : [undefined, undefined];
    if (!cond || !bool || cond.kind === 'literal') {
      if (left.kind === 'not') {
        // `not` binds tighter than comparisons (OData): `not code eq 'x'` is `(not code) eq 'x'`.
        this.fault(`'not' applies only to the operand right after it; write not (... ${op} ...) to negate a comparison`, left.pos);
      }
      return this.fault('a comparison needs a field on one side and a literal on the other', left.pos);
    }
    if (op !== 'eq') {
      // `X ne true` is also true when X is null (unknown); eq and not say what is meant.
      this.fault(`a condition can only be compared with true or false using eq; use not for the opposite`, opPos);
    }
    const node = this.condition(cond);
    const wanted = bool.literal.type === 'boolean' && bool.literal.value;
    return wanted ? node : { kind: 'not', node };
  }

  private inList(left: Expr, items: readonly LiteralExpr[], opPos: number): FilterNode {
    if (left.kind === 'literal') {
      // `'a' in ('a', 'b')`: decided here, as for a comparison of two literals.
      const hits = items.map((i) => foldLiterals('eq', left.literal, i.literal));
      const bad = hits.indexOf(undefined);
      if (bad >= 0) this.fault(`cannot compare ${left.literal.type} with ${items[bad]?.literal.type}`, items[bad]?.pos ?? opPos);
      return { kind: 'const', value: hits.includes(true) };
    }
    const f = this.fieldOperand(left);
    if (!f) return this.fault("the left side of 'in' must be a field", left.pos);
    // Items beyond every value of the field (INF, year 0) match nothing: leave them out.
    const kept = f.mode === undefined ? items.filter((i) => !beyond(f.spec, i.literal)) : items;
    const result = inCondition(
      f.name,
      f.spec,
      kept.map((i) => toRaw(i.literal)),
      f.mode,
    );
    return this.report(result, {
      field: f.pos,
      operator: opPos,
      fn: f.fnPos,
      value: (item) => kept[item ?? 0]?.pos ?? opPos,
    });
  }

  private textCall(call: CallExpr, op: TextOperator): FilterNode {
    const [target, pattern] = call.args;
    if (!target || !pattern) return this.fault(`${op}() takes 2 arguments`, call.pos);
    const f = this.fieldOperand(target);
    if (!f) return this.fault(`the first argument of ${op}() must be a field`, target.pos);
    if (pattern.kind !== 'literal') return this.fault(`the second argument of ${op}() must be a string literal`, pattern.pos);
    const result = textCondition(f.name, f.spec, op, toRaw(pattern.literal), f.mode);
    return this.report(result, { field: f.pos, operator: call.pos, fn: f.fnPos, value: () => pattern.pos });
  }
}

/**
 * Bind a parsed $filter to the resource's fields. Throws INVALID_QUERY (with the position of
 * the token at fault) for unknown fields, literals of the wrong type and operators a type
 * does not allow. `option` is the name used in errors.
 */
export function bindFilter(expr: Expr, fields: FieldCatalog, option = '$filter'): FilterNode {
  return new Binder(fields, option).condition(expr);
}
