import { MultipartParseError, parseMultipart } from '@mjackson/multipart-parser';
import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import { AppError } from '../../errors/catalogue';

// An OData $batch request read into a plan before anything runs: the multipart/mixed format
// of OData 4.0 (change sets as nested multipart/mixed parts, as SAPUI5's v4 ODataModel sends
// it) and the JSON format of OData 4.01 (`requests` with `atomicityGroup` and `dependsOn`).
// Anything malformed, or over a limit, refuses the whole batch (400) with nothing executed.

/** The limits of one $batch, checked before any of its requests runs (docs/batch.md). */
export const BATCH_LIMITS = {
  /** Requests in one batch, change sets' included. */
  operations: 100,
  /** The batch's body, in bytes (each request inside keeps the 100 KiB of a direct one). */
  bodyBytes: 1024 * 1024,
  /** Each part's MIME headers, in bytes. */
  headerBytes: 8 * 1024,
} as const;

export const BATCH_BODY_LIMIT = '1mb';

/** One request of a batch, as it will be sent through the app. */
export interface BatchRequest {
  /** Content-ID (multipart) or `id` (JSON); `$<id>` in a later URL names what it wrote. */
  readonly id: string | undefined;
  readonly method: BatchMethod;
  /** As written: relative to the service root, an absolute path, or starting with `$<id>`. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | undefined;
  /** JSON: the requests or groups that must have succeeded first. */
  readonly dependsOn: readonly string[];
}

/** A request alone, or an atomic group (a change set, an atomicity group): all its writes or none. */
export type BatchItem =
  | { readonly kind: 'request'; readonly request: BatchRequest }
  | { readonly kind: 'group'; readonly id: string; readonly requests: readonly BatchRequest[] };

export interface BatchPlan {
  readonly format: 'multipart' | 'json';
  readonly items: readonly BatchItem[];
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** The methods a batch's requests may use. */
export type BatchMethod = (typeof METHODS)[number];
const METHOD_SET: ReadonlySet<string> = new Set(METHODS);
const isMethod = (m: string): m is BatchMethod => METHOD_SET.has(m);
const WRITES: ReadonlySet<BatchMethod> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const invalidBatch = (message: string): AppError => new AppError('INVALID_BATCH', `The batch is not valid: ${message}`);

/** Reads a $batch body by its Content-Type; throws INVALID_BATCH or BATCH_TOO_LARGE. */
export function parseBatch(contentType: string | undefined, body: Buffer): BatchPlan {
  const type = (contentType ?? '').toLowerCase();
  let plan: BatchPlan;
  if (/^multipart\/mixed\b/.test(type)) plan = { format: 'multipart', items: parseMultipartBatch(contentType ?? '', body) };
  else if (/^application\/json\b/.test(type)) plan = { format: 'json', items: parseJsonBatch(body) };
  else throw invalidBatch('its Content-Type must be multipart/mixed with a boundary (OData 4.0) or application/json (OData 4.01)');
  checkPlan(plan);
  return plan;
}

// --- OData 4.0 multipart/mixed -------------------------------------------------------------

function boundaryOf(contentType: string): string {
  const m = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary) throw invalidBatch('a multipart/mixed Content-Type without a boundary');
  return boundary;
}

function partsOf(contentType: string, body: Uint8Array): Array<{ headers: Headers; content: Buffer }> {
  const boundary = boundaryOf(contentType);
  try {
    const parts = [...parseMultipart(body, { boundary, maxHeaderSize: BATCH_LIMITS.headerBytes, maxFileSize: BATCH_LIMITS.bodyBytes })];
    return parts.map((p) => ({ headers: new Headers([...p.headers]), content: Buffer.from(p.bytes) }));
  } catch (e) {
    if (e instanceof MultipartParseError) throw invalidBatch(`the multipart body does not parse (${e.message})`);
    throw e;
  }
}

