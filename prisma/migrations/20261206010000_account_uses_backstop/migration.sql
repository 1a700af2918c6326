-- Accounts fit their uses: the database's backstop for the rule the writes and the import
-- check first (the same table as src/domain/account/uses.ts: which column of which table
-- names an account, and the active type that use needs). Constraint triggers, checked at
-- each statement, and deferrable, so that a transaction changing an account and the records
-- naming it together (the import) is judged on its result: it defers them and asks for the
-- check before it commits (SET CONSTRAINTS ALL IMMEDIATE), so a refusal is a statement's
-- error on every driver rather than a failed COMMIT. A refusal is a check violation (SQLSTATE
-- 23514) naming no value. The functions' readable sources: prisma/functions/account_use_fits.sql
-- and prisma/functions/account_keeps_uses.sql (one line each here: the Prisma CLI cuts a
-- migration at every semicolon).

-- A record's accounts: each pair of arguments is a column and the type its use needs.
CREATE OR REPLACE FUNCTION "account_use_fits"() RETURNS trigger LANGUAGE plpgsql AS E'DECLARE i int := 0\x3B account uuid\x3B BEGIN WHILE i < TG_NARGS LOOP EXECUTE format(''SELECT %I FROM %I WHERE "id" = $1'', TG_ARGV[i], TG_TABLE_NAME) INTO account USING NEW."id"\x3B IF EXISTS (SELECT 1 FROM "Account" a WHERE a."id" = account AND NOT (a."isActive" AND a."type"::text = TG_ARGV[i + 1])) THEN RAISE EXCEPTION ''an account of a % row does not fit its use (%: an active % account)'', TG_TABLE_NAME, TG_ARGV[i], TG_ARGV[i + 1] USING ERRCODE = ''check_violation''\x3B END IF\x3B i := i + 2\x3B END LOOP\x3B RETURN NULL\x3B END';
CREATE CONSTRAINT TRIGGER "PaymentSource_account_fits" AFTER INSERT OR UPDATE OF "accountId" ON "PaymentSource" DEFERRABLE INITIALLY IMMEDIATE FOR EACH ROW EXECUTE FUNCTION "account_use_fits"('accountId', 'Asset');
CREATE CONSTRAINT TRIGGER "Article_account_fits" AFTER INSERT OR UPDATE OF "revenueAccountId" ON "Article" DEFERRABLE INITIALLY IMMEDIATE FOR EACH ROW EXECUTE FUNCTION "account_use_fits"('revenueAccountId', 'Revenue');
CREATE CONSTRAINT TRIGGER "TaxCode_account_fits" AFTER INSERT OR UPDATE OF "taxAccountId", "revenueAccountId" ON "TaxCode" DEFERRABLE INITIALLY IMMEDIATE FOR EACH ROW EXECUTE FUNCTION "account_use_fits"('taxAccountId', 'Liability', 'revenueAccountId', 'Revenue');
CREATE CONSTRAINT TRIGGER "Customer_account_fits" AFTER INSERT OR UPDATE OF "receivableAccountId", "prepaymentAccountId" ON "Customer" DEFERRABLE INITIALLY IMMEDIATE FOR EACH ROW EXECUTE FUNCTION "account_use_fits"('receivableAccountId', 'Asset', 'prepaymentAccountId', 'Liability');

-- An account's type and isActive fit every record naming it.
CREATE OR REPLACE FUNCTION "account_keeps_uses"() RETURNS trigger LANGUAGE plpgsql AS E'DECLARE now_type text\x3B now_active boolean\x3B BEGIN SELECT a."type"::text, a."isActive" INTO now_type, now_active FROM "Account" a WHERE a."id" = NEW."id"\x3B IF now_type IS NULL THEN RETURN NULL\x3B END IF\x3B IF (NOT now_active OR now_type <> ''Asset'') AND (EXISTS (SELECT 1 FROM "PaymentSource" WHERE "accountId" = NEW."id") OR EXISTS (SELECT 1 FROM "Customer" WHERE "receivableAccountId" = NEW."id")) OR (NOT now_active OR now_type <> ''Revenue'') AND (EXISTS (SELECT 1 FROM "Article" WHERE "revenueAccountId" = NEW."id") OR EXISTS (SELECT 1 FROM "TaxCode" WHERE "revenueAccountId" = NEW."id")) OR (NOT now_active OR now_type <> ''Liability'') AND (EXISTS (SELECT 1 FROM "TaxCode" WHERE "taxAccountId" = NEW."id") OR EXISTS (SELECT 1 FROM "Customer" WHERE "prepaymentAccountId" = NEW."id")) THEN RAISE EXCEPTION ''an account no longer fits the records that name it'' USING ERRCODE = ''check_violation''\x3B END IF\x3B RETURN NULL\x3B END';
CREATE CONSTRAINT TRIGGER "Account_keeps_uses" AFTER UPDATE OF "type", "isActive" ON "Account" DEFERRABLE INITIALLY IMMEDIATE FOR EACH ROW EXECUTE FUNCTION "account_keeps_uses"();
