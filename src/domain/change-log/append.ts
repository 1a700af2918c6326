import type { Prisma } from '../../db/__generated__/prisma/client';
import { executeInUnit } from '../../db/unit-of-work';
import type { FieldCatalog } from '../../query/fields';
import { isDecimal } from '../../query/values';
import type { RESOURCES, ResourceModel } from '../resources';

// Here in common (not src/domain/change-log, which reads the log) because every writing
// service uses it, and the reader knows every resource's fields.
//
// Writes change-log entries inside the transaction of the write they record. The database
// does the rest (migrations 20261126000000_change_log, 20261126200000_change_log_seq_at_commit):
// an entry gets its `seq` inside COMMIT, under the feed's advisory lock, so entries become
// visible in seq order and the lock is held only from there to the end of the commit.

/** What a change did to its record; alphabetical, as the database enum declares them. */
export const CHANGE_OPERATIONS = ['created', 'deleted', 'updated'] as const;
export type ChangeOperation = (typeof CHANGE_OPERATIONS)[number];

/** Every resource the log records, by its singular kebab name (an entry's `resource`): every declared resource's `name`. */
export type LoggedResource = (typeof RESOURCES)[ResourceModel]['name'];

/** A value as the log stores it: JSON, decimals as their exact text, instants as ISO 8601 UTC with Z. */
export type LoggedValue = string | boolean | null;
/** Field → its value before and after the write (null before a create, null after a delete). */
export type FieldChanges = Record<string, { old: LoggedValue; new: LoggedValue }>;

export interface ChangeDraft {
  readonly resource: LoggedResource;
  readonly recordId: string;
  readonly operation: ChangeOperation;
  readonly changes: FieldChanges;
  /**
   * The record this one belongs under (src/domain/change-log/fields.ts OWNERSHIP: an address's
   * customer), whose history shows the entry: given for every entry of such a resource, since
   * an update's changes need not name it.
   */
  readonly owner?: string | undefined;
}

/** Who wrote, and in which request or import run. */
export interface ChangeOrigin {
  readonly userId: string;
  readonly requestId?: string | undefined;
  readonly importRunId?: string | undefined;
  readonly occurredAt: Date;
}

/** A record's value as the API writes it: decimals exact (as text here), instants ISO with Z. */
function loggedValue(v: unknown): LoggedValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Date) return v.toISOString();
  if (isDecimal(v)) return v.toFixed();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw new Error(`change log: cannot record a value of type ${typeof v}`);
}

/**
 * The field-level changes between two versions of a record (undefined: created / deleted),
 * over the fields of its resource's catalogue except `id` (the entry's recordId). An update
 * that changed nothing gives {}.
 */
export function fieldChanges(fields: FieldCatalog, before: object | undefined, after: object | undefined): FieldChanges {
  const out: FieldChanges = {};
  const get = (r: object | undefined, f: string): LoggedValue => (r ? loggedValue(Object.getOwnPropertyDescriptor(r, f)?.value) : null);
  for (const f of Object.keys(fields)) {
    if (f === 'id') continue;
    const old = get(before, f);
    const now = get(after, f);
    if (!before || !after || old !== now) out[f] = { old, new: now };
  }
  return out;
}

/** The import's transaction, as its Sql sees it. */
type Tx = Pick<Prisma.TransactionClient, '$executeRawUnsafe'>;

// One statement for all of a transaction's entries, in the order given (seq follows it).
/** The statement that appends a write's entries (exported for npm run bench:writes, which measures writes without it). */
export const APPEND = `INSERT INTO "ChangeLog" ("resource", "recordId", "operation", "changes", "ownerId", "userId", "occurredAt", "requestId", "importRunId")
SELECT e->>'resource', (e->>'recordId')::uuid, (e->>'operation')::"ChangeOperation", e->'changes', (e->>'owner')::uuid, $2::uuid, $3::timestamptz, $4::text, $5::uuid
FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(e, n) ORDER BY n`;

/**
 * Appends the entries in the transaction of the write that made them (inTransaction's unit,
 * src/db/unit-of-work.ts), through the driver adapter: one statement per write.
 */
