-- Keeps "CustomerSurname", every surname customers have had, for substring filters on surnames
-- (src/db/read/lexicon.ts). Triggers: "Customer_surnames_insert" and "Customer_surnames_update",
-- AFTER INSERT / AFTER UPDATE ON "Customer" REFERENCING NEW TABLE AS written FOR EACH STATEMENT.
-- Since 20261125020000_surname_lexicon.
CREATE OR REPLACE FUNCTION "customer_surnames_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "CustomerSurname" ("name") SELECT DISTINCT "lastName" FROM written ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
