-- Reference data written through the API: the rules the database keeps for writes that race.
-- Codes of accounts, articles and academic terms are unique regardless of case.
CREATE UNIQUE INDEX "Account_code_lower_key" ON "Account" (lower("code"));
CREATE UNIQUE INDEX "Article_code_lower_key" ON "Article" (lower("code"));
CREATE UNIQUE INDEX "AcademicTerm_code_lower_key" ON "AcademicTerm" (lower("code"));

-- Periods of one tax code never overlap: an exclusion constraint over the code and the
-- closed range from validFrom to validTo (open-ended without validTo). btree_gist gives
-- text equality a GiST operator class (embedded databases load it from src/db/pglite-extensions.ts).
-- Deferrable: checked at once for the API's writes, at the commit for an import, which may
-- add a successor before it ends the period the successor follows.
CREATE EXTENSION IF NOT EXISTS btree_gist;
ALTER TABLE "TaxCode" ADD CONSTRAINT "TaxCode_period_excl" EXCLUDE USING gist ("code" WITH =, tstzrange("validFrom", "validTo", '[]') WITH &&) DEFERRABLE INITIALLY IMMEDIATE;

-- A rate is a percentage, and an exempt tax code taxes nothing.
ALTER TABLE "TaxCode" ADD CONSTRAINT "TaxCode_rate_max_check" CHECK ("rate" <= 100);
ALTER TABLE "TaxCode" ADD CONSTRAINT "TaxCode_exempt_rate_check" CHECK ("taxType" <> 'Exempt' OR "rate" = 0);

-- Deleting an article no longer takes its price history with it.
ALTER TABLE "ArticlePrice" DROP CONSTRAINT "ArticlePrice_articleId_fkey";
ALTER TABLE "ArticlePrice" ADD CONSTRAINT "ArticlePrice_articleId_fkey" FOREIGN KEY ("articleId") REFERENCES "Article"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
