import { AppError } from '../../errors/catalogue';
import { keyedDigest } from './sealing';

// A strong ETag from the record's content: any change of any field changes it. Keyed with the
// server's key (./sealing.ts), so that it cannot be checked against a guessed value offline.
// JSON.stringify writes a Date as its toISOString() (Date's toJSON) and a decimal as its text,
// so no replacer is needed (one would cost a call per value of every record of a list page).
export function etagOf(record: object): string {
  return `"${keyedDigest(JSON.stringify(record)).slice(0, 27)}"`;
}

/** Whether an `If-Match` or `If-None-Match` list names this ETag, or is `*` (a `W/` prefix is ignored). */
export function etagListed(header: string, etag: string): boolean {
  const listed = header.split(',').map((t) => t.trim().replace(/^W\//, ''));
  return listed.includes('*') || listed.includes(etag);
}

/** `If-Match` is optional; when given it must name the current version (or be `*`). */
export function checkIfMatch(ifMatch: string | undefined, record: object): void {
  if (ifMatch === undefined) return;
  if (etagListed(ifMatch, etagOf(record))) return;
  throw new AppError('PRECONDITION_FAILED', 'If-Match does not match the current ETag of the record');
}
