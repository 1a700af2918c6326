-- Text sorts and compares by Unicode code point on every server, whatever its default
-- collation (hand-written: the Prisma schema language cannot declare a column collation).
--
-- billing_c orders like C (byte order of UTF-8, which is code point order: Z before a
-- before A-umlaut) and classifies characters as UTF-8 (LC_CTYPE C.UTF-8, which PostgreSQL
-- servers on current Linux distributions and PGlite have), so lower, upper and ILIKE (the
-- tolower and toupper filters, case-insensitive codes) still fold A-umlaut to a-umlaut.
-- One plain statement and no DO block, no semicolon and no quote in these comments: the
-- Prisma CLI cuts scripts at every semicolon, even inside dollar quotes.
-- Because the order is byte order, PostgreSQL turns a LIKE prefix such as M% into an index
-- range (M up to N) on the same index that gives ORDER BY, instead of walking it from A.
CREATE COLLATION IF NOT EXISTS "billing_c" (provider = libc, lc_collate = 'C', lc_ctype = 'C.UTF-8');

ALTER TABLE "Account"
  ALTER COLUMN "code" TYPE VARCHAR(50) COLLATE "billing_c",
  ALTER COLUMN "name" TYPE VARCHAR(200) COLLATE "billing_c";

ALTER TABLE "PaymentSource"
  ALTER COLUMN "code" TYPE VARCHAR(50) COLLATE "billing_c",
  ALTER COLUMN "name" TYPE VARCHAR(200) COLLATE "billing_c",
  ALTER COLUMN "description" TYPE VARCHAR(1000) COLLATE "billing_c";

ALTER TABLE "Payment"
  ALTER COLUMN "reference" TYPE VARCHAR(200) COLLATE "billing_c";

ALTER TABLE "TaxCode"
  ALTER COLUMN "code" TYPE VARCHAR(50) COLLATE "billing_c",
  ALTER COLUMN "name" TYPE VARCHAR(200) COLLATE "billing_c",
  ALTER COLUMN "description" TYPE VARCHAR(1000) COLLATE "billing_c",
  ALTER COLUMN "taxType" TYPE VARCHAR(20) COLLATE "billing_c";

ALTER TABLE "Article"
  ALTER COLUMN "code" TYPE VARCHAR(50) COLLATE "billing_c",
  ALTER COLUMN "name" TYPE VARCHAR(200) COLLATE "billing_c",
  ALTER COLUMN "description" TYPE VARCHAR(1000) COLLATE "billing_c";

ALTER TABLE "Customer"
  ALTER COLUMN "firstName" TYPE VARCHAR(200) COLLATE "billing_c",
  ALTER COLUMN "lastName" TYPE VARCHAR(200) COLLATE "billing_c",
  ALTER COLUMN "matriculationId" TYPE VARCHAR(50) COLLATE "billing_c",
  ALTER COLUMN "cmsStudentId" TYPE VARCHAR(50) COLLATE "billing_c",
  ALTER COLUMN "email" TYPE VARCHAR(320) COLLATE "billing_c",
  ALTER COLUMN "debtorNumber" TYPE VARCHAR(50) COLLATE "billing_c",
  ALTER COLUMN "creditorNumber" TYPE VARCHAR(50) COLLATE "billing_c";

ALTER TABLE "Address"
  ALTER COLUMN "addressType" TYPE VARCHAR(50) COLLATE "billing_c",
  ALTER COLUMN "street" TYPE VARCHAR(200) COLLATE "billing_c",
  ALTER COLUMN "city" TYPE VARCHAR(100) COLLATE "billing_c",
  ALTER COLUMN "postalCode" TYPE VARCHAR(20) COLLATE "billing_c",
  ALTER COLUMN "country" TYPE VARCHAR(100) COLLATE "billing_c";

ALTER TABLE "AcademicTerm"
  ALTER COLUMN "code" TYPE VARCHAR(20) COLLATE "billing_c",
  ALTER COLUMN "statisticalSemester" TYPE VARCHAR(50) COLLATE "billing_c",
  ALTER COLUMN "externalSystemId" TYPE VARCHAR(100) COLLATE "billing_c";

-- The plain indexes on these columns now serve prefix LIKE themselves.
DROP INDEX "Customer_lastName_pattern_idx";
DROP INDEX "Article_code_pattern_idx";