function parseMultipartBatch(contentType: string, body: Buffer): BatchItem[] {
  const items: BatchItem[] = [];
  let changeSets = 0;
  for (const part of partsOf(contentType, body)) {
    const type = part.headers.get('content-type') ?? '';
    if (/^multipart\/mixed\b/i.test(type)) {
      const requests = partsOf(type, part.content).map((inner) => {
        if (/^multipart\//i.test(inner.headers.get('content-type') ?? '')) throw invalidBatch('a change set inside a change set');
        const request = httpPart(inner.headers, inner.content);
        if (!WRITES.has(request.method)) throw invalidBatch(`a change set holds only writes, not ${request.method} ${request.url}`);
        return request;
      });
      if (requests.length === 0) throw invalidBatch('an empty change set');
      items.push({ kind: 'group', id: `changeset${++changeSets}`, requests });
    } else items.push({ kind: 'request', request: httpPart(part.headers, part.content) });
  }
  return items;
}

/**
 * One `application/http` part: a request line, header lines, an empty line, the body.
 * Hand-written: the message is the simplest form of HTTP/1.1 (no chunking, no continuation
 * lines: OData's batch format sends each body whole), and Node's own parser of such messages
 * is not public; the libraries that offer one are unmaintained.
 */
function httpPart(mime: Headers, content: Buffer): BatchRequest {
  const type = mime.get('content-type') ?? '';
  if (!/^application\/http\b/i.test(type)) throw invalidBatch(`a part of type ${type || '(none)'}; each request is application/http`);
  const encoding = mime.get('content-transfer-encoding');
  if (encoding !== null && encoding.toLowerCase() !== 'binary') throw invalidBatch(`Content-Transfer-Encoding ${encoding}; only binary`);
  const headEnd = findHeadEnd(content);
  const head = content.subarray(0, headEnd.at).toString('latin1');
  const body = content.subarray(headEnd.at + headEnd.length);
  const [requestLine = '', ...lines] = head.split(/\r?\n/);
  const m = /^([A-Za-z]+) (\S+) HTTP\/1\.[01]$/.exec(requestLine.trim());
  if (!m) throw invalidBatch(`the request line "${requestLine.slice(0, 100)}" is not METHOD URL HTTP/1.1`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) throw invalidBatch(`the header line "${line.slice(0, 100)}" has no name`);
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const method = (m[1] ?? '').toUpperCase();
  if (!isMethod(method)) throw invalidBatch(`the method ${method}; a batch takes GET, POST, PUT, PATCH and DELETE`);
  // Content-ID belongs in the part's MIME headers; some clients put it among the request's.
  const id = mime.get('content-id') ?? headers['content-id'];
  delete headers['content-id'];
  return { id: id ?? undefined, method, url: m[2] ?? '', headers, body: body.length > 0 ? body : undefined, dependsOn: [] };
}

function findHeadEnd(content: Buffer): { at: number; length: number } {
  const crlf = content.indexOf('\r\n\r\n');
  const lf = content.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { at: crlf, length: 4 };
  if (lf >= 0) return { at: lf, length: 2 };
  return { at: content.length, length: 0 };
}

// --- OData 4.01 JSON ----------------------------------------------------------------------

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJsonBatch(body: Buffer): BatchItem[] {
  let doc: unknown;
  try {
    // Numbers kept as their text: a request's body goes on exactly as the client wrote it.
    doc = parseLossless(body.toString('utf8'));
  } catch {
    throw invalidBatch('the body is not valid JSON');
  }
  if (!isObject(doc) || !Array.isArray(doc.requests)) throw invalidBatch('a JSON batch is an object with a "requests" array');
  const items: BatchItem[] = [];
  const closedGroups = new Set<string>();
  let open: { id: string; requests: BatchRequest[] } | undefined;
  doc.requests.forEach((raw: unknown, i: number) => {
    if (!isObject(raw)) throw invalidBatch(`requests[${i}] is not an object`);
    const request = jsonRequest(raw, i);
    const group = raw.atomicityGroup;
    if (group !== undefined && typeof group !== 'string') throw invalidBatch(`requests[${i}].atomicityGroup is not a string`);
    if (open && open.id !== group) {
      closedGroups.add(open.id);
      open = undefined;
    }
    if (group === undefined) items.push({ kind: 'request', request });
    else if (open) open.requests.push(request);
    else {
      // The requests of a group are adjacent (OData 4.01 JSON Format, 19.1).
      if (closedGroups.has(group)) throw invalidBatch(`the requests of atomicity group ${group} are not adjacent`);
      open = { id: group, requests: [request] };
      items.push({ kind: 'group', id: group, requests: open.requests });
    }
  });
  return items;
}

function jsonRequest(raw: Record<string, unknown>, i: number): BatchRequest {
  const { id, method, url, headers, body, dependsOn } = raw;
  const allowed = new Set(['id', 'method', 'url', 'headers', 'body', 'atomicityGroup', 'dependsOn']);
  const unknown = Object.keys(raw).find((k) => !allowed.has(k));
  if (unknown !== undefined) throw invalidBatch(`requests[${i}].${unknown} is not a member of a batch request`);
  if (typeof id !== 'string' || id === '') throw invalidBatch(`requests[${i}].id must be a non-empty string`);
  const upper = typeof method === 'string' ? method.toUpperCase() : '';
  if (!isMethod(upper)) throw invalidBatch(`requests[${i}].method must be one of get, post, put, patch, delete`);
  if (typeof url !== 'string' || url === '') throw invalidBatch(`requests[${i}].url must be a non-empty string`);
  const h: Record<string, string> = {};
  if (headers !== undefined) {
    if (!isObject(headers)) throw invalidBatch(`requests[${i}].headers must be an object`);
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value !== 'string') throw invalidBatch(`requests[${i}].headers.${name} must be a string`);
      h[name.toLowerCase()] = value;
    }
  }
  if (dependsOn !== undefined && (!Array.isArray(dependsOn) || !dependsOn.every((d): d is string => typeof d === 'string')))
    throw invalidBatch(`requests[${i}].dependsOn must be an array of request or group ids`);
  let payload: Buffer | undefined;
  if (body !== undefined) {
    // A JSON body goes on as JSON; a string body as its text (OData: any other media type).
    if (typeof body === 'string' && !/json/i.test(h['content-type'] ?? '')) payload = Buffer.from(body, 'utf8');
    else {
      payload = Buffer.from(stringifyLossless(body) ?? 'null', 'utf8');
      h['content-type'] ??= 'application/json';
    }
  }
  return { id, method: upper, url, headers: h, body: payload, dependsOn: dependsOn ?? [] };
}

