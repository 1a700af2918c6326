// Which document each operation of a request runs, decided from the request as it arrived,
// before Apollo parses anything (server.ts calls this once the body is read):
//
//  - A persisted-query hash (`extensions.persistedQuery.sha256Hash`) may carry the `sha256:`
//    prefix graphql-codegen's client preset gives its document ids (an app hands those to
//    Apollo Client's persisted-query link unmodified): the prefix is dropped here, so the
//    manifest, the APQ store and Apollo see the bare hex SHA-256 the APQ protocol names.
//  - A hash sent with a query text must be that text's SHA-256: otherwise the operation is
//    PERSISTED_QUERY_HASH_MISMATCH, a fault of the client (Apollo's own check would answer it
//    as an unknown error).
//  - `documentId` (the GraphQL-over-HTTP persisted-documents form, `sha256:<hex>` or a bare
//    id; what graphql-codegen's client preset names) runs that document of the manifest;
//    an id the manifest lacks is PERSISTED_DOCUMENT_NOT_FOUND.
//  - With only trusted documents allowed (GRAPHQL_DOCUMENTS=trusted), an operation must name
//    a manifest document, by `documentId` or by the APQ extension's hash; anything else, a
//    query text included, is DOCUMENT_NOT_TRUSTED. The manifest's text replaces whatever
//    text came along, and the APQ extension is dropped, so nothing is ever registered in the
//    APQ store in that mode.
//  - Otherwise the request goes on as sent: Apollo runs the APQ protocol, its store consults
//    the manifest first (./store.ts), and a query text is an ordinary operation.
//  - Subscriptions over WebSocket (../subscriptions.ts) settle their payload's document the
//    same way (`resolveDocument`), before it is parsed.
//  - A batch (a JSON array of operations) of more than LIMITS.batchOperations is refused
//    whole with QUERY_TOO_COMPLEX; otherwise each refused operation of a batch is answered
//    with its own error (`refusals`) and the others run (server.ts).

import { createHash } from 'node:crypto';
import { AppError } from '../../errors/catalogue';
import { LIMITS } from '../limits';
import { documentKey, type Manifest } from './manifest';

export interface DocumentPolicy {
  readonly manifest: Manifest | undefined;
  /** Run only documents of the manifest. */
  readonly trustedOnly: boolean;
}

/** The members of one operation this step reads or rewrites (an HTTP body's, a subscription's payload). */
export interface Wire {
  query?: unknown;
  documentId?: unknown;
  extensions?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The APQ extension's hash, when the operation carries one; a `sha256:` prefix is dropped from it in place. */
function apqHash(extensions: unknown): { readonly hash: string; readonly prefixed: boolean } | undefined {
  const pq = isObject(extensions) ? extensions.persistedQuery : undefined;
  if (!isObject(pq) || typeof pq.sha256Hash !== 'string') return undefined;
  const hash = documentKey(pq.sha256Hash);
  const prefixed = hash !== pq.sha256Hash;
  if (prefixed) pq.sha256Hash = hash;
  return { hash, prefixed };
}

const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The extensions without the APQ member (undefined when nothing else is left). */
function withoutApq(extensions: unknown): Record<string, unknown> | undefined {
  if (!isObject(extensions)) return undefined;
  const { persistedQuery: _dropped, ...rest } = extensions;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/**
 * Rewrites one operation in place to the document it runs (and its APQ hash to the bare hex);
 * an AppError when it may not run. Returns whether it changed.
 */
export function resolveDocument(op: Wire, policy: DocumentPolicy): AppError | boolean {
  const apq = apqHash(op.extensions);
  let document: string | undefined;
  if (op.documentId !== undefined) {
    if (typeof op.documentId !== 'string' || op.documentId === '')
      return new AppError('PERSISTED_DOCUMENT_NOT_FOUND', 'documentId must be a non-empty string');
    document = policy.manifest?.get(documentKey(op.documentId));
    if (document === undefined) return new AppError('PERSISTED_DOCUMENT_NOT_FOUND', 'No trusted document has this documentId');
  } else if (policy.trustedOnly) {
    document = apq === undefined ? undefined : policy.manifest?.get(apq.hash);
    if (document === undefined)
      return new AppError(
        'DOCUMENT_NOT_TRUSTED',
        'Only the operations of the trusted-documents manifest are accepted: name one by documentId or by its persisted-query hash',
      );
  } else {
    if (apq && typeof op.query === 'string' && sha256Hex(op.query) !== apq.hash)
      return new AppError(
        'PERSISTED_QUERY_HASH_MISMATCH',
        "The persisted-query hash (extensions.persistedQuery.sha256Hash) is not the SHA-256 of the query text sent with it; send the hex SHA-256 of the query's exact text",
      );
    return apq?.prefixed === true;
  }
  op.query = document;
  delete op.documentId;
  const rest = withoutApq(op.extensions);
  if (rest) op.extensions = rest;
  else delete op.extensions;
  return true;
}

const parseJson = (text: string | null): unknown => {
  if (text === null) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    // Left as it is for Apollo, which refuses malformed extensions itself.
    return text;
  }
};

/** How a request's documents were settled. */
export interface Admission {
  /** The whole request is refused. */
  readonly error?: AppError;
  /** A GET to go on with this URL (its query string rewritten). */
  readonly url?: string;
  /** A batch: the operations (by index) refused, each answered with its own error. */
  readonly refusals?: ReadonlyMap<number, AppError>;
}

/**
 * Settles the documents of a request: rewrites `body` (POST) or returns the new URL (GET)
 * so that Apollo sees a query text or an APQ hash it can look up; an AppError refuses it.
 */
export function admitDocuments(method: string, url: string, body: unknown, policy: DocumentPolicy): Admission {
  if (Array.isArray(body)) {
    if (body.length > LIMITS.batchOperations)
      return {
        error: new AppError('QUERY_TOO_COMPLEX', `The batch has ${body.length} operations; at most ${LIMITS.batchOperations} are allowed`),
      };
    const refusals = new Map<number, AppError>();
    body.forEach((op: unknown, i) => {
      const outcome = isObject(op) ? resolveDocument(op, policy) : false;
      if (outcome instanceof AppError) refusals.set(i, outcome);
    });
    return { refusals };
  }
  if (method !== 'GET') {
    const outcome = isObject(body) ? resolveDocument(body, policy) : false;
    return outcome instanceof AppError ? { error: outcome } : {};
  }
  // Most GETs carry a query text and nothing else to settle.
  if (!policy.trustedOnly && !url.includes('documentId=') && !url.includes('extensions=')) return {};
  const parsed = new URL(url, 'http://service.invalid');
  const params = parsed.searchParams;
  const documentId = params.get('documentId');
  const op: Wire = { query: params.get('query') ?? undefined, extensions: parseJson(params.get('extensions')) };
  if (documentId !== null) op.documentId = documentId;
  const outcome = resolveDocument(op, policy);
  if (outcome instanceof AppError) return { error: outcome };
  if (!outcome) return {};
  params.delete('documentId');
  if (typeof op.query === 'string') params.set('query', op.query);
  if (op.extensions === undefined) params.delete('extensions');
  else params.set('extensions', JSON.stringify(op.extensions));
  return { url: `${parsed.pathname}?${params.toString()}` };
}
