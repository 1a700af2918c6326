-- Indexes that answer a page from the index alone (src/db/read/compile.ts).
-- A deep offset by debtor number: its ids come from an index-only scan of (debtorNumber, id),
-- never from the rows skipped (the unique index holds no id, so every row passed over was read).
-- CreateIndex
CREATE INDEX "Customer_debtorNumber_id_idx" ON "Customer"("debtorNumber", "id");

-- The customers of one surname by first name (a filtered, re-ordered page): the first rows of
-- the surname in page order, with no sort of every customer of that surname.
-- CreateIndex
CREATE INDEX "Customer_lastName_firstName_id_idx" ON "Customer"("lastName", "firstName", "id");
