import { countRecords, readRecords, type Window } from '../../db/read/compile';
import type { Row as RowOf } from '../../db/read/row';
import type { RowReader } from '../../db/row-reader';
import { invalidQuery, notFound } from '../../errors/catalogue';
import { allOf, compare, isIn, uuid, type FilterNode, type SortKey } from '../../query/filter-tree';
import { fieldNames } from '../../query/fields';
import { DecimalText } from '../../query/values';
import type { ListQuery, Page } from '../common/list';
import { parseId } from '../common/validate';
import type { ServiceDeps } from '../context';
import type { ChangeOperation, FieldChanges, LoggedResource, LoggedValue } from './append';
import type { Prisma } from '../../db/__generated__/prisma/client';
import { CHANGE_LOG_TABLE, changeLogColumns, changeLogFields, isLoggedResource, LOGGED_RESOURCES, ownedResources } from './fields';
import { entriesFor, withoutPersonalData } from './redact';
import { groupBy } from '../../lib/collections';

type Row = RowOf<typeof changeLogColumns>;

/** A value in an entry's changes: decimals as DecimalText (exact JSON numbers on the way out), instants as ISO text. */
export type ChangeValue = string | boolean | null | DecimalText;

/** One change-log entry as both doors (and the events relay) give it out. */
export interface ChangeEntry {
  readonly id: string;
  /** The feed position: a decimal integer as text (it may outgrow a JavaScript number). */
  readonly seq: string;
  readonly resource: LoggedResource;
  readonly recordId: string;
  readonly operation: ChangeOperation;
  /** Field → its value before and after the write; null before a create and after a delete. */
  readonly changes: Readonly<Record<string, { readonly old: ChangeValue; readonly new: ChangeValue }>>;
  /** The token's sub; the nil UUID for the import. */
  readonly userId: string;
  readonly occurredAt: Date;
  readonly requestId: string | null;
  readonly importRunId: string | null;
  /** The personal fields whose values were removed for a reader without the personal-data scope (./redact.ts); absent when none were. */
  readonly redacted?: readonly string[];
}

/** A page of the feed: entries in seq order after a cursor, and the cursor to go on from. */
export interface FeedPage {
  readonly items: ChangeEntry[];
  readonly hasMore: boolean;
  readonly totalCount: number | undefined;
  /** The last entry's seq, or the cursor given when the page is empty: where the next read starts. */
  readonly cursor: string;
}

const SEQ = /^\d{1,19}$/;

/** A feed cursor (an entry's seq) from a client: INVALID_QUERY unless a non-negative 64-bit integer. */
export function parseSeq(option: string, text: string): bigint {
  const value = SEQ.test(text) ? BigInt(text) : -1n;
  if (value < 0n || value > 9223372036854775807n)
    throw invalidQuery(option, 'the cursor must be the seq of a change-log entry (a non-negative integer)', 0);
  return value;
}

const isLogged = (v: unknown): v is LoggedValue => v === null || typeof v === 'string' || typeof v === 'boolean';

/** An entry's stored changes, checked to be what the writer stores (append.ts FieldChanges): a JSON column is any JSON to the types. */
function storedChanges(json: Prisma.JsonValue): FieldChanges {
  const out: FieldChanges = {};
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('change log: changes that are not an object');
  for (const [field, change] of Object.entries(json)) {
    if (typeof change !== 'object' || change === null || Array.isArray(change) || !isLogged(change.old) || !isLogged(change.new))
      throw new Error(`change log: a change of '${field}' that is not { old, new }`);
    out[field] = { old: change.old, new: change.new };
  }
  return out;
}

// Decimals are stored as their exact text (JSON numbers would pass through a float in every
// JSON parser on the way); the resource's catalogue says which fields are decimals.
function entryOf(row: Row): ChangeEntry {
  const resource = row.resource;
  // The service and the import write only declared resources' names (the column is text).
  if (!isLoggedResource(resource)) throw new Error(`change log: an entry of an unknown resource '${resource}'`);
  const fields: Readonly<Record<string, { type: string }>> = LOGGED_RESOURCES[resource];
  const changes: Record<string, { old: ChangeValue; new: ChangeValue }> = {};
  for (const [f, c] of Object.entries(storedChanges(row.changes))) {
    const exact = (v: LoggedValue): ChangeValue => (fields[f]?.type === 'decimal' && typeof v === 'string' ? new DecimalText(v) : v);
    changes[f] = { old: exact(c.old), new: exact(c.new) };
  }
  return {
    id: row.id,
    seq: row.seq.toString(),
    resource,
    recordId: row.recordId,
    operation: row.operation,
    changes,
    userId: row.userId,
    occurredAt: row.occurredAt,
    requestId: row.requestId,
    importRunId: row.importRunId,
  };
}

const BY_SEQ: readonly SortKey[] = [{ field: 'seq', direction: 'asc' }];
const COLUMNS = fieldNames(changeLogColumns);

const ofRecords = (resource: LoggedResource, ids: FilterNode): FilterNode =>
  allOf(compare('resource', 'eq', { type: 'string', value: resource }), ids);

const seqAbove = (seq: bigint): FilterNode => compare('seq', 'gt', { type: 'bigint', value: seq });

/**
 * The entries in the histories of records of `resource`, `ids` naming them in a column: each
 * record's own, and those of the records that belong under it (./fields.ts OWNERSHIP, an
 * address's under its customer), found by their owner, since an update's changes need not
 * name it.
 */
