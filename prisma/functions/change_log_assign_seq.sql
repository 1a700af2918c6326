-- An entry's place in the feed. Normally a placeholder (a negative number, unique, never seen
-- by another transaction) that change_log_seq_at_commit replaces inside COMMIT; the import,
-- which appends its entries in its last statement, asks for the seq at once with
-- SET LOCAL billing.change_log_seq = 'now'. The seq is taken under the feed's advisory lock,
-- held to the end of the transaction (docs/changes.md).
-- Trigger: "ChangeLog_assign_seq", BEFORE INSERT ON "ChangeLog" FOR EACH ROW.
-- Since 20261126000000_change_log, this body since 20261126200000_change_log_seq_at_commit.
CREATE OR REPLACE FUNCTION "change_log_assign_seq"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('billing.change_log_seq', true) = 'now' THEN
    PERFORM pg_advisory_xact_lock(1651076204);
    NEW."seq" := nextval('"ChangeLog_seq_seq"');
  ELSE
    NEW."seq" := -nextval('"ChangeLog_placeholder_seq"');
  END IF;
  RETURN NEW;
END
$$;
