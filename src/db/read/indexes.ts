// Which orders an index gives, so that a page with joined to-one relations can take the
// statement shape that is cheaper for it (./compile.ts statement()):
// - where an index gives the page's first sort key, one flat SELECT with the joins, as anyone
//   would write it: PostgreSQL walks the index, joins each row as it comes and stops at the
//   LIMIT. With the page in a subquery instead, PostgreSQL cannot see the joined keys'
//   statistics through the LIMIT and guesses: 100 addresses of a city with their customer
//   cost 0.60 ms of backend CPU against 0.55 flat (a Memoize of 100 distinct customers, all
//   misses), 100 articles by name with their tax code 0.27 against 0.25 (a hash join and a
//   sort where a Memoize hits 95 times); pgbench, one connection, bench_100000.
// - where none does, the page first and the joins after (a subquery with the LIMIT): PostgreSQL
//   never joins below a sort, so flat it joins every matching row, then sorts them all for the
//   top 100. 100 addresses by street with their customer: 76 ms page first, 178 ms flat.
// The catalogue is read once, after the migrations; an index made later counts from the next
// start (until then its pages take the subquery shape, which is never wrong, only slower).

import { groupBy } from '../../lib/collections';
import type { FilterNode, SortKey } from '../../query/filter-tree';
import type { SqlSession } from '../migrate';
import type { ColumnCatalog } from './row';

/** One key column of an index, as its forward scan orders it. */
export interface IndexColumn {
  readonly column: string;
  readonly descending: boolean;
  readonly nullsFirst: boolean;
}

/** The btree indexes of each table (no partial ones), each as its leading plain key columns. */
export type SortIndexes = ReadonlyMap<string, ReadonlyArray<readonly IndexColumn[]>>;

interface IndexColumnRow {
  readonly table: string;
  readonly index: string;
  readonly column: string | null;
  readonly descending: boolean;
  readonly nullsFirst: boolean;
  readonly sameOrder: boolean;
}

/**
 * Every key column of every valid, non-partial btree index of the schema's tables, in key
 * order. An expression column has no name (null); a column under another collation than its
 * own, or another operator class than its type's default (text_pattern_ops), is in another
 * order than the read path's ORDER BY: either ends what the index can give.
 */
const INDEX_COLUMNS = `
SELECT t.relname AS "table", i.indexrelid::int8::text AS "index", a.attname AS "column",
       (i.indoption[k.n - 1] & 1) = 1 AS "descending", (i.indoption[k.n - 1] & 2) = 2 AS "nullsFirst",
       i.indcollation[k.n - 1] = coalesce(a.attcollation, 0) AND c.opcdefault AS "sameOrder"
FROM pg_index i
JOIN pg_class t ON t.oid = i.indrelid AND t.relnamespace = to_regnamespace(current_schema())
JOIN pg_class x ON x.oid = i.indexrelid
JOIN pg_am m ON m.oid = x.relam AND m.amname = 'btree'
CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum AND k.attnum > 0
LEFT JOIN pg_opclass c ON c.oid = i.indclass[k.n - 1]
WHERE i.indisvalid AND i.indpred IS NULL AND k.n <= i.indnkeyatts
ORDER BY 1, 2, k.n`;

/** Reads the catalogue through a session (before any request). */
export async function loadSortIndexes(session: Pick<SqlSession, 'query'>): Promise<SortIndexes> {
  const rows = await session.query<IndexColumnRow>(INDEX_COLUMNS);
  const indexes = [...groupBy(rows, (r) => r.index).values()].map((keys) => {
    // An index gives the order of its columns up to the first one in another order.
    const columns: IndexColumn[] = [];
    for (const r of keys) {
      if (r.column === null || !r.sameOrder) break;
      columns.push({ column: r.column, descending: r.descending, nullsFirst: r.nullsFirst });
    }
    return { table: keys[0]!.table, columns };
  });
  const tables = groupBy(
    indexes.filter((i) => i.columns.length > 0),
    (i) => i.table,
  );
  return new Map([...tables].map(([table, list]) => [table, list.map((i) => i.columns)]));
}

/** Fields the filter holds to one value in every matching record: `field eq value` at its top level (inside ANDs). */
export function pinned(filter: FilterNode | undefined, into = new Set<string>()): Set<string> {
  if (filter?.kind === 'and') for (const n of filter.nodes) pinned(n, into);
  if (filter?.kind === 'compare' && filter.op === 'eq' && filter.value !== null && !filter.ignoreCase) into.add(filter.field);
  return into;
}

/**
 * Whether an index of `table` gives the order's first key (the id when there is none) once
 * the filter's pinned fields are fixed: its columns, after any pinned ones, start with that
 * key, scanned forwards or backwards, nulls where the read path puts them (./compile.ts
 * orderList: first ascending, last descending).
 */
export function indexGivesOrder(
  indexes: SortIndexes,
  table: string,
  fields: ColumnCatalog,
  filter: FilterNode | undefined,
  orderBy: readonly SortKey[],
): boolean {
  const fixed = pinned(filter);
  // A pinned key orders nothing: the order starts at the first key that is not.
  const first = orderBy.find((k) => !fixed.has(k.field)) ?? { field: 'id', direction: 'asc' };
  const nullable = fields[first.field]?.nullable ?? true;
  return (indexes.get(table) ?? []).some((columns) => {
    const at = columns.findIndex((c) => !fixed.has(c.column));
    const c = at === -1 ? undefined : columns[at];
    if (c?.column !== first.field) return false;
    const backwards = c.descending !== (first.direction === 'desc');
    return !nullable || (backwards ? !c.nullsFirst : c.nullsFirst) === (first.direction === 'asc');
  });
}
