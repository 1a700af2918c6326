import { AppError } from '../../errors/catalogue';
import { keyedDigest } from './sealing';

// A strong ETag from the record's content: any change of any field changes it. Keyed with the
// server's key (./sealing.ts), so that it cannot be checked against a guessed value offline.
export function etagOf(record: object): string {
  return `"${keyedDigest(JSON.stringify(record, (_k, v: unknown) => (v instanceof Date ? v.toISOString() : v))).slice(0, 27)}"`;
}

/** `If-Match` is optional; when given it must name the current version (or be `*`). */
export function checkIfMatch(ifMatch: string | undefined, record: object): void {
  if (ifMatch === undefined) return;
  const wanted = ifMatch.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (wanted.includes('*') || wanted.includes(etagOf(record))) return;
  throw new AppError('PRECONDITION_FAILED', 'If-Match does not match the current ETag of the record');
}