export async function appendChanges(drafts: readonly ChangeDraft[], origin: ChangeOrigin): Promise<void> {
  if (drafts.length === 0) return;
  await executeInUnit(APPEND, [
    JSON.stringify(drafts),
    origin.userId,
    origin.occurredAt.toISOString(),
    origin.requestId ?? null,
    origin.importRunId ?? null,
  ]);
}

// The import (src/import/write.ts) stages its entries in a temporary table while it writes,
// and appends them at the end, so that its long transaction holds the feed's lock only for
// that last statement.

/** The import's staged entries, in the order it wrote the records. */
export const IMPORT_CHANGES = 'pg_temp."import_changes"';
/** Values the import changed before its upserts (keys moved aside), as they were. */
export const IMPORT_MOVED = 'pg_temp."import_moved"';

/** Creates the staging tables in the writer's transaction (dropped at its end; made once when a transaction stages twice). */
export async function stageImportChanges(tx: Tx): Promise<void> {
  await tx.$executeRawUnsafe(
    `CREATE TEMPORARY TABLE IF NOT EXISTS ${IMPORT_CHANGES.slice('pg_temp.'.length)} ("n" bigserial, "resource" text NOT NULL, "recordId" uuid NOT NULL, "operation" "ChangeOperation" NOT NULL, "changes" jsonb NOT NULL, "ownerId" uuid) ON COMMIT DROP`,
  );
  await tx.$executeRawUnsafe(
    `CREATE TEMPORARY TABLE IF NOT EXISTS ${IMPORT_MOVED.slice('pg_temp.'.length)} ("id" uuid PRIMARY KEY, "field" text NOT NULL, "old" jsonb) ON COMMIT DROP`,
  );
}

const APPEND_STAGED = `INSERT INTO "ChangeLog" ("resource", "recordId", "operation", "changes", "ownerId", "userId", "occurredAt", "requestId", "importRunId")
     SELECT "resource", "recordId", "operation", "changes", "ownerId", $1::uuid, $2::timestamptz, $3::text, $4::uuid FROM ${IMPORT_CHANGES} ORDER BY "n"`;
const originParams = (o: ChangeOrigin) => [o.userId, o.occurredAt.toISOString(), o.requestId ?? null, o.importRunId ?? null];

/**
 * Appends the staged entries: the import's last statement. They take their seq as they are
 * inserted (under the feed's lock, held to the end of the import's commit): one UPDATE per
 * entry at commit, as a service's few entries get it, would cost more than that here.
 */
export async function appendStagedChanges(tx: Tx, origin: ChangeOrigin): Promise<void> {
  await tx.$executeRawUnsafe(`SET LOCAL billing.change_log_seq = 'now'`);
  await tx.$executeRawUnsafe(APPEND_STAGED, ...originParams(origin));
}

/**
 * Appends a bulk write's staged entries and empties the staging tables (the transaction may
 * stage again: a GraphQL operation's next mutation). The entries take their seq now, as the
 * import's do, unless this transaction appended entries before (their seq comes at commit,
 * and a record's entries stay in order); entries appended after take theirs at commit.
 */
export async function appendBulkChanges(tx: Tx & Pick<Prisma.TransactionClient, '$queryRawUnsafe'>, origin: ChangeOrigin): Promise<void> {
  // Only this transaction's own uncommitted entries have a placeholder (negative) seq.
  const [earlier] = await tx.$queryRawUnsafe<{ found: boolean }[]>(`SELECT EXISTS (SELECT 1 FROM "ChangeLog" WHERE "seq" < 0) AS found`);
  if (earlier?.found !== true) await tx.$executeRawUnsafe(`SET LOCAL billing.change_log_seq = 'now'`);
  await tx.$executeRawUnsafe(APPEND_STAGED, ...originParams(origin));
  if (earlier?.found !== true) await tx.$executeRawUnsafe(`SET LOCAL billing.change_log_seq = ''`);
  await tx.$executeRawUnsafe(`TRUNCATE ${IMPORT_CHANGES}, ${IMPORT_MOVED}`);
}
