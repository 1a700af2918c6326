// A contains or endswith filter on a text field has no index range: ordered by that field, a
// page walks the field's index from its first entry until it has its rows (on 100,000
// customers, `contains(lastName,'mann')` passed 20,150 entries to reach the first Hartmann:
// 2.3 ms of database time). Many records share a value (a surname), so the distinct values
// are far fewer than the records. A lexicon is a table of every value the field has had,
// kept by the database's triggers (prisma/migrations/20261125020000_surname_lexicon):
// the filter is first run against it, and the matching values are added to the filter as
// `field in (...)`. With the field leading the index, PostgreSQL then reads just those
// values' ranges, in index order, and stops when the page is full (0.1 ms for the page above).
//
// The answer is the same: every record's value is in the lexicon (the triggers add it in
// the transaction that writes the record), so `field in (matching values)` holds for every
// record the text condition holds for, and the condition itself stays in the filter. The two
// statements are two reads, like the ids and the records of a page: a customer written
// between them can be missing from the page, never a wrong one in it.

import type { FilterNode } from '../../query/filter-tree';
import type { RowReader } from '../row-reader';
import { ident, likePattern, SqlBuilder } from './sql';

/** The table holding every value a field has had, and its column. */
export interface Lexicon {
  readonly table: string;
  readonly column: string;
}

/** A resource's lexicons, by the API name of the field they serve. */
export type Lexicons = Readonly<Record<string, Lexicon>>;

/**
 * More matching values than this and the filter is left as it is. A text that many values
 * contain is common, so the walk along the index fills a page soon, and each listed value
 * costs a probe of the index: `contains(lastName,'e')` on
 * 100,000 customers (78 of 141 surnames) cost 0.39 ms more server CPU and 0.11 ms more
 * database CPU per page with the list than without (npm run bench, scenario d2).
 */
export const MAX_LEXICON_VALUES = 32;

type TextNode = Extract<FilterNode, { kind: 'text' }>;

/** The lexicon's values satisfying the node, or undefined when there are more than MAX_LEXICON_VALUES. */
async function matching(rows: RowReader, lexicon: Lexicon, node: TextNode): Promise<string[] | undefined> {
  const column = ident(lexicon.column);
  // The same pattern and operator as the filter itself (./where.ts).
  const sql = new SqlBuilder();
  const like = `${column} ${node.ignoreCase ? 'ILIKE' : 'LIKE'} ${sql.param(likePattern(node.op, node.value))}`;
  const found = await rows.read(
    sql.statement(`SELECT ${column} FROM ${ident(lexicon.table)} WHERE ${like} LIMIT ${sql.param(MAX_LEXICON_VALUES + 1)}`),
  );
  return found.rows.length > MAX_LEXICON_VALUES ? undefined : found.rows.map((r) => String(r[0]));
}

/**
 * The filter with `field in (matching values)` added for each contains / endswith condition
 * it requires (the filter itself, or one of its top-level `and`) on a field with a lexicon.
 * An unfiltered page, or one without such a condition, is returned as it is, unread.
 */
export async function narrowByLexicons(
  rows: RowReader,
  lexicons: Lexicons,
  filter: FilterNode | undefined,
): Promise<FilterNode | undefined> {
  if (!filter) return filter;
  const required = filter.kind === 'and' ? filter.nodes : [filter];
  const reads = required.flatMap((node) => {
    if (node.kind !== 'text' || node.op === 'startswith') return []; // a prefix is an index range already
    const lexicon = Object.hasOwn(lexicons, node.field) ? lexicons[node.field] : undefined;
    return lexicon ? [matching(rows, lexicon, node).then((values) => ({ field: node.field, values }))] : [];
  });
  if (reads.length === 0) return filter;
  const added = (await Promise.all(reads)).flatMap(({ field, values }): FilterNode[] =>
    values ? [{ kind: 'in', field, values: values.map((value) => ({ type: 'string', value })) }] : [],
  );
  return added.length === 0 ? filter : { kind: 'and', nodes: [...required, ...added] };
}
