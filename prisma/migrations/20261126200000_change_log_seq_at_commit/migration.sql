-- The change log's seq is now taken at COMMIT (docs/changes.md, "The feed never skips or
-- repeats an entry"), not at the entry's INSERT.
--
-- Before: the INSERT took the feed's advisory lock and its seq, and the lock was held until
-- the transaction ended, so every writer waited for the others' round trip from the INSERT
-- to the client's COMMIT (the client's event loop included) and their commit's WAL flush.
-- Now an entry is inserted with a placeholder (a negative number, unique, never visible to
-- another transaction), and a deferred constraint trigger, which PostgreSQL runs inside
-- COMMIT itself, takes the lock and gives each of the transaction's entries its seq, in the
-- order they were inserted. The lock is held from there to the end of the commit, without a
-- round trip. The argument is the one it was: seq is taken under the lock, and a
-- transaction is visible before it releases the lock.
--
-- The import appends its entries (possibly hundreds of thousands) in its last statement;
-- there an UPDATE per entry at commit would cost more than the lock: it asks, with
-- SET LOCAL billing.change_log_seq = 'now', for the seq at insert as before.
--
-- Append-only stays: the one UPDATE let through is this trigger's own, from a placeholder
-- to a seq with nothing else changed (pg_trigger_depth() > 1: issued by a trigger, never by
-- a client).
--
-- Function bodies are strings with their semicolons written as the escape x3B: the Prisma
-- CLI cuts scripts at every semicolon, even inside quotes.

CREATE SEQUENCE "ChangeLog_placeholder_seq" AS BIGINT;

CREATE OR REPLACE FUNCTION "change_log_assign_seq"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN IF current_setting(''billing.change_log_seq'', true) = ''now'' THEN PERFORM pg_advisory_xact_lock(1651076204)\x3B NEW."seq" := nextval(''"ChangeLog_seq_seq"'')\x3B ELSE NEW."seq" := -nextval(''"ChangeLog_placeholder_seq"'')\x3B END IF\x3B RETURN NEW\x3B END';

CREATE FUNCTION "change_log_seq_at_commit"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN PERFORM pg_advisory_xact_lock(1651076204)\x3B UPDATE "ChangeLog" SET "seq" = nextval(''"ChangeLog_seq_seq"'') WHERE "id" = NEW."id"\x3B RETURN NULL\x3B END';

CREATE CONSTRAINT TRIGGER "ChangeLog_seq_at_commit" AFTER INSERT ON "ChangeLog" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW."seq" < 0) EXECUTE FUNCTION "change_log_seq_at_commit"();

CREATE OR REPLACE FUNCTION "change_log_refuse"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN IF TG_OP = ''UPDATE'' AND pg_trigger_depth() > 1 AND OLD."seq" < 0 AND NEW."seq" > 0 AND (NEW."id", NEW."resource", NEW."recordId", NEW."operation", NEW."changes", NEW."userId", NEW."occurredAt", NEW."requestId", NEW."importRunId") IS NOT DISTINCT FROM (OLD."id", OLD."resource", OLD."recordId", OLD."operation", OLD."changes", OLD."userId", OLD."occurredAt", OLD."requestId", OLD."importRunId") THEN RETURN NEW\x3B END IF\x3B IF TG_OP = ''DELETE'' AND current_setting(''billing.change_log_expiry'', true) = ''on'' AND OLD."occurredAt" < date_trunc(''year'', now()) - interval ''10 years'' THEN RETURN OLD\x3B END IF\x3B RAISE EXCEPTION ''the change log is append-only: % refused'', TG_OP USING ERRCODE = ''insufficient_privilege''\x3B END';