function histories(resource: LoggedResource, ids: (column: 'recordId' | 'ownerId') => FilterNode): FilterNode {
  const own = ofRecords(resource, ids('recordId'));
  const owned = ownedResources(resource);
  if (owned.length === 0) return own;
  const resources = isIn(
    'resource',
    owned.map((value) => ({ type: 'string', value })),
  );
  return { kind: 'or', nodes: [own, allOf(resources, ids('ownerId'))] };
}

/**
 * Reads the change log (src/domain/change-log/append.ts writes it). Entries become visible
 * in seq order (the migration's advisory lock), so "every entry with a seq above the
 * cursor" never skips one that commits later and never repeats one already read.
 */
export class ChangeLogService {
  private readonly rows: RowReader;
  readonly fields = changeLogFields;

  constructor(deps: ServiceDeps) {
    this.rows = deps.rows;
  }

  /** The rows matching `filter` in `orderBy` (ties by id), as one statement of the compiled read path. */
  private rowsOf(filter: FilterNode | undefined, orderBy: readonly SortKey[], window: Window): Promise<Row[]> {
    return readRecords(this.rows, { table: CHANGE_LOG_TABLE, fields: changeLogColumns, select: COLUMNS, filter, orderBy, window });
  }

  /** The entries matching `filter` in `orderBy` (ties by id). */
  private async read(filter: FilterNode | undefined, orderBy: readonly SortKey[], window: Window): Promise<ChangeEntry[]> {
    return (await this.rowsOf(filter, orderBy, window)).map(entryOf);
  }

  private count(filter: FilterNode | undefined): Promise<number> {
    return countRecords(this.rows, CHANGE_LOG_TABLE, changeLogColumns, filter);
  }

  /**
   * The entries after `seq`, in seq order, at most `limit`. THE SOURCE OF THE EVENTS RELAY
   * and of subscriptions: keep it one statement (one snapshot), or the order guarantee is lost.
   */
  async changesAfter(seq: bigint | string, limit: number): Promise<ChangeEntry[]> {
    return this.read(seqAbove(BigInt(seq)), BY_SEQ, { take: limit, skip: 0 });
  }

  /** One entry by its id; `access` without the personal-data scope redacts it (./redact.ts), as REST's GET one passes it. */
  async get(rawId: string, _expand?: unknown, access?: { readonly personalData: boolean }): Promise<ChangeEntry> {
    const id = parseId(rawId);
    const [entry] = await this.read(compare('id', 'eq', uuid(id)), [], 'all');
    if (!entry) throw notFound('change-log entry', id);
    return access && !access.personalData ? withoutPersonalData(entry) : entry;
  }

  /** A feed page: entries matching the filter with a seq above `after`, in seq order (redacted when `personalData` is false). */
  async feed(q: {
    filter?: FilterNode | undefined;
    after?: bigint | undefined;
    limit: number;
    offset?: number | undefined;
    count?: boolean | undefined;
    personalData?: boolean | undefined;
  }): Promise<FeedPage> {
    const after = q.after ?? 0n;
    const [rows, totalCount] = await Promise.all([
      this.read(allOf(q.filter, seqAbove(after)), BY_SEQ, { skip: q.offset ?? 0, take: q.limit + 1 }),
      q.count ? this.count(q.filter) : undefined,
    ]);
    const items = entriesFor(q.personalData, rows.slice(0, q.limit));
    return { items, hasMore: rows.length > q.limit, totalCount, cursor: items.at(-1)?.seq ?? after.toString() };
  }

  /** An ordinary list page in the client's order ($orderby, then id), with offset paging (redacted when `personalData` is false). */
  async list(q: ListQuery): Promise<Page<ChangeEntry>> {
    const [rows, totalCount] = await Promise.all([
      this.read(q.filter, q.orderBy ?? [], { skip: q.offset ?? 0, take: q.limit + 1 }),
      q.count ? this.count(q.filter) : undefined,
    ]);
    return {
      items: entriesFor(q.personalData, rows.slice(0, q.limit)),
      totalCount,
      hasMore: rows.length > q.limit,
      cursorOf: (item) => item.seq,
    };
  }

  /**
   * The filter of one record's history (its entries and those of the records that belong
   * under it), after checking the id: NOT_FOUND (from `exists`, the resource's read by id)
   * when the record has no entry and does not exist; a deleted record's history stays readable.
   */
  async historyFilter(resource: LoggedResource, rawId: string, exists: (id: string) => Promise<unknown>): Promise<FilterNode> {
    const id = parseId(rawId);
    const filter = histories(resource, (column) => compare(column, 'eq', uuid(id)));
    const any = await readRecords(this.rows, {
      table: CHANGE_LOG_TABLE,
      fields: changeLogColumns,
      select: ['id'],
      filter,
      orderBy: BY_SEQ,
      window: { take: 1, skip: 0 },
    });
    // The record's own read answers NOT_FOUND (with its own wording) when it never existed.
    if (any.length === 0) await exists(id);
    return filter;
  }

  /**
   * For batching (GraphQL `history`): the histories of these records (as historyFilter's),
   * by record id, each in seq order. One statement.
   */
  async historyOf(resource: LoggedResource, recordIds: readonly string[]): Promise<Map<string, ChangeEntry[]>> {
    const ids = recordIds.map(uuid);
    const rows = await this.rowsOf(
      histories(resource, (column) => isIn(column, ids)),
      BY_SEQ,
      'all',
    );
    // An entry of the resource is its record's own, any other one of a record under it (matched by its owner: never null).
    const groups = groupBy(rows, (r) => (r.resource === resource ? r.recordId : (r.ownerId ?? '')));
    return new Map([...groups].map(([id, of]) => [id, of.map(entryOf)]));
  }
}
