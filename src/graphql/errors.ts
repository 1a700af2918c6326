// GraphQL errors from the one catalogue (src/errors/catalogue.ts): every error leaves with
// extensions.code set to a catalogue code, or to one of Apollo's protocol codes for faults
// of the GraphQL document itself (GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED,
// BAD_REQUEST, ...). Never a stack trace, SQL or driver message.
//
//  - An AppError thrown by a service or resolver: its code, its detail as the message, and
//    for validation faults `field` (the first offending field) and `errors` [{field, message}].
//  - Scalar input faults (ScalarInputError: a bad UUID, DateTime or Decimal) are
//    VALIDATION_FAILED, in a literal or in a variable. Errors marked with a catalogue code
//    before Apollo wrapped them (limits: QUERY_TOO_COMPLEX) keep that code: Apollo rewrites
//    the code of every validation-rule error to GRAPHQL_VALIDATION_FAILED.
//  - Variable values that do not fit their type: VALIDATION_FAILED with every fault's place
//    (./variables.ts checks them before graphql-js coerces them; a fault graphql-js still
//    reports, Apollo's BAD_USER_INPUT, is VALIDATION_FAILED too).
//  - Anything else: INTERNAL with a fixed message (the original may hold SQL); server.ts logs
//    it with the request id (logInternalErrors).
//  - Under NODE_ENV=production no message suggests a field, type or value name: graphql-js's
//    "Did you mean ...?" is cut from every message, variable coercion errors included
//    (Apollo's hideSchemaDetailsFromClientErrors covers validation errors only).

import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError, GRAPHQL_PROTOCOL_ERRORS, isAppError, isErrorCode, type ErrorCode } from '../errors/catalogue';
import { describeError, type Logger } from '../http/logger';
import type { ErrorClassifier } from '../http/problem';
import { hasSuggestion, isTokenLimitMessage, SUGGESTION } from './apollo-internals';
import { ScalarInputError } from './scalars';

/** Apollo's codes for faults of the request itself, kept as they are (listed in the catalogue). */
const PROTOCOL_CODES = new Set<string>(Object.keys(GRAPHQL_PROTOCOL_ERRORS));

const INTERNAL_MESSAGE = 'An unexpected error occurred; it has been logged';

/** An AppError as a GraphQL error that also sets the HTTP status (context and operation checks). */
export function httpGraphQLError(e: AppError): GraphQLError {
  return new GraphQLError(e.detail, {
    originalError: e,
    extensions: { ...appErrorExtensions(e), http: { status: e.status } },
  });
}

export function appErrorExtensions(e: AppError): Record<string, unknown> {
  const extensions: Record<string, unknown> = { code: e.code };
  if (e.errors) {
    extensions.field = e.errors[0]?.field;
    extensions.errors = e.errors.map((x) => ({ field: x.field, message: x.message }));
  }
  return extensions;
}

function catalogueCodeOf(error: unknown): ErrorCode | undefined {
  const code = error instanceof GraphQLError ? error.extensions?.code : undefined;
  return typeof code === 'string' && isErrorCode(code) ? code : undefined;
}

export interface FormatErrorOptions {
  /** Cut name suggestions ("Did you mean ...?") from every message. */
  readonly production?: boolean;
  /** Recognises database failures as SERVICE_UNAVAILABLE (the HTTP status is set in server.ts). */
  readonly classifyError?: ErrorClassifier | undefined;
}

/** Apollo's formatError: see the comment at the top of this file. */
export function createFormatError(o: FormatErrorOptions = {}) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const out = format(formatted, error, o.classifyError);
    if (o.production !== true) return out;
    const json = JSON.stringify(out);
    return hasSuggestion(json) ? (JSON.parse(json.replace(SUGGESTION, '')) as GraphQLFormattedError) : out;
  };
}

/** Whether Apollo's error is a fault of the service (INTERNAL once formatted). */
export const isInternalError = (error: GraphQLError, classify?: ErrorClassifier): boolean =>
  format(error.toJSON(), error, classify).extensions?.code === 'INTERNAL';

/** Logs the service's own faults among a request's errors, with the request's logger (and so its id). */
export function logInternalErrors(errors: readonly GraphQLError[], log: Logger, classify?: ErrorClassifier): void {
  for (const error of errors) {
    if (!isInternalError(error, classify)) continue;
    const original = unwrapResolverError(error);
    log.error({ error: describeError(original instanceof Error ? original : error) }, 'internal error in a GraphQL operation');
  }
}

function format(formatted: GraphQLFormattedError, error: unknown, classify?: ErrorClassifier): GraphQLFormattedError {
  const base = {
    message: formatted.message,
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
  };
  const original = unwrapResolverError(error);
  // Thrown by a resolver (unwrapped above), or wrapped by us for the context or the scope check.
  const app = isAppError(original)
    ? original
    : error instanceof GraphQLError && isAppError(error.originalError)
      ? error.originalError
      : undefined;
  if (app) {
    return { ...base, message: app.detail, extensions: appErrorExtensions(app) };
  }
  const code = formatted.extensions?.code;
  // The error Apollo wrapped (validation errors keep the rule's error as originalError).
  const inner = error instanceof GraphQLError ? error.originalError : undefined;
  const marked = inner instanceof ScalarInputError ? inner.code : (catalogueCodeOf(inner) ?? catalogueCodeOf(error));
  if (marked && marked !== 'INTERNAL') return { ...base, extensions: { code: marked } };
  // Variables are checked with their places before graphql-js coerces them (./variables.ts);
  // a coercion fault graphql-js still finds is a bad input all the same.
  if (code === 'BAD_USER_INPUT') return { ...base, extensions: { code: 'VALIDATION_FAILED' } };
  // The parser stopped at the token limit (limits.ts): a limit, not a syntax fault.
  if (code === 'GRAPHQL_PARSE_FAILED' && isTokenLimitMessage(formatted.message))
    return { ...base, extensions: { code: 'QUERY_TOO_COMPLEX' } };
  if (typeof code === 'string' && PROTOCOL_CODES.has(code)) return { ...base, extensions: { code } };
  // A database outage or time-out: retryable, not a fault of ours.
  const known = classify?.(original);
  if (known) return { ...base, message: known.detail, extensions: appErrorExtensions(known) };
  // Anything else is a fault of ours. The message may hold SQL or driver text (never in
  // the body); logInternalErrors puts it in the log.
  return { ...base, message: INTERNAL_MESSAGE, extensions: { code: 'INTERNAL' } };
}
