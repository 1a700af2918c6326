-- Addresses by postal code (the order of mailings): a page deep in that order reads its ids
-- from this index alone (src/db/read/compile.ts DEEP_OFFSET) instead of sorting every address,
-- and a first page walks it with no sort at all.
-- CreateIndex
CREATE INDEX "Address_postalCode_id_idx" ON "Address"("postalCode", "id");

-- The addresses of one city by postal code: the first rows of the city in page order. Without
-- it the index above tempts PostgreSQL to walk every postal code below the city until the
-- page is full (Stuttgart, 70000 on: 57,731 buffers against a sort of the city after a
-- sequential scan, 2,717).
-- CreateIndex
CREATE INDEX "Address_city_postalCode_id_idx" ON "Address"("city", "postalCode", "id");
