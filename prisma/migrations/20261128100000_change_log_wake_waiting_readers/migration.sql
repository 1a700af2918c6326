-- A notification on billing_change_log only while a reader of the change log waits for one
-- (docs/events.md, Waking up).
--
-- Before, every transaction that appended to the log notified. Under a steady stream of
-- writes the log readers (the events relay, GraphQL subscriptions) read again on their own
-- and wait for nothing, yet each commit still signalled the listening session, which passed
-- the notification to the service: that cost PostgreSQL and the service more per write than
-- the rest of the change log (npm run bench:writes).
--
-- Now a reader about to wait registers in ChangeLogWaiter (one row per service instance, with
-- the time it holds until), under the feed lock, and then reads the log once more before it
-- waits. A commit notifies only while some registration holds, checked under the same lock
-- (change_log_wake_waiters): a commit checked before a registration is visible before the
-- reader reads again, and one checked after it sees the registration. A row past its time is
-- ignored, and removed by a later registration.
--
-- Function bodies are strings with their semicolons written as the escape x3B (prisma/README.md).

-- CreateTable
CREATE TABLE "ChangeLogWaiter" (
    "waiter" UUID NOT NULL,
    "until" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ChangeLogWaiter_pkey" PRIMARY KEY ("waiter")
);

CREATE OR REPLACE FUNCTION "change_log_wake_waiters"() RETURNS void LANGUAGE plpgsql AS E'BEGIN IF EXISTS (SELECT 1 FROM "ChangeLogWaiter" WHERE "until" > clock_timestamp()) THEN PERFORM pg_notify(''billing_change_log'', '''')\x3B END IF\x3B END';

CREATE OR REPLACE FUNCTION "change_log_seq_at_commit"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN PERFORM pg_advisory_xact_lock(1651076204)\x3B UPDATE "ChangeLog" SET "seq" = nextval(''"ChangeLog_seq_seq"'') WHERE "id" = NEW."id"\x3B PERFORM "change_log_wake_waiters"()\x3B RETURN NULL\x3B END';

CREATE OR REPLACE FUNCTION "change_log_notify"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN IF current_setting(''billing.change_log_seq'', true) = ''now'' THEN PERFORM "change_log_wake_waiters"()\x3B END IF\x3B RETURN NULL\x3B END';

