import { createHash } from 'node:crypto';
import { AppError } from '../../errors/catalogue';

// A strong ETag from the record's content: any change of any field changes it.
export function etagOf(record: object): string {
  const h = createHash('sha256');
  h.update(JSON.stringify(record, (_k, v: unknown) => (v instanceof Date ? v.toISOString() : v)));
  return `"${h.digest('base64url').slice(0, 27)}"`;
}

/** `If-Match` is optional; when given it must name the current version (or be `*`). */
export function checkIfMatch(ifMatch: string | undefined, record: object): void {
  if (ifMatch === undefined) return;
  const wanted = ifMatch.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (wanted.includes('*') || wanted.includes(etagOf(record))) return;
  throw new AppError('PRECONDITION_FAILED', 'If-Match does not match the current ETag of the record');
}
