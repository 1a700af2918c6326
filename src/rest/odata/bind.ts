// Binds a $filter syntax tree to a resource's fields, giving the neutral FilterNode tree
// (src/query/filter-tree.ts). This is where names are looked up and literals are checked
// against field types; the type rules themselves live in src/query/conditions.ts and
// src/query/values.ts, shared with the GraphQL door. Every fault is INVALID_QUERY with the
// position of the token at fault.

import { invalidQuery } from '../../errors/catalogue';
import {
  compareCondition,
  inCondition,
  lookupField,
  textCondition,
  unknownFieldMessage,
  type Built,
  type CaseMode,
} from '../../query/conditions';
import type { FieldCatalog, FieldSpec } from '../../query/fields';
import type { ComparisonOperator, FilterNode, TextOperator } from '../../query/filter-tree';
import type { RawValue } from '../../query/values';
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

// An OData literal is a raw value of the neutral rules, or null.
const toRaw = (literal: Literal): RawValue | null => (literal.type === 'null' ? null : literal);

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
      result.site === 'field' ? at.field : result.site === 'operator' ? at.operator : result.site === 'function' ? at.fn : at.value(result.item);
    return this.fault(result.message, pos);
  }

  private compare(op: ComparisonOp, left: Expr, right: Expr, opPos: number): FilterNode {
    let fieldSide = this.fieldOperand(left);
    let other = right;
    let effectiveOp: ComparisonOperator = op;
    if (!fieldSide) {
      fieldSide = this.fieldOperand(right);
      other = left;
      effectiveOp = MIRRORED[op];
      if (fieldSide && left.kind !== 'literal') this.fault('a field can only be compared with a literal', left.pos);
    } else if (this.fieldOperand(right)) {
      this.fault('comparing two fields is not supported; compare a field with a literal', right.pos);
    }
    if (!fieldSide) {
      // `contains(name, 'x') eq true` and `(a or b) eq false` compare a condition with a boolean.
      return this.conditionVersusBoolean(op, left, right, opPos);
    }
    if (other.kind !== 'literal') this.fault(`expected a literal to compare '${fieldSide.name}' with`, other.pos);
    const f = fieldSide;
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
    const f = this.fieldOperand(left);
    if (!f) return this.fault("the left side of 'in' must be a field", left.pos);
    const result = inCondition(f.name, f.spec, items.map((i) => toRaw(i.literal)), f.mode);
    return this.report(result, {
      field: f.pos,
      operator: opPos,
      fn: f.fnPos,
      value: (item) => items[item ?? 0]?.pos ?? opPos,
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