// --- checks of both formats ----------------------------------------------------------------

function checkPlan(plan: BatchPlan): void {
  const requests = plan.items.flatMap((item) => (item.kind === 'group' ? item.requests : [item.request]));
  if (requests.length > BATCH_LIMITS.operations)
    throw new AppError('BATCH_TOO_LARGE', `The batch has ${requests.length} requests; at most ${BATCH_LIMITS.operations} are taken`);
  if (requests.length === 0) throw invalidBatch('it holds no request');
  const seen = new Set<string>();
  for (const item of plan.items) {
    const inGroup = new Set<string>();
    for (const r of item.kind === 'group' ? item.requests : [item.request]) {
      if (plan.format === 'json') checkDependencies(r, seen, inGroup, item);
      checkReference(r, plan.format === 'json' ? new Set(r.dependsOn) : undefined, seen, inGroup);
      if (r.id !== undefined) {
        if (seen.has(r.id) || inGroup.has(r.id)) throw invalidBatch(`the request id ${r.id} is used twice`);
        (item.kind === 'group' ? inGroup : seen).add(r.id);
      }
      if (/^(?:[a-z]+:\/\/[^/]*)?\/?(?:.*\/)?\$batch(?:[/?]|$)/i.test(r.url)) throw invalidBatch('a batch inside a batch');
      // `..` would lead out of the API once the URL is resolved (to /graphql, /healthz).
      if ((r.url.split('?')[0] ?? '').split(/[\\/]/).some((seg) => /^(?:\.|%2e){1,2}$/i.test(seg)))
        throw invalidBatch(`${r.url} has a . or .. segment`);
    }
    for (const id of inGroup) seen.add(id);
    if (item.kind === 'group') {
      if (seen.has(item.id)) throw invalidBatch(`the id ${item.id} names a request and a group`);
      seen.add(item.id);
    }
  }
}

/** JSON: `dependsOn` names requests or groups before it (OData 4.01 JSON Format, 19.1). */
function checkDependencies(r: BatchRequest, seen: Set<string>, inGroup: Set<string>, item: BatchItem): void {
  for (const d of r.dependsOn) {
    if (item.kind === 'group' && d === item.id) throw invalidBatch(`request ${r.id ?? ''} depends on its own group`);
    if (!seen.has(d) && !inGroup.has(d)) throw invalidBatch(`request ${r.id ?? ''} depends on ${d}, which does not come before it`);
  }
}

/** `$<id>` at the start of a URL names a request before it (in JSON also among its dependsOn). */
function checkReference(r: BatchRequest, dependsOn: Set<string> | undefined, seen: Set<string>, inGroup: Set<string>): void {
  const ref = referenceOf(r.url);
  if (ref === undefined) return;
  if (!seen.has(ref) && !inGroup.has(ref)) throw invalidBatch(`the URL ${r.url} refers to $${ref}, no request before it`);
  if (dependsOn && !dependsOn.has(ref)) throw invalidBatch(`the URL ${r.url} refers to $${ref}, which its dependsOn does not name`);
}

/** The id a URL refers to with its first segment (`$1/addresses`: `1`); system resources ($metadata, ...) are none. */
export function referenceOf(url: string): string | undefined {
  const m = /^\$([^/?]+)/.exec(url);
  if (!m) return undefined;
  const name = m[1] ?? '';
  return ['batch', 'metadata', 'crossjoin', 'all', 'entity', 'root', 'id', 'count'].includes(name) ? undefined : name;
}
