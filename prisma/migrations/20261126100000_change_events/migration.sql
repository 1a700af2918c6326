-- Change events (docs/events.md).
--
-- ChangeRelayState: how far the relay has published the change log to NATS JetStream, one
-- row per relay (named after its stream), its text in the code-point collation like every text column.
--
-- A notification on the channel billing_change_log after every statement that appends to the
-- change log. PostgreSQL delivers it when the transaction commits, and never for one that
-- rolls back. It carries nothing: listeners (GraphQL subscriptions, the relay) read the log
-- by seq, so a lost or merged notification delays an entry by one poll and never loses it.
-- Function bodies are strings with their semicolons written as the escape x3B (prisma/README.md).

-- CreateTable
CREATE TABLE "ChangeRelayState" (
    "relay" VARCHAR(100) COLLATE "billing_c" NOT NULL,
    "lastSeq" BIGINT NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ChangeRelayState_pkey" PRIMARY KEY ("relay")
);

CREATE FUNCTION "change_log_notify"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN PERFORM pg_notify(''billing_change_log'', '''')\x3B RETURN NULL\x3B END';

CREATE TRIGGER "ChangeLog_notify" AFTER INSERT ON "ChangeLog" FOR EACH STATEMENT EXECUTE FUNCTION "change_log_notify"();
