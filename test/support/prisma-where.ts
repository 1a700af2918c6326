// The Prisma translation of the neutral filter tree and sort keys: the oracle the compiled read
// path (src/db/read, the service's one filter compiler) is held equal to, by asking Prisma's
// findMany the same question (test/db/query/to-prisma.db.test.ts, test/db/read/compiled.test.ts).
// It was the service's read path before; it lives here now that nothing in src/ reads through it.
//
// OData's logic is not SQL's, and the differences are handled here:
//  - Comparisons are two-valued in OData: `null ne 'x'` is true, `null gt 5` is false. SQL
//    gives NULL for both. So `ne` on a nullable field also selects the nulls, and `not` is
//    pushed down to the leaves (De Morgan), each leaf being replaced by its exact complement
//    (`not (x gt 5)` is `x le 5 or x is null`). Text functions stay three-valued as OData
//    says (`contains(null, 'x')` is null, and so is its negation), which SQL's NOT LIKE is.
//  - contains/startswith/endswith take literal text, but Prisma passes the value into LIKE
//    without escaping `%`, `_` or `\` (prisma/orm#19506), so they are escaped here.
//  - Ignoring case: Prisma turns `equals` + `mode: 'insensitive'` into `ILIKE $1` with the
//    value unescaped (checked against PGlite with Prisma 6.19: `"code" ILIKE $1`), so `a_b`
//    would also match `axb`. `in` + insensitive becomes `LOWER("code") IN (LOWER($1))`,
//    which is an exact comparison and can use the `lower(code)` index. Case-insensitive
//    eq / ne / in are therefore all written as in / notIn.
//  - Prisma's Boolean filter has no gt/lt and its enum filter has no ordering operators, so
//    ordered comparisons on those (which keyset cursors need) become sets of values.
// Decimal values are passed as their exact text (Prisma parses it with decimal.js), never
// as JavaScript numbers. Date-time values are Date objects (the columns keep milliseconds).

import type { FieldCatalog, FieldSpec } from '../../src/query/fields';
import type { ComparisonOperator, FilterNode, FilterValue, SortKey } from '../../src/query/filter-tree';
import { cursorFilter } from '../../src/query/cursor';
import { enumSortOrder } from '../../src/query/values';

export type PrismaWhere = Record<string, unknown>;

/** A where that matches no record (every resource has an `id`); a fresh object each time. */
export const matchNothing = (): PrismaWhere => ({ id: { in: [] } });

/** `%`, `_` and `\` taken literally in a LIKE pattern (PostgreSQL's default escape is `\`). */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, '\\$&');

const PRISMA_OP: Readonly<Record<'gt' | 'ge' | 'lt' | 'le', string>> = { gt: 'gt', ge: 'gte', lt: 'lt', le: 'lte' };
const COMPLEMENT: Readonly<Record<ComparisonOperator, ComparisonOperator>> = {
  eq: 'ne',
  ne: 'eq',
  gt: 'le',
  ge: 'lt',
  lt: 'ge',
  le: 'gt',
};
const TEXT_OP = { contains: 'contains', startswith: 'startsWith', endswith: 'endsWith' } as const;

/** The compiled form of a subtree: a where, or a constant (true: everything, false: nothing). */
type Compiled = PrismaWhere | boolean;

/** The value as Prisma wants it: decimal text stays text, date-times are Dates. */
export function prismaValue(value: FilterValue): FilterValue['value'] {
  return value.value;
}

const holds = (op: ComparisonOperator, order: number): boolean => {
  switch (op) {
    case 'eq':
      return order === 0;
    case 'ne':
      return order !== 0;
    case 'gt':
      return order > 0;
    case 'ge':
      return order >= 0;
    case 'lt':
      return order < 0;
    case 'le':
      return order <= 0;
  }
};

class Compiler {
  constructor(private readonly fields: FieldCatalog) {}

