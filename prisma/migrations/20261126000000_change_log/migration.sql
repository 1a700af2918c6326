-- The change log (docs/changes.md): one entry per record a write created, changed or
-- deleted, appended in the same transaction as the write.
--
-- Feed order: seq is assigned by a trigger, from a sequence, after the inserting
-- transaction has taken one transaction-level advisory lock. A transaction keeps that lock
-- until after it is visible (or rolled back), so a transaction that takes a seq later
-- cannot take it before every smaller seq is committed or gone: a reader that sees an entry
-- sees every committed entry with a smaller seq, and a cursor at the last seq read never
-- skips one. The writers append their entries last in the transaction, so the lock is held
-- only for the tail of each write. Gaps in seq (a rolled-back append) are harmless.
--
-- Append-only: triggers refuse UPDATE and TRUNCATE, and DELETE as well, except for the
-- expiry of entries past the retention period (ten years after the end of their calendar
-- year), which a maintenance session asks for explicitly with the setting
-- billing.change_log_expiry = on (docs/changes.md, Personal data and retention).
--
-- Function bodies are strings with their semicolons written as the escape x3B: the Prisma
-- CLI cuts scripts at every semicolon, even inside quotes.

-- CreateEnum (alphabetical, like every enum: enums sort by their string value)
CREATE TYPE "ChangeOperation" AS ENUM ('created', 'deleted', 'updated');

-- CreateTable
CREATE TABLE "ChangeLog" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "seq" BIGINT NOT NULL,
    "resource" TEXT COLLATE "billing_c" NOT NULL,
    "recordId" UUID NOT NULL,
    "operation" "ChangeOperation" NOT NULL,
    "changes" JSONB NOT NULL,
    "userId" UUID NOT NULL,
    "occurredAt" TIMESTAMPTZ(3) NOT NULL,
    "requestId" TEXT COLLATE "billing_c",
    "importRunId" UUID,

    CONSTRAINT "ChangeLog_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ChangeLog_seq_key" ON "ChangeLog"("seq");

-- CreateIndex
CREATE INDEX "ChangeLog_resource_recordId_seq_idx" ON "ChangeLog"("resource", "recordId", "seq");

-- CreateIndex
CREATE INDEX "ChangeLog_occurredAt_idx" ON "ChangeLog"("occurredAt");

-- CreateIndex
CREATE INDEX "ChangeLog_userId_idx" ON "ChangeLog"("userId");

CREATE SEQUENCE "ChangeLog_seq_seq" AS BIGINT OWNED BY "ChangeLog"."seq";

-- The lock key is a constant: 0x62696C6C, billing in ASCII, so it cannot meet the
-- migration lock of the Prisma CLI.
CREATE FUNCTION "change_log_assign_seq"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN PERFORM pg_advisory_xact_lock(1651076204)\x3B NEW."seq" := nextval(''"ChangeLog_seq_seq"'')\x3B RETURN NEW\x3B END';

CREATE TRIGGER "ChangeLog_assign_seq" BEFORE INSERT ON "ChangeLog" FOR EACH ROW EXECUTE FUNCTION "change_log_assign_seq"();

CREATE FUNCTION "change_log_refuse"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN IF TG_OP = ''DELETE'' AND current_setting(''billing.change_log_expiry'', true) = ''on'' AND OLD."occurredAt" < date_trunc(''year'', now()) - interval ''10 years'' THEN RETURN OLD\x3B END IF\x3B RAISE EXCEPTION ''the change log is append-only: % refused'', TG_OP USING ERRCODE = ''insufficient_privilege''\x3B END';

CREATE TRIGGER "ChangeLog_append_only" BEFORE UPDATE OR DELETE ON "ChangeLog" FOR EACH ROW EXECUTE FUNCTION "change_log_refuse"();

CREATE TRIGGER "ChangeLog_no_truncate" BEFORE TRUNCATE ON "ChangeLog" FOR EACH STATEMENT EXECUTE FUNCTION "change_log_refuse"();
