-- A record's accounts fit their uses (src/domain/account/uses.ts holds the same table): each
-- pair of trigger arguments is a column naming an account and the type that use needs; the
-- row is read again as it is when the trigger runs. An id naming no account is left to the
-- foreign key. A refusal is a check violation naming no value.
-- Triggers: "PaymentSource_account_fits", "Article_account_fits", "TaxCode_account_fits",
-- "Customer_account_fits": constraint triggers AFTER INSERT OR UPDATE OF the account columns,
-- DEFERRABLE INITIALLY IMMEDIATE, FOR EACH ROW.
-- Since 20261206010000_account_uses_backstop.
CREATE OR REPLACE FUNCTION "account_use_fits"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  i int := 0;
  account uuid;
BEGIN
  WHILE i < TG_NARGS LOOP
    EXECUTE format('SELECT %I FROM %I WHERE "id" = $1', TG_ARGV[i], TG_TABLE_NAME) INTO account USING NEW."id";
    IF EXISTS (SELECT 1 FROM "Account" a WHERE a."id" = account AND NOT (a."isActive" AND a."type"::text = TG_ARGV[i + 1])) THEN
      RAISE EXCEPTION 'an account of a % row does not fit its use (%: an active % account)', TG_TABLE_NAME, TG_ARGV[i], TG_ARGV[i + 1] USING ERRCODE = 'check_violation';
    END IF;
    i := i + 2;
  END LOOP;
  RETURN NULL;
END
$$;
