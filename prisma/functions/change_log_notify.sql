-- Wakes the log's readers (GraphQL subscriptions, the events relay) after the import's
-- statement, whose entries took their seq as they were inserted, under the feed's lock, held
-- to the end of the commit (change_log_assign_seq). Every other write's entries take their seq
-- at commit, and change_log_seq_at_commit wakes the readers there: here, before the lock,
-- a reader's registration could come between this check and the commit.
-- Trigger: "ChangeLog_notify", AFTER INSERT ON "ChangeLog" FOR EACH STATEMENT.
-- Since 20261126100000_change_events, this body since 20261128100000_change_log_wake_waiting_readers.
CREATE OR REPLACE FUNCTION "change_log_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('billing.change_log_seq', true) = 'now' THEN
    PERFORM "change_log_wake_waiters"();
  END IF;
  RETURN NULL;
END
$$;
