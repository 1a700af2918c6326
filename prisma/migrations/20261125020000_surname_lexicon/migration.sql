-- Every surname customers have had, one row each: a contains or endswith filter on surnames
-- first finds the matching names here, then reads the customers of just those names from
-- the (lastName, id) index, in page order (src/db/query/lexicon.ts). Without it such a page
-- walks that index from A until it has its rows: on 100,000 customers with 141 surnames,
-- contains mann passed 20,150 entries (2.3 ms of database time) to reach the first Hartmann.
--
-- Triggers keep it: every surname a statement inserts or writes into Customer is added in
-- the same transaction, so a reader that sees a customer also sees the name. Names are never
-- removed (a concurrent insert of the same name could not then be told apart from a removal),
-- so a name nobody has any more only costs the filter one index probe.
--
-- The function body is a string with its semicolons written as the escape x3B: the Prisma
-- CLI cuts scripts at every semicolon, even inside quotes, and PL/pgSQL needs them.
CREATE TABLE "CustomerSurname" (
    "name" VARCHAR(200) COLLATE "billing_c" NOT NULL,
    CONSTRAINT "CustomerSurname_pkey" PRIMARY KEY ("name")
);

CREATE INDEX "CustomerSurname_name_trgm_idx" ON "CustomerSurname" USING gin ("name" gin_trgm_ops);

CREATE FUNCTION "customer_surnames_add"() RETURNS trigger LANGUAGE plpgsql AS E'BEGIN INSERT INTO "CustomerSurname" ("name") SELECT DISTINCT "lastName" FROM written ON CONFLICT DO NOTHING\x3B RETURN NULL\x3B END';

CREATE TRIGGER "Customer_surnames_insert" AFTER INSERT ON "Customer" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION "customer_surnames_add"();

CREATE TRIGGER "Customer_surnames_update" AFTER UPDATE ON "Customer" REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION "customer_surnames_add"();

INSERT INTO "CustomerSurname" ("name") SELECT DISTINCT "lastName" FROM "Customer" ON CONFLICT DO NOTHING;
