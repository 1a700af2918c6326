// The one error catalogue of the service (docs/service.md "Errors"). Every door maps an
// AppError to its wire form from here: REST as RFC 9457 problem+json, GraphQL as
// `extensions.code`. Nothing else decides a status code or a title.

export const ERRORS = {
  VALIDATION_FAILED: {
    status: 400,
    title: 'The request is not valid',
    when: 'body, argument, path or query value invalid (bad UUID, missing or unknown property, wrong type, unknown enum value, too long, a value the database cannot store such as a NUL character or year 0), a body that is not JSON or does not decompress; `errors[].field` names each (`lines[0].quantity`)',
  },
  INVALID_QUERY: {
    status: 400,
    title: 'The query options are not valid',
    when: 'an OData option or GraphQL filter that does not parse or names an unknown field (with the position)',
  },
  UNAUTHENTICATED: { status: 401, title: 'Authentication is required', when: 'no, bad or expired token (with `WWW-Authenticate: Bearer`)' },
  FORBIDDEN: { status: 403, title: 'The token lacks the required scope', when: 'the token lacks the scope' },
  NOT_FOUND: { status: 404, title: 'No such record', when: 'unknown id or path' },
  DUPLICATE_CODE: {
    status: 409,
    title: 'The code is already used by another record',
    when: 'a payment source code already used (compared ignoring case); codes of accounts, articles and academic terms',
  },
  DUPLICATE_KEY: {
    status: 409,
    title: 'Another record has the same key (debtor number, price start)',
    when: 'a debtor number or a price start (`articleId`, `validFrom`) already used',
  },
  DEFAULT_ALREADY_SET: {
    status: 409,
    title: 'Another record is already the default',
    when: 'another payment source is the default; a second default address of a customer',
  },
  HAS_PAYMENTS: { status: 409, title: 'The payment source has payments', when: 'a delete of a payment source that has payments' },
  IN_USE: {
    status: 409,
    title: 'Other records still refer to the record',
    when: "a delete of a record others still refer to, or a change of an account's type or `isActive` that records naming it need (they are named)",
  },
  ALREADY_EFFECTIVE: {
    status: 409,
    title: 'What already took effect is not changed',
    when: 'a change or delete of what took effect, or a start in the past, through the API',
  },
  PERIOD_OVERLAP: {
    status: 409,
    title: 'The validity period overlaps another period of the same tax code',
    when: 'a tax-code period overlapping another of the same code (named)',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    title: 'The path does not take this method',
    when: 'a method a known path does not take (with `Allow`)',
  },
  PRECONDITION_FAILED: {
    status: 412,
    title: 'The record has changed since it was read',
    when: '`If-Match` does not name the current ETag',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    title: 'The request body is too large',
    when: "a body over 100 KiB (a `$batch`'s over 1 MiB, a bulk upsert's over 8 MiB or 5,000 records)",
  },
  ROLLED_BACK: {
    status: 424,
    title: 'The write succeeded but was not kept: another write of its unit failed',
    when: 'a write that succeeded but was not kept: another write of its unit of work failed (GraphQL: a mutation field of the same operation; JSON `$batch`: a request of the same atomicity group)',
  },
  FAILED_DEPENDENCY: {
    status: 424,
    title: 'Not run: a request it depends on failed',
    when: 'a `$batch` request not run: a request of its atomicity group, or one it `dependsOn`, failed',
  },
  INVALID_BATCH: {
    status: 400,
    title: 'The batch request is not valid',
    when: 'a `$batch` that does not parse or breaks the batch rules (nothing of it runs)',
  },
  BATCH_TOO_LARGE: {
    status: 400,
    title: 'The batch has too many operations',
    when: 'a `$batch` of more than 100 requests (nothing of it runs)',
  },
  ACCOUNT_NOT_USABLE: {
    status: 422,
    title: 'The account cannot be used here',
    when: 'an account a record names that does not fit its use (unknown, inactive, or of the wrong type)',
  },
  RECORDS_REFUSED: {
    status: 422,
    title: 'Records of the bulk upsert were refused; nothing was written',
    when: "a bulk upsert (all or nothing) of which one or more records were refused: `errors[].field` names each record and field (`value[3].email`), its message starts with the record's own code",
  },
  PAYMENT_SOURCE_INACTIVE: { status: 422, title: 'The payment source is inactive', when: 'a new payment names an inactive payment source' },
  NO_DEFAULT_PAYMENT_SOURCE: {
    status: 422,
    title: 'There is no default payment source',
    when: 'a new payment names no source and there is no default',
  },
  NO_PRICE: {
    status: 422,
    title: 'The article has no price on the reference date',
    when: "a quote line's article has no price on the reference date",
  },
  NO_TAX_CODE: { status: 422, title: 'No tax code applies on the reference date', when: 'no active tax code is valid on the billing date' },
  QUERY_TOO_COMPLEX: {
    status: 400,
    title: 'The query is too deep or too costly',
    when: 'a GraphQL document over the token limit (refused while parsing), variables nested too deep, a query over the depth, breadth or cost limit; a batch of more than 10 operations (refused whole), or whose operations together are over the cost limit',
  },
  WRONG_TRANSPORT: {
    status: 400,
    title: 'This kind of operation is served over the other transport',
    when: 'a GraphQL subscription sent over HTTP, or a query or mutation sent over WebSocket',
  },
  PERSISTED_DOCUMENT_NOT_FOUND: {
    status: 400,
    title: 'No trusted document has this id',
    when: 'a GraphQL `documentId` the trusted-documents manifest does not hold',
  },
  DOCUMENT_NOT_TRUSTED: {
    status: 400,
    title: 'Only the trusted documents are accepted',
    when: '`GRAPHQL_DOCUMENTS=trusted`: an operation that names no document of the manifest',
  },
  PERSISTED_QUERY_HASH_MISMATCH: {
    status: 400,
    title: 'The persisted-query hash does not match the query',
    when: 'a GraphQL operation whose persisted-query hash (`extensions.persistedQuery.sha256Hash`) is not the SHA-256 of the query text sent with it',
  },
  RATE_LIMITED: { status: 429, title: 'Too many requests', when: 'too many requests from one client (with `Retry-After`)' },
  SERVICE_UNAVAILABLE: {
    status: 503,
    title: 'The service is temporarily unavailable',
    when: 'the database is unreachable, stalled or too slow (with `Retry-After`; GraphQL: HTTP 503 too)',
  },
  INTERNAL: {
    status: 500,
    title: 'Internal error',
    when: 'a fault of the service itself: logged with the request id; no stack trace or SQL in the body',
  },
} as const satisfies Record<string, { status: number; title: string; when: string }>;

/**
 * The codes Apollo Server's own layer answers on /graphql for faults of the GraphQL request
 * itself, kept as Apollo names them (clients such as Apollo Client's persisted-query link act
 * on them). GraphQL only; never in REST.
 */
export const GRAPHQL_PROTOCOL_ERRORS = {
  GRAPHQL_PARSE_FAILED: { status: 400, when: 'a document that does not parse' },
  GRAPHQL_VALIDATION_FAILED: {
    status: 400,
    when: 'a document that does not fit the schema (an unknown field, a `where` naming an unknown field, a missing argument)',
  },
  BAD_REQUEST: {
    status: 400,
    when: 'a request without a query or persisted-query hash, an empty batch, a body that is not a GraphQL request; 405 for a mutation sent by GET or a method other than GET and POST',
  },
  OPERATION_RESOLUTION_FAILURE: {
    status: 400,
    when: 'a document whose operation to run is unclear (`operationName` missing with several operations, or naming none of them)',
  },
  PERSISTED_QUERY_NOT_FOUND: {
    status: 200,
    when: 'a persisted-query hash the service does not hold yet: the client sends the query text with it (automatic persisted queries)',
  },
} as const satisfies Record<string, { status: number; when: string }>;

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
