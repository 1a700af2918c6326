import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { invalidQuery } from '../../errors/catalogue';

// The server's key for what leaves the service but must not be read or forged by a client:
// ETags are a keyed hash (a plain hash of a record would let a caller without billing.pii
// test a guessed e-mail offline against a customer's ETag), and page cursors are sealed
// (AES-256-GCM: unreadable, and a cursor the service did not make does not open). Every
// instance must share it: main.ts sets it from SEAL_KEY or the HS256 secret. Until then (tests
// that build the app without main.ts) it is random per process, which is all one process needs.

// KeyObjects, made once: an HMAC keyed by a Buffer imports the key again at every call, which
// cost four times the hash itself, and a list page takes one ETag per record.
interface Keys {
  readonly etag: KeyObject;
  readonly cursor: KeyObject;
  readonly nonce: KeyObject;
}

const subkey = (secret: Buffer, name: string): KeyObject =>
  createSecretKey(Buffer.from(hkdfSync('sha256', secret, 'billing-reference-data', name, 32)));

const derive = (secret: Buffer): Keys => ({
  etag: subkey(secret, 'etag'),
  cursor: subkey(secret, 'cursor'),
  nonce: subkey(secret, 'cursor-nonce'),
});

let keys = derive(randomBytes(32));

/** Keys ETags and cursors with this secret (its UTF-8 bytes); called once at start. */
export function useSealingKey(secret: string): void {
  keys = derive(Buffer.from(secret, 'utf8'));
}

/** A keyed digest of a text (HMAC-SHA-256, base64url). */
export const keyedDigest = (text: string): string => createHmac('sha256', keys.etag).update(text).digest('base64url');

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A text sealed: encrypted and authenticated, base64url. The nonce is a keyed hash of the
 * text (a synthetic IV), so one text always seals alike (a record's cursor is the same in
 * every answer) and two texts never share a nonce.
 */
function seal(text: string): string {
  const iv = createHmac('sha256', keys.nonce).update(text).digest().subarray(0, IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.cursor, iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The text a sealed token holds, or undefined when it is not one this service sealed. */
function unseal(token: string): string | undefined {
  const raw = Buffer.from(token, 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keys.cursor, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** Longest sealed cursor accepted (the cursor inside is at most 4096 characters). */
const MAX_SEALED_LENGTH = 6000;

/** A page cursor as it leaves the service: sealed (it holds sort-key values, a surname when sorted by one). */
export const sealCursor = (cursor: string): string => seal(cursor);

/** A cursor a client sent, opened; INVALID_QUERY (option `after`), the same for every forgery, unless this service sealed it. */
export function openCursor(sealed: string): string {
  const opened = sealed.length <= MAX_SEALED_LENGTH && /^[A-Za-z0-9_-]+$/.test(sealed) ? unseal(sealed) : undefined;
  if (opened === undefined) throw invalidQuery('after', 'the cursor is not valid (not one this service made)');
  return opened;
}
