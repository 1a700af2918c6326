// Recognises the database's refusals, so that services can map a lost race (unique index,
// foreign key) to the catalogue's rule error instead of a 500. The two adapters report
// them differently: @prisma/adapter-pg as Prisma's known errors (P2002, P2003), the PGlite
// adapter as a DriverAdapterError carrying the PostgreSQL SQLSTATE in `cause.code`.

import { AppError, serviceUnavailable } from '../errors/catalogue';
import { messageOf, propOf, stringProp } from '../lib/unknown';

/** Prisma's error code (P2002, ...), or node-postgres' and Node's (`ECONNREFUSED`, a SQLSTATE). */
const prismaCode = (e: unknown): string | undefined => stringProp(e, 'code');

/** The driver's error under Prisma's: the PGlite adapter's `cause`, or Prisma's `meta.driverAdapterError.cause`. */
const causeOf = (e: unknown): unknown => propOf(e, 'cause') ?? propOf(propOf(propOf(e, 'meta'), 'driverAdapterError'), 'cause');

function sqlState(e: unknown): string | undefined {
  const cause = causeOf(e);
  return stringProp(cause, 'originalCode') ?? stringProp(cause, 'code');
}

/** A unique index refused the write. */
export const isUniqueViolation = (e: unknown): boolean => prismaCode(e) === 'P2002' || sqlState(e) === '23505';
/** A foreign key refused the write, or the delete of a row still referenced (RESTRICT: 23001). */
export const isForeignKeyViolation = (e: unknown): boolean =>
  prismaCode(e) === 'P2003' || sqlState(e) === '23503' || sqlState(e) === '23001';
/** A CHECK constraint refused the write. */
export const isCheckViolation = (e: unknown): boolean => sqlState(e) === '23514' || /check constraint/i.test(messageOf(e));
/** An exclusion constraint refused the write (overlapping tax-code periods). */
export const isExclusionViolation = (e: unknown): boolean => sqlState(e) === '23P01' || /exclusion constraint/i.test(messageOf(e));
/**
 * PostgreSQL ended the transaction to break a deadlock (40P01) or a serialization failure
 * (40001); Prisma reports both as P2034 ("a write conflict or a deadlock. Please retry").
 * Retrying the transaction is the remedy.
 */
const WRITE_CONFLICT_STATES = new Set(['40P01', '40001']);
export const isWriteConflict = (e: unknown): boolean => prismaCode(e) === 'P2034' || WRITE_CONFLICT_STATES.has(sqlState(e) ?? '');
/** The record to update or delete was not there (P2025). */
export const isRecordNotFound = (e: unknown): boolean => prismaCode(e) === 'P2025';

// The database is down, stalled or timing out: what a client may retry (503), as opposed to
// a fault of ours (500). Reported by Prisma (P1001 cannot reach, P1002/P1008 timed out,
// P1017 connection closed, P2024 no pool connection in time, P2028 a transaction could not
// start in time: every pool connection busy under a burst of writes), by the driver adapters (kinds
// below), by PostgreSQL (SQLSTATE class 08 connection exception, class 57 operator
// intervention: statement timeout 57014, shutdown 57P01-57P03; 53300 too many connections;
// 55P03 lock timeout), or by node-postgres itself, whose own errors carry only a message. A
// write conflict that a write path did not retry (P2034, 40P01, 40001) is one too.
const UNAVAILABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028', 'P2034']);
const UNAVAILABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);
const UNAVAILABLE_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|Query read timeout|Client has encountered a connection error|Connection ended unexpectedly|the database system is (starting up|shutting down|in recovery mode)/i;

export function isDatabaseUnavailable(e: unknown): boolean {
  for (let err: unknown = e, depth = 0; err && depth < 5; err = propOf(err, 'cause'), depth++) {
    const code = prismaCode(err);
    if (code && (UNAVAILABLE_PRISMA_CODES.has(code) || UNAVAILABLE_NODE_CODES.has(code))) return true;
    const kind = stringProp(causeOf(err), 'kind');
    if (kind && UNAVAILABLE_KINDS.has(kind)) return true;
    const state = sqlState(err) ?? (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined);
    if (
      state &&
      (state.startsWith('08') || state.startsWith('57') || state === '53300' || state === '55P03' || WRITE_CONFLICT_STATES.has(state))
    )
      return true;
    const message = stringProp(err, 'message');
    if (message && UNAVAILABLE_MESSAGES.test(message)) return true;
  }
  return false;
}

/** PostgreSQL cancelled the statement after the statement timeout (57014). */
export const isStatementTimeout = (e: unknown): boolean => sqlState(e) === '57014' || prismaCode(e) === '57014';

/**
 * The catalogue's answer to a database failure, or undefined when it is not one. A rule the
 * database holds as the backstop of the writes' own checks (a CHECK, a constraint trigger at
 * commit) that only a race gets to is the client's 400, never a 500.
 */
export const databaseFailure = (e: unknown): AppError | undefined => {
  if (isDatabaseUnavailable(e)) return serviceUnavailable();
  if (isCheckViolation(e))
    return new AppError('VALIDATION_FAILED', 'The write breaks a rule of the database (a concurrent write); read again and retry');
  return undefined;
};

// Start-up failures an operator must fix rather than wait out: TLS that does not verify,
// a CA file that cannot be read, a pooler that refuses the pool's startup parameters.
// Node's TLS layer names a certificate fault in `code` (OpenSSL's verify codes, or
// ERR_TLS_CERT_ALTNAME_INVALID for a host name the certificate does not name).
const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$)/;

function where(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}`;
  } catch {
    return 'the database server';
  }
}

/**
 * An error whose message says what went wrong connecting to `url` and what to check, for a
 * failure that retrying cannot mend; undefined for any other failure. Never repeats the URL
 * (it may hold a password), only its host and port.
 */
export function connectFailure(e: unknown, url: string): Error | undefined {
  for (let err: unknown = e, depth = 0; err && depth < 5; err = propOf(err, 'cause'), depth++) {
    const [code, message, syscall, path] = [propOf(err, 'code'), propOf(err, 'message'), propOf(err, 'syscall'), propOf(err, 'path')];
    if (typeof code === 'string' && TLS_CODES.test(code))
      return new Error(
        `TLS to PostgreSQL at ${where(url)} failed: the server's certificate does not verify (${code}: ${String(message)}). ` +
          'Check the CA file (sslrootcert in the URL, or PGSSLROOTCERT) and that the URL names a host the certificate is for.',
      );
    if (typeof message === 'string' && /does not support SSL/i.test(message))
      return new Error(`TLS to PostgreSQL at ${where(url)} failed: ${message} (the URL asks for sslmode with TLS)`);
    if (syscall === 'open' && typeof path === 'string')
      return new Error(
        `TLS to PostgreSQL at ${where(url)}: cannot read the file ${path} named by sslrootcert, sslcert, sslkey or PGSSLROOTCERT (${String(code)})`,
      );
    if (typeof message === 'string' && /unsupported startup parameter/i.test(message))
      return new Error(
        `PostgreSQL at ${where(url)} refused a startup parameter (${message}): a transaction-mode pooler such as PgBouncer? ` +
          'Set DB_POOLER=transaction and DATABASE_DIRECT_URL (README, "Scaling out").',
      );
  }
  return undefined;
}
