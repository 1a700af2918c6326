// Recognises the database's refusals, so that services can map a lost race (unique index,
// foreign key) to the catalogue's rule error instead of a 500. The two adapters report
// them differently: @prisma/adapter-pg as Prisma's known errors (P2002, P2003), the PGlite
// adapter as a DriverAdapterError carrying the PostgreSQL SQLSTATE in `cause.code`.

interface Cause {
  code?: unknown;
  originalCode?: unknown;
}
interface MaybeDbError {
  code?: unknown;
  cause?: Cause;
  meta?: { driverAdapterError?: { cause?: Cause } };
}

function prismaCode(e: unknown): string | undefined {
  const c = (e as MaybeDbError | null)?.code;
  return typeof c === 'string' ? c : undefined;
}

function sqlState(e: unknown): string | undefined {
  const err = e as MaybeDbError | null;
  const cause = err?.cause ?? err?.meta?.driverAdapterError?.cause;
  const c = cause?.originalCode ?? cause?.code;
  return typeof c === 'string' ? c : undefined;
}

/** A unique index refused the write. */
export const isUniqueViolation = (e: unknown): boolean => prismaCode(e) === 'P2002' || sqlState(e) === '23505';
/** A foreign key refused the write, or the delete of a row still referenced (RESTRICT: 23001). */
export const isForeignKeyViolation = (e: unknown): boolean =>
  prismaCode(e) === 'P2003' || sqlState(e) === '23503' || sqlState(e) === '23001';
/** A CHECK constraint refused the write. */
export const isCheckViolation = (e: unknown): boolean => sqlState(e) === '23514' || /check constraint/i.test(String((e as Error)?.message));
/** The record to update or delete was not there (P2025). */
export const isRecordNotFound = (e: unknown): boolean => prismaCode(e) === 'P2025';
