import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { InnerResponse, ItemOutcome, Outcome } from './run';

// The answer of a $batch in the format of its request. Hand-written: a multipart body is a
// few lines of text around each response, and the JSON batch response is written around the
// responses' JSON text as it came out of the app (exact decimals stay exact).

/** Headers of a response inside a batch: what describes it, not the outer connection's. */
const KEPT_HEADERS = ['content-type', 'location', 'etag', 'odata-version', 'odata-entityid', 'allow', 'retry-after', 'preference-applied'];

function kept(r: InnerResponse): Array<[string, string]> {
  return KEPT_HEADERS.flatMap((name): Array<[string, string]> => {
    const value = r.headers[name];
    return value === undefined ? [] : [[name, value]];
  });
}

const CANONICAL: Readonly<Record<string, string>> = { etag: 'ETag', 'odata-version': 'OData-Version', 'odata-entityid': 'OData-EntityId' };
const headerName = (name: string): string =>
  CANONICAL[name] ?? name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

/** One response as an application/http part (OData 4.0, 11.7.6). */
function httpPart(o: Outcome): string {
  const id = o.request.id === undefined ? '' : `Content-ID: ${o.request.id}\r\n`;
  const r = o.response;
  const head = kept(r)
    .map(([name, value]) => `${headerName(name)}: ${value}\r\n`)
    .join('');
  return (
    `Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n${id}\r\n` +
    `HTTP/1.1 ${r.status} ${STATUS_CODES[r.status] ?? ''}\r\n${head}\r\n${r.body.toString('utf8')}`
  );
}

function multipart(boundary: string, parts: readonly string[]): string {
  return parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('') + `--${boundary}--\r\n`;
}

/**
 * multipart/mixed: a part per request, a nested multipart/mixed per change set that was
 * kept, and for a change set that failed the one response of the request that failed
 * (OData 4.0, 11.7.4: a failed change set is answered with a single response).
 */
export function multipartAnswer(items: readonly ItemOutcome[]): { contentType: string; body: string } {
  const boundary = `batchresponse_${randomUUID()}`;
  const parts = items.map((item) => {
    if (item.kind === 'request') return httpPart(item.outcome);
    if (item.failed !== undefined) return httpPart(item.outcomes[item.failed] ?? item.outcomes[0]!);
    const changeset = `changesetresponse_${randomUUID()}`;
    return `Content-Type: multipart/mixed; boundary=${changeset}\r\n\r\n${multipart(changeset, item.outcomes.map(httpPart))}`;
  });
  return { contentType: `multipart/mixed; boundary=${boundary}`, body: multipart(boundary, parts) };
}

const isJson = (type: string | undefined): boolean => /^application\/(?:[\w.+-]+\+)?json\b/i.test(type ?? '');

function jsonResponse(o: Outcome, group: string | undefined): string {
  const r = o.response;
  const fields = [
    `"id":${JSON.stringify(o.request.id ?? '')}`,
    `"status":${r.status}`,
    ...(group === undefined ? [] : [`"atomicityGroup":${JSON.stringify(group)}`]),
    `"headers":${JSON.stringify(Object.fromEntries(kept(r)))}`,
  ];
  const text = r.body.toString('utf8');
  // The app's JSON as written (its decimals exact); any other body as a string.
  if (text.length > 0) fields.push(`"body":${isJson(r.headers['content-type']) ? text : JSON.stringify(text)}`);
  return `{${fields.join(',')}}`;
}

/** OData 4.01 JSON: a response per request in order, each a group's with its `atomicityGroup`. */
export function jsonAnswer(items: readonly ItemOutcome[]): string {
  const responses = items.flatMap((item) =>
    item.kind === 'request' ? [jsonResponse(item.outcome, undefined)] : item.outcomes.map((o) => jsonResponse(o, item.id)),
  );
  return `{"responses":[${responses.join(',')}]}`;
}