  private spec(name: string): FieldSpec {
    const spec = Object.hasOwn(this.fields, name) ? this.fields[name] : undefined;
    // The tree was bound against the same catalogue; a miss is a programming error.
    if (!spec) throw new Error(`toPrismaWhere: field '${name}' is not in the catalogue`);
    return spec;
  }

  /** `negated`: compile the complement of `node` (how `not` is pushed to the leaves). */
  compile(node: FilterNode, negated: boolean): Compiled {
    switch (node.kind) {
      case 'const':
        return node.value !== negated;
      case 'not':
        return this.compile(node.node, !negated);
      case 'and':
      case 'or': {
        // De Morgan: not (a and b) = not a or not b.
        const conjunction = (node.kind === 'and') !== negated;
        const parts = node.nodes.map((n) => this.compile(n, negated));
        return conjunction ? allOf(parts) : anyOf(parts);
      }
      case 'compare':
        return this.compare(node.field, node.op, node.value, node.ignoreCase === true, negated);
      case 'in':
        return this.inList(node.field, node.values, node.ignoreCase === true, negated);
      case 'text': {
        const base: PrismaWhere = { [TEXT_OP[node.op]]: escapeLike(node.value) };
        if (node.ignoreCase) base.mode = 'insensitive';
        // NOT LIKE leaves nulls out, as OData's not(contains(null, ...)) = null does.
        return negated ? { NOT: { [node.field]: base } } : { [node.field]: base };
      }
    }
  }

  private compare(field: string, op: ComparisonOperator, value: FilterValue | null, ignoreCase: boolean, negated: boolean): Compiled {
    const spec = this.spec(field);
    const effective = negated ? COMPLEMENT[op] : op;
    if (value === null) return { [field]: effective === 'eq' ? null : { not: null } };
    // Records where the field is null satisfy `ne` (two-valued OData) and the complement
    // of every other comparison; they never satisfy eq, gt, ge, lt, le themselves.
    const withNulls = spec.nullable && (negated ? op !== 'ne' : op === 'ne');
    let base: Compiled;
    if (spec.type === 'boolean' || (spec.type === 'enum' && effective !== 'eq' && effective !== 'ne')) {
      base = this.valueSet(field, spec, (candidate) => holds(effective, compareInDomain(spec, candidate, value.value)));
    } else if (ignoreCase && (effective === 'eq' || effective === 'ne')) {
      base = { [field]: { [effective === 'eq' ? 'in' : 'notIn']: [prismaValue(value)], mode: 'insensitive' } };
    } else {
      const v = prismaValue(value);
      const filter: PrismaWhere = effective === 'eq' ? { equals: v } : effective === 'ne' ? { not: v } : { [PRISMA_OP[effective]]: v };
      if (ignoreCase) filter.mode = 'insensitive';
      base = { [field]: filter };
    }
    return withNulls ? anyOf([base, { [field]: null }]) : base;
  }

  private inList(field: string, values: readonly FilterValue[], ignoreCase: boolean, negated: boolean): Compiled {
    const spec = this.spec(field);
    // `x in ()` is false for every record, null ones included; its complement is true.
    if (values.length === 0) return negated;
    let base: Compiled;
    if (spec.type === 'boolean') {
      const wanted = new Set(values.map((v) => v.value));
      base = this.valueSet(field, spec, (candidate) => wanted.has(candidate) !== negated);
    } else {
      const filter: PrismaWhere = { [negated ? 'notIn' : 'in']: values.map(prismaValue) };
      if (ignoreCase) filter.mode = 'insensitive';
      base = { [field]: filter };
    }
    return negated && spec.nullable ? anyOf([base, { [field]: null }]) : base;
  }

