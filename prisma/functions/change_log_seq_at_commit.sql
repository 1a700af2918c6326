-- Gives an entry inserted with a placeholder its seq inside COMMIT, under the feed's advisory
-- lock, in the order the transaction inserted its entries: the lock is held from here to the
-- end of the commit, without a round trip to the client. Then wakes the log's readers if one
-- waits (change_log_wake_waiters, under the same lock).
-- Trigger: "ChangeLog_seq_at_commit", a CONSTRAINT TRIGGER AFTER INSERT ON "ChangeLog"
-- DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW."seq" < 0).
-- Since 20261126200000_change_log_seq_at_commit, this body since
-- 20261128100000_change_log_wake_waiting_readers.
CREATE OR REPLACE FUNCTION "change_log_seq_at_commit"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(1651076204);
  UPDATE "ChangeLog" SET "seq" = nextval('"ChangeLog_seq_seq"') WHERE "id" = NEW."id";
  PERFORM "change_log_wake_waiters"();
  RETURN NULL;
END
$$;
