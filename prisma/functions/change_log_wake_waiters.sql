-- Notifies the channel billing_change_log, delivered at commit, if a reader of the log waits
-- for one (a row of "ChangeLogWaiter" not yet expired; src/events/waiters.ts registers it).
-- Called where the feed's lock is held to the end of the commit, so that a reader's
-- registration (taken under the same lock) either comes before this check, which then sees
-- it, or after this transaction is visible, so the reader's next read finds its entries.
-- Without a waiter no notification is sent: under a steady stream of writes the readers keep
-- reading and nobody waits, and a notification per commit cost PostgreSQL and the service
-- more than the rest of the change log (docs/events.md).
-- Called by change_log_seq_at_commit and change_log_notify.
-- Since 20261128100000_change_log_wake_waiting_readers.
CREATE OR REPLACE FUNCTION "change_log_wake_waiters"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "ChangeLogWaiter" WHERE "until" > clock_timestamp()) THEN
    PERFORM pg_notify('billing_change_log', '');
  END IF;
END
$$;
