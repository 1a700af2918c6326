-- The change log is append-only. Let through: change_log_seq_at_commit's own UPDATE (issued by
-- a trigger, from a placeholder to a seq, nothing else changed), and, with
-- billing.change_log_expiry = 'on', the DELETE of entries older than ten years.
-- Triggers: "ChangeLog_append_only", BEFORE UPDATE OR DELETE ON "ChangeLog" FOR EACH ROW, and
-- "ChangeLog_no_truncate", BEFORE TRUNCATE ON "ChangeLog" FOR EACH STATEMENT.
-- Since 20261126000000_change_log, this body (ownerId among the columns kept) since
-- 20261206020000_change_log_owner.
CREATE OR REPLACE FUNCTION "change_log_refuse"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND pg_trigger_depth() > 1 AND OLD."seq" < 0 AND NEW."seq" > 0
    AND (NEW."id", NEW."resource", NEW."recordId", NEW."operation", NEW."changes", NEW."userId", NEW."occurredAt", NEW."requestId", NEW."importRunId", NEW."ownerId")
      IS NOT DISTINCT FROM (OLD."id", OLD."resource", OLD."recordId", OLD."operation", OLD."changes", OLD."userId", OLD."occurredAt", OLD."requestId", OLD."importRunId", OLD."ownerId") THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' AND current_setting('billing.change_log_expiry', true) = 'on' AND OLD."occurredAt" < date_trunc('year', now()) - interval '10 years' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'the change log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
