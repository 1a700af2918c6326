-- Periods of one tax code never overlap, and codes equal ignoring case are one tax code (as
-- every other code compares): the exclusion constraint compares lower(code). A database
-- holding two such codes with overlapping periods stops this migration with the constraint's
-- name: end or rename one of them first.
ALTER TABLE "TaxCode" DROP CONSTRAINT "TaxCode_period_excl";
ALTER TABLE "TaxCode" ADD CONSTRAINT "TaxCode_period_excl" EXCLUDE USING gist (lower("code") WITH =, tstzrange("validFrom", "validTo", '[]') WITH &&) DEFERRABLE INITIALLY IMMEDIATE;
