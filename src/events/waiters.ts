import { randomUUID } from 'node:crypto';
import type { RowReader } from '../db/row-reader';

// Registering this instance as waiting for a notification of the change log (table
// ChangeLogWaiter): commits notify only while a registration holds (migration
// 20261128100000_change_log_wake_waiting_readers, function change_log_wake_waiters).
//
// The registration takes the feed's advisory lock, as a commit's check for waiters does, so
// each commit either checked before it (and is visible to the reader's next read) or sees it.
// The reader therefore reads the log once more after registering, and only then waits.

/** The feed's advisory lock key, the change log's own (0x62696C6C, "bill" in ASCII; prisma/functions/change_log_seq_at_commit.sql). */
export const FEED_LOCK_KEY = 1651076204;

/** Registers (or extends) the waiter until the database's clock plus $2 ms; removes registrations expired an hour ago. */
const REGISTER = `WITH gone AS (DELETE FROM "ChangeLogWaiter" WHERE "until" < clock_timestamp() - interval '1 hour' AND "waiter" <> $1::uuid)
INSERT INTO "ChangeLogWaiter" ("waiter", "until")
SELECT $1::uuid, clock_timestamp() + $2::int * interval '1 millisecond' FROM (SELECT pg_advisory_xact_lock(${FEED_LOCK_KEY})) AS feed
ON CONFLICT ("waiter") DO UPDATE SET "until" = EXCLUDED."until"`;

/** Ends the waiter's registration now (no lock: at worst a commit in flight still notifies). */
const CANCEL = `UPDATE "ChangeLogWaiter" SET "until" = clock_timestamp() WHERE "waiter" = $1::uuid`;

export interface WaiterRegistration {
  /** Commits notify for at least `validMs` from now. */
  register(validMs: number): Promise<void>;
  /** Commits stop notifying (unless another instance waits). */
  cancel(): Promise<void>;
}

/** This instance's registration (one id per process); each call one statement, its own transaction. */
export function waiterRegistration(db: { readonly rows: RowReader }): WaiterRegistration {
  const waiter = randomUUID();
  return {
    async register(validMs) {
      await db.rows.read({ text: REGISTER, values: [waiter, Math.ceil(validMs)] });
    },
    async cancel() {
      await db.rows.read({ text: CANCEL, values: [waiter] });
    },
  };
}
