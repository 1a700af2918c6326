-- An account's type and isActive, read again as they are when the trigger runs, fit every
-- record naming it (the table of uses of src/domain/account/uses.ts: payment sources' and
-- customers' receivable accounts are active Assets, articles' and tax codes' revenue accounts
-- active Revenue accounts, tax codes' tax accounts and customers' prepayment accounts active
-- Liabilities). A refusal is a check violation naming no value.
-- Trigger: "Account_keeps_uses", a constraint trigger AFTER UPDATE OF "type", "isActive" ON
-- "Account", DEFERRABLE INITIALLY IMMEDIATE, FOR EACH ROW.
-- Since 20261206010000_account_uses_backstop.
CREATE OR REPLACE FUNCTION "account_keeps_uses"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  now_type text;
  now_active boolean;
BEGIN
  SELECT a."type"::text, a."isActive" INTO now_type, now_active FROM "Account" a WHERE a."id" = NEW."id";
  IF now_type IS NULL THEN
    RETURN NULL;
  END IF;
  IF (NOT now_active OR now_type <> 'Asset') AND (EXISTS (SELECT 1 FROM "PaymentSource" WHERE "accountId" = NEW."id") OR EXISTS (SELECT 1 FROM "Customer" WHERE "receivableAccountId" = NEW."id"))
    OR (NOT now_active OR now_type <> 'Revenue') AND (EXISTS (SELECT 1 FROM "Article" WHERE "revenueAccountId" = NEW."id") OR EXISTS (SELECT 1 FROM "TaxCode" WHERE "revenueAccountId" = NEW."id"))
    OR (NOT now_active OR now_type <> 'Liability') AND (EXISTS (SELECT 1 FROM "TaxCode" WHERE "taxAccountId" = NEW."id") OR EXISTS (SELECT 1 FROM "Customer" WHERE "prepaymentAccountId" = NEW."id")) THEN
    RAISE EXCEPTION 'an account no longer fits the records that name it' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END
$$;
