import type { Response } from 'express';
import { AppError, isAppError } from '../errors/catalogue';
import { describeError, type Logger } from './logger';
import { propOf, stringProp } from '../lib/unknown';

/**
 * Recognises failures of the infrastructure (the database down or timing out) and answers
 * them from the catalogue; injected, because the doors do not know the database.
 */
export type ErrorClassifier = (e: unknown) => AppError | undefined;

/** Maps what a handler threw to the catalogue; anything unknown is INTERNAL and logged. */
export function toAppError(e: unknown, log?: Logger, classify?: ErrorClassifier): AppError {
  if (isAppError(e)) return e;
  const known = classify?.(e);
  if (known) {
    log?.warn({ code: known.code }, known.code === 'SERVICE_UNAVAILABLE' ? 'database unavailable' : 'refused by a rule of the database');
    return known;
  }
  const err = { type: stringProp(e, 'type'), status: propOf(e, 'status'), expose: propOf(e, 'expose') };
  // body-parser's own refusals.
  if (err.type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', 'The request body is larger than 100 KiB');
  if (err.type === 'entity.parse.failed')
    return new AppError('VALIDATION_FAILED', 'The request body is not valid JSON', [{ field: '', message: 'not valid JSON' }]);
  if (err.type === 'encoding.unsupported' || err.type === 'charset.unsupported')
    return new AppError('VALIDATION_FAILED', 'The request body encoding is not supported');
  // Any other refusal of the body reader (a body that does not decompress, a stream cut
  // short): the client's fault, said without the decoder's own words.
  if (err.expose === true && typeof err.status === 'number' && err.status >= 400 && err.status < 500)
    return new AppError('VALIDATION_FAILED', 'The request body could not be read (it does not decompress, or it ended early)', [
      { field: '', message: 'unreadable body' },
    ]);
  log?.error({ error: describeError(e) }, 'unhandled error');
  return new AppError('INTERNAL', 'An unexpected error occurred; it has been logged');
}

export type ErrorStyle = 'problem' | 'odata';

/** Whether a request carries OData-Version or OData-MaxVersion: an OData client (@odata/client, SAPUI5) says so. */
export const saysOData = (header: (name: string) => string | undefined): boolean =>
  header('odata-version') !== undefined || header('odata-maxversion') !== undefined;

/**
 * Which error body a request gets: RFC 9457 problem+json when its Accept names that type
 * (or names nothing in particular); the OData JSON error (the same problem fields plus an
 * `error` member, as application/json) when Accept names application/json but not
 * problem+json, or when it carries OData-Version / OData-MaxVersion as OData clients do.
 */
export function errorStyle(header: (name: string) => string | undefined): ErrorStyle {
  const accept = (header('accept') ?? '').toLowerCase();
  if (accept.includes('application/problem+json')) return 'problem';
  if (saysOData(header)) return 'odata';
  return /application\/json/.test(accept) ? 'odata' : 'problem';
}

/** The body of an error answer and its media type (a $batch answers errors of requests it did not run, too). */
export function problemBody(e: AppError, instance?: string, style: ErrorStyle = 'problem'): { type: string; text: string } {
  const body: Record<string, unknown> = {
    type: `https://billing.example/problems/${e.code.toLowerCase().replace(/_/g, '-')}`,
    title: e.title,
    status: e.status,
    detail: e.detail,
    code: e.code,
  };
  if (instance) body.instance = instance;
  if (e.errors) body.errors = e.errors;
  if (style === 'odata') {
    const error: Record<string, unknown> = { code: e.code, message: e.detail };
    if (e.errors?.length === 1 && e.errors[0]?.field) error.target = e.errors[0].field;
    if (e.errors) error.details = e.errors.map((f) => ({ code: e.code, message: f.message, target: f.field }));
    return { type: 'application/json', text: JSON.stringify({ error, ...body }) };
  }
  return { type: 'application/problem+json', text: JSON.stringify(body) };
}

/**
 * RFC 6750's challenge on every 401, in both doors: the scheme, and `invalid_token` when a
 * token came and was refused (a request without credentials gets no error code, as 6750 says).
 */
export function setAuthChallenge(res: Response, e: AppError, authorization: string | undefined): void {
  if (e.status !== 401) return;
  res.setHeader('WWW-Authenticate', authorization ? 'Bearer realm="billing", error="invalid_token"' : 'Bearer realm="billing"');
}

/** RFC 9457 problem+json (or its OData JSON form); never a stack trace, SQL or driver message. */
export function sendProblem(res: Response, e: AppError, instance?: string, style: ErrorStyle = 'problem'): void {
  if (e.retryAfter !== undefined) res.setHeader('Retry-After', String(e.retryAfter));
  const { type, text } = problemBody(e, instance, style);
  res.status(e.status).type(type).send(text);
}
