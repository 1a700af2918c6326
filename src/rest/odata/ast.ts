// The syntax tree of an OData $filter, as written: no field is looked up and no literal is
// checked against a type yet (that is bind.ts's job). Every node keeps the offset where its
// text starts, and operators keep their own offset, so the binder can point at the exact
// token at fault.

import { COMPARISON_OPERATORS, type ComparisonOperator, type TextOperator } from '../../query/filter-tree';
import type { RawValue } from '../../query/values';

export type ComparisonOp = ComparisonOperator;
export const COMPARISON_OPS = COMPARISON_OPERATORS;

export type TextFunction = TextOperator;
export type CaseFunction = 'tolower' | 'toupper';
export type FunctionName = TextFunction | CaseFunction;

/** Number of arguments each supported function takes. */
export const FUNCTION_ARITY: Readonly<Record<FunctionName, number>> = {
  contains: 2,
  startswith: 2,
  endswith: 2,
  tolower: 1,
  toupper: 1,
};

export const isFunctionName = (name: string): name is FunctionName => Object.hasOwn(FUNCTION_ARITY, name);
export const isTextFunction = (name: FunctionName): name is TextFunction =>
  name === 'contains' || name === 'startswith' || name === 'endswith';

/** A literal exactly as written: numbers, GUIDs and dates keep their source text (src/query/values.ts). */
export type Literal = Exclude<RawValue, { readonly type: 'instant' }> | { readonly type: 'null' };

export interface LiteralExpr {
  readonly kind: 'literal';
  readonly literal: Literal;
  readonly pos: number;
}

export interface FieldExpr {
  readonly kind: 'field';
  readonly name: string;
  readonly pos: number;
}

export interface CallExpr {
  readonly kind: 'call';
  /** Lowercase: function names are case-insensitive. */
  readonly name: FunctionName;
  readonly args: readonly Expr[];
  readonly pos: number;
}

export interface LogicalExpr {
  readonly kind: 'and' | 'or';
  readonly left: Expr;
  readonly right: Expr;
  readonly pos: number;
  readonly opPos: number;
}

export interface NotExpr {
  readonly kind: 'not';
  readonly operand: Expr;
  readonly pos: number;
}

export interface CompareExpr {
  readonly kind: 'compare';
  readonly op: ComparisonOp;
  readonly left: Expr;
  readonly right: Expr;
  readonly pos: number;
  readonly opPos: number;
}

export interface InExpr {
  readonly kind: 'in';
  readonly left: Expr;
  readonly items: readonly LiteralExpr[];
  readonly pos: number;
  readonly opPos: number;
}

export type Expr = LiteralExpr | FieldExpr | CallExpr | LogicalExpr | NotExpr | CompareExpr | InExpr;
