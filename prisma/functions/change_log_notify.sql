-- Wakes the service's listeners (GraphQL subscriptions, the events relay) when entries
-- commit; they read the feed themselves, so the payload is empty.
-- Trigger: "ChangeLog_notify", AFTER INSERT ON "ChangeLog" FOR EACH STATEMENT.
-- Since 20261126100000_change_events.
CREATE OR REPLACE FUNCTION "change_log_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('billing_change_log', '');
  RETURN NULL;
END
$$;
