-- Entries of a record that belongs under another (an address, under its customer) name that
-- record in the column ownerId, so that the history of the owner shows them (docs/changes.md).
-- The writers set it on every entry of such a record from now on: the entry alone cannot
-- tell, since the changes of an update name the customer only when the address moved.
--
-- Existing address entries get their owner here: a create or a move, the customer it names
-- after the write, a delete, the one before it. Any other update, the customer named by the
-- latest earlier entry of the address that names one, else by the earliest later entry it
-- left (a move or a delete), else the address row itself (an address older than the log).
-- The append-only trigger is set aside for this one UPDATE, inside the migration.
--
-- The append-only function now keeps ownerId among the columns its seq UPDATE must leave as
-- they are (prisma/functions/change_log_refuse.sql).

-- AlterTable
ALTER TABLE "ChangeLog" ADD COLUMN "ownerId" UUID;

ALTER TABLE "ChangeLog" DISABLE TRIGGER "ChangeLog_append_only";

UPDATE "ChangeLog" e SET "ownerId" = COALESCE(
    CASE WHEN e."operation" = 'deleted' THEN e."changes"->'customerId'->>'old' ELSE e."changes"->'customerId'->>'new' END,
    (SELECT p."changes"->'customerId'->>'new' FROM "ChangeLog" p
      WHERE p."resource" = 'address' AND p."recordId" = e."recordId" AND p."seq" < e."seq" AND p."changes"->'customerId'->>'new' IS NOT NULL
      ORDER BY p."seq" DESC LIMIT 1),
    (SELECT l."changes"->'customerId'->>'old' FROM "ChangeLog" l
      WHERE l."resource" = 'address' AND l."recordId" = e."recordId" AND l."seq" > e."seq" AND l."changes"->'customerId'->>'old' IS NOT NULL
      ORDER BY l."seq" LIMIT 1),
    (SELECT a."customerId"::text FROM "Address" a WHERE a."id" = e."recordId")
  )::uuid
WHERE e."resource" = 'address';

ALTER TABLE "ChangeLog" ENABLE TRIGGER "ChangeLog_append_only";

-- CreateIndex
CREATE INDEX "ChangeLog_ownerId_seq_idx" ON "ChangeLog"("ownerId", "seq");

CREATE OR REPLACE FUNCTION "change_log_refuse"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN IF TG_OP = ''UPDATE'' AND pg_trigger_depth() > 1 AND OLD."seq" < 0 AND NEW."seq" > 0 AND (NEW."id", NEW."resource", NEW."recordId", NEW."operation", NEW."changes", NEW."userId", NEW."occurredAt", NEW."requestId", NEW."importRunId", NEW."ownerId") IS NOT DISTINCT FROM (OLD."id", OLD."resource", OLD."recordId", OLD."operation", OLD."changes", OLD."userId", OLD."occurredAt", OLD."requestId", OLD."importRunId", OLD."ownerId") THEN RETURN NEW\x3B END IF\x3B IF TG_OP = ''DELETE'' AND current_setting(''billing.change_log_expiry'', true) = ''on'' AND OLD."occurredAt" < date_trunc(''year'', now()) - interval ''10 years'' THEN RETURN OLD\x3B END IF\x3B RAISE EXCEPTION ''the change log is append-only: % refused'', TG_OP USING ERRCODE = ''insufficient_privilege''\x3B END';
