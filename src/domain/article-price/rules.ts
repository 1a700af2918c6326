// What already took effect stays as invoices saw it: a price (and a tax code's rate, type
// and start) from its validFrom on. The API neither changes nor deletes it, and does not
// write a start in the past (that would change what earlier quotes and invoices saw); the
// import, which loads the history of the system of record, may.

/** Whether something valid from `validFrom` has taken effect at `now`. */
export const hasTakenEffect = (validFrom: Date, now: Date): boolean => validFrom.getTime() <= now.getTime();
