-- A customer's addresses read from the index alone. Every read of customers with their
-- addresses (REST lists, the to-many field of GraphQL) fetches them by "customerId" = ANY(the
-- page's ids). With the other columns in the index (INCLUDE) that is an index-only scan: for
-- 100 customers, 306 buffers against 492 for the index and then a heap page for almost every
-- address (196 rows on 189 pages), in about half the execution time. The key is still
-- "customerId" alone, so the index serves the checks and cascades of the foreign key as
-- before. It is larger (the columns of the row again), and an address write updates it, which
-- reference data can afford. The Prisma schema cannot say INCLUDE: prisma/schema.prisma keeps
-- @@index([customerId]) under the same name.
-- DropIndex
DROP INDEX "Address_customerId_idx";

-- CreateIndex
CREATE INDEX "Address_customerId_idx" ON "Address"("customerId") INCLUDE ("id", "addressType", "street", "city", "postalCode", "country", "isDefault");
