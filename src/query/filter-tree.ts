// The neutral filter tree: what a filter means, independent of the door it came through.
// OData $filter (src/rest/odata) and GraphQL `where` (src/graphql/where.ts) both
// compile to it; src/db/read/where.ts compiles it to SQL.
//
// Values are already checked against the field's type when a tree is built, so the SQL
// compiler never sees a string compared with a boolean field. Decimal values are
// kept as their exact decimal text, never as JavaScript numbers.

/** The six comparison operators, spelt as OData writes them (GraphQL `where` uses the same names). */
export const COMPARISON_OPERATORS = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];
export type TextOperator = 'contains' | 'startswith' | 'endswith';

/** A literal bound to a field's type. */
export type FilterValue =
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'uuid'; readonly value: string } // lowercase canonical form
  | { readonly type: 'enum'; readonly value: string }
  | { readonly type: 'boolean'; readonly value: boolean }
  | { readonly type: 'decimal'; readonly value: string } // exact decimal text, e.g. "19.00"
  | { readonly type: 'datetime'; readonly value: Date }
  /** A 64-bit integer: the change log's seq, in the service's own conditions (no door binds one). */
  | { readonly type: 'bigint'; readonly value: bigint };

export type FilterNode =
  | { readonly kind: 'and'; readonly nodes: readonly FilterNode[] }
  | { readonly kind: 'or'; readonly nodes: readonly FilterNode[] }
  | { readonly kind: 'not'; readonly node: FilterNode }
  /** `field op value`; `value: null` only with eq / ne (is null / has a value). */
  | {
      readonly kind: 'compare';
      readonly field: string;
      readonly op: ComparisonOperator;
      readonly value: FilterValue | null;
      /** tolower()/toupper() applied on both sides: compare ignoring case (eq / ne only). */
      readonly ignoreCase?: boolean;
    }
  /** `field in (...)`; an empty list matches nothing. */
  | { readonly kind: 'in'; readonly field: string; readonly values: readonly FilterValue[]; readonly ignoreCase?: boolean }
  /** contains / startswith / endswith on a string field; the value is literal text. */
  | {
      readonly kind: 'text';
      readonly field: string;
      readonly op: TextOperator;
      readonly value: string;
      readonly ignoreCase?: boolean;
    }
  /**
   * A constant: what a condition that can never (or always) hold folds to. `field`: the field
   * the folded condition named, which still counts as named (a personal field needs its scope).
   */
  | { readonly kind: 'const'; readonly value: boolean; readonly field?: string };

// Conditions the service layer states itself (an id, a record's history, a quote's prices);
// the doors build theirs from their query languages.

/** `field op value`. */
export const compare = (field: string, op: ComparisonOperator, value: FilterValue): FilterNode => ({ kind: 'compare', field, op, value });
/** `field in (values)`. */
export const isIn = (field: string, values: readonly FilterValue[]): FilterNode => ({ kind: 'in', field, values });
/** An id (or foreign key) as a filter value. */
export const uuid = (value: string): FilterValue => ({ type: 'uuid', value });
/** An instant as a filter value. */
export const instant = (value: Date): FilterValue => ({ type: 'datetime', value });

/** A condition on `field` decided without the database: it can never (false) or always (true) hold. */
export const decided = (value: boolean, field: string): FilterNode => ({ kind: 'const', value, field });

/** Every condition given holds; an absent one is no condition (none at all: undefined). */
export function allOf(...nodes: FilterNode[]): FilterNode;
export function allOf(...nodes: (FilterNode | undefined)[]): FilterNode | undefined;
export function allOf(...nodes: (FilterNode | undefined)[]): FilterNode | undefined {
  const present = nodes.filter((n): n is FilterNode => n !== undefined);
  return present.length > 1 ? { kind: 'and', nodes: present } : present[0];
}

/** Sort order: a list of keys; the query layer appends `id asc` as the final tie-breaker. */
export interface SortKey {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
}

/** A relation returned inside each record (OData `$expand=prices($select=amount;$top=3)`). */
export interface Expansion {
  readonly relation: string;
  /** Fields of the related records to return; all scalar fields when absent. */
  readonly select?: readonly string[];
  /** To-many only: order (the relation's default order when absent) and how many. */
  readonly orderBy?: readonly SortKey[];
  readonly top?: number;
  /** Relations of the related records to read with them (a GraphQL selection two levels deep). */
  readonly include?: readonly Expansion[];
}
