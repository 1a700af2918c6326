// The one error catalogue of the service (docs/service.md "Errors"). Every door maps an
// AppError to its wire form from here: REST as RFC 9457 problem+json, GraphQL as
// `extensions.code`. Nothing else decides a status code or a title.

export const ERRORS = {
  VALIDATION_FAILED: { status: 400, title: 'The request is not valid' },
  INVALID_QUERY: { status: 400, title: 'The query options are not valid' },
  UNAUTHENTICATED: { status: 401, title: 'Authentication is required' },
  FORBIDDEN: { status: 403, title: 'The token lacks the required scope' },
  NOT_FOUND: { status: 404, title: 'No such record' },
  DUPLICATE_CODE: { status: 409, title: 'The code is already used by another record' },
  DUPLICATE_KEY: { status: 409, title: 'Another record has the same key (debtor number, price start)' },
  DEFAULT_ALREADY_SET: { status: 409, title: 'Another record is already the default' },
  HAS_PAYMENTS: { status: 409, title: 'The payment source has payments' },
  IN_USE: { status: 409, title: 'Other records still refer to the record' },
  ALREADY_EFFECTIVE: { status: 409, title: 'What already took effect is not changed' },
  PERIOD_OVERLAP: { status: 409, title: 'The validity period overlaps another period of the same tax code' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'The path does not take this method' },
  PRECONDITION_FAILED: { status: 412, title: 'The record has changed since it was read' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'The request body is too large' },
  ROLLED_BACK: { status: 424, title: 'The write succeeded but was not kept: another write of its unit failed' },
  FAILED_DEPENDENCY: { status: 424, title: 'Not run: a request it depends on failed' },
  INVALID_BATCH: { status: 400, title: 'The batch request is not valid' },
  BATCH_TOO_LARGE: { status: 400, title: 'The batch has too many operations' },
  ACCOUNT_NOT_USABLE: { status: 422, title: 'The account cannot be used here' },
  PAYMENT_SOURCE_INACTIVE: { status: 422, title: 'The payment source is inactive' },
  NO_DEFAULT_PAYMENT_SOURCE: { status: 422, title: 'There is no default payment source' },
  NO_PRICE: { status: 422, title: 'The article has no price on the reference date' },
  NO_TAX_CODE: { status: 422, title: 'No tax code applies on the reference date' },
  QUERY_TOO_COMPLEX: { status: 400, title: 'The query is too deep or too costly' },
  WRONG_TRANSPORT: { status: 400, title: 'This kind of operation is served over the other transport' },
  PERSISTED_DOCUMENT_NOT_FOUND: { status: 400, title: 'No trusted document has this id' },
  DOCUMENT_NOT_TRUSTED: { status: 400, title: 'Only the trusted documents are accepted' },
  RATE_LIMITED: { status: 429, title: 'Too many requests' },
  SERVICE_UNAVAILABLE: { status: 503, title: 'The service is temporarily unavailable' },
  INTERNAL: { status: 500, title: 'Internal error' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** Whether a code is one of the catalogue's. */
export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERRORS, code);

/** One offending value: `field` is its path (`code`, `lines[0].quantity`). */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly errors: readonly FieldError[] | undefined;
  /** Seconds after which a retry may succeed; the doors send it as Retry-After. */
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, detail?: string, errors?: readonly FieldError[], retryAfter?: number) {
    const { status, title } = ERRORS[code];
    super(detail ?? title);
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.title = title;
    this.detail = detail ?? title;
    this.errors = errors && errors.length > 0 ? errors : undefined;
    this.retryAfter = retryAfter;
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

export const notFound = (what: string, id: string): AppError => new AppError('NOT_FOUND', `No ${what} with id ${id}`);

export const validationFailed = (errors: readonly FieldError[], detail?: string): AppError =>
  new AppError('VALIDATION_FAILED', detail ?? errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('; '), errors);

/** Seconds a client should wait before retrying while the database is unavailable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The database is down, stalled or did not answer in time: retryable, with Retry-After. */
export const serviceUnavailable = (): AppError =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    `The database is unavailable or did not answer in time; retry after ${UNAVAILABLE_RETRY_AFTER_SECONDS} s`,
    undefined,
    UNAVAILABLE_RETRY_AFTER_SECONDS,
  );

/** A fault in a query option; `position` is the 0-based character offset of the fault. */
export const invalidQuery = (option: string, message: string, position?: number): AppError =>
  new AppError('INVALID_QUERY', position === undefined ? `${option}: ${message}` : `${option}: ${message} at position ${position}`);
