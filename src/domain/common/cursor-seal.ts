import { invalidQuery } from '../../errors/catalogue';
import { seal, unseal } from './sealing';

// Page cursors leave the service sealed (./sealing.ts): a cursor holds the sort keys' values
// of a record, a surname when the page is sorted by one, so a client may neither read it nor
// make one. A cursor that does not open is INVALID_QUERY, the same for every forgery.

/** Longest sealed cursor accepted (the cursor inside is at most 4096 characters). */
const MAX_SEALED_LENGTH = 6000;

export const sealCursor = (cursor: string): string => seal(cursor);

/** The cursor a client sent, opened; INVALID_QUERY (option `after`) unless this service sealed it. */
export function openCursor(sealed: string): string {
  const opened = sealed.length <= MAX_SEALED_LENGTH && /^[A-Za-z0-9_-]+$/.test(sealed) ? unseal(sealed) : undefined;
  if (opened === undefined) throw invalidQuery('after', 'the cursor is not valid (not one this service made)');
  return opened;
}