  /**
   * The non-null records whose value is one of the field's values satisfying `keep`: for
   * booleans and enums, whose domain is small and whose Prisma filters cannot order.
   */
  private valueSet(field: string, spec: FieldSpec, keep: (candidate: string | boolean) => boolean): Compiled {
    const domain: readonly (string | boolean)[] = spec.type === 'enum' ? enumSortOrder(spec) : [false, true];
    const kept = domain.filter(keep);
    if (kept.length === 0) return false;
    if (kept.length === domain.length) return spec.nullable ? { [field]: { not: null } } : true;
    if (kept.length === 1) return { [field]: kept[0] };
    return { [field]: { in: kept } };
  }
}

/** Order of two values of a boolean or enum field: false < true; enums by string value. */
function compareInDomain(spec: FieldSpec, a: string | boolean, b: FilterValue['value']): number {
  if (spec.type !== 'enum') return Number(a === true) - Number(b === true);
  const order = enumSortOrder(spec);
  return order.indexOf(String(a)) - order.indexOf(String(b));
}

/** The parts of `where` when it is nothing but `{ [key]: [...] }`, so nested ANDs (ORs) flatten. */
function spread(where: PrismaWhere, key: 'AND' | 'OR'): readonly PrismaWhere[] {
  const list = where[key];
  return Object.keys(where).length === 1 && Array.isArray(list) ? (list as PrismaWhere[]) : [where];
}

function allOf(parts: readonly Compiled[]): Compiled {
  if (parts.includes(false)) return false;
  const wheres = parts.filter((p): p is PrismaWhere => p !== true).flatMap((w) => spread(w, 'AND'));
  if (wheres.length === 0) return true;
  return wheres.length === 1 ? (wheres[0] as PrismaWhere) : { AND: wheres };
}

function anyOf(parts: readonly Compiled[]): Compiled {
  if (parts.includes(true)) return true;
  const wheres = parts.filter((p): p is PrismaWhere => p !== false).flatMap((w) => spread(w, 'OR'));
  if (wheres.length === 0) return false;
  return wheres.length === 1 ? (wheres[0] as PrismaWhere) : { OR: wheres };
}

/**
 * The Prisma `where` for a filter: `{}` for no filter (or one that always holds), a where
 * matching nothing ({ id: { in: [] } }) for one that never holds.
 */
export function toPrismaWhere(node: FilterNode | undefined, fields: FieldCatalog): PrismaWhere {
  if (!node) return {};
  const compiled = new Compiler(fields).compile(node, false);
  if (compiled === true) return {};
  if (compiled === false) return matchNothing();
  return compiled;
}

/**
 * The Prisma `orderBy` for sort keys, ending with `id asc` (unless id is already a key) so
 * the order is total and ties are broken by id ascending whatever the direction.
 *
 * Nulls come first in ascending and last in descending order, as OData prescribes (null is
 * the smallest value; PostgreSQL's default is the opposite). With `fields` given, that is
 * written out with Prisma's `{ sort, nulls }` form on nullable fields (Prisma refuses that
 * form on required ones, hence the catalogue). Keyset cursors (src/query/cursor.ts) rely
 * on exactly this placement, and GraphQL's orderBy shares it. The catalogue is required so
 * that no caller falls back to PostgreSQL's placement by leaving it out.
 */
export function toPrismaOrderBy(keys: readonly SortKey[], fields: FieldCatalog): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = keys.map(({ field, direction }) => {
    const spec = Object.hasOwn(fields, field) ? fields[field] : undefined;
    return spec?.nullable ? { [field]: { sort: direction, nulls: direction === 'asc' ? 'first' : 'last' } } : { [field]: direction };
  });
  if (!keys.some((k) => k.field === 'id')) out.push({ id: 'asc' });
  return out;
}

/** The Prisma `where` of the records after a cursor (src/query/cursor.ts's filter, translated as above). */
export const cursorToWhere = (cursor: string, sortKeys: readonly SortKey[], fields: FieldCatalog): PrismaWhere =>
  toPrismaWhere(cursorFilter(cursor, sortKeys, fields), fields);
