// Recognises the database's refusals as Prisma reports them, so that services can map a
// lost race (unique index, foreign key) to the catalogue's rule error instead of a 500.

function prismaCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e && typeof (e as { code: unknown }).code === 'string'
    ? (e as { code: string }).code
    : undefined;
}

/** A unique index refused the write (P2002). */
export const isUniqueViolation = (e: unknown): boolean => prismaCode(e) === 'P2002';
/** A foreign key refused the write or the delete (P2003). */
export const isForeignKeyViolation = (e: unknown): boolean => prismaCode(e) === 'P2003';
/** The record to update or delete was not there (P2025). */
export const isRecordNotFound = (e: unknown): boolean => prismaCode(e) === 'P2025';
