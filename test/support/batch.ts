import { parseMultipart } from '@mjackson/multipart-parser';

// Builds OData $batch bodies as clients send them, and reads the multipart answers back.

export interface Part {
  readonly method: string;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly contentId?: string;
}

function httpPart(p: Part): string {
  const head = Object.entries({ ...(p.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...p.headers })
    .map(([n, v]) => `${n}: ${v}\r\n`)
    .join('');
  const body = p.body === undefined ? '' : typeof p.body === 'string' ? p.body : JSON.stringify(p.body);
  const id = p.contentId === undefined ? '' : `Content-ID: ${p.contentId}\r\n`;
  return `Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n${id}\r\n${p.method} ${p.url} HTTP/1.1\r\n${head}\r\n${body}`;
}

/** A multipart/mixed batch: a Part alone is a request, an array of Parts a change set. */
export function multipartBatch(
  items: ReadonlyArray<Part | readonly Part[]>,
  boundary = 'batch_test',
): { contentType: string; body: string } {
  let n = 0;
  const parts = items.map((item) => {
    if (!Array.isArray(item)) return httpPart(item as Part);
    const cs = `changeset_test_${++n}`;
    const inner = (item as readonly Part[]).map((p) => `--${cs}\r\n${httpPart(p)}\r\n`).join('') + `--${cs}--`;
    return `Content-Type: multipart/mixed; boundary=${cs}\r\n\r\n${inner}`;
  });
  return {
    contentType: `multipart/mixed; boundary=${boundary}`,
    body: parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('') + `--${boundary}--\r\n`,
  };
}

export interface AnsweredPart {
  readonly contentId: string | undefined;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** A kept change set's answers. */
  readonly changeSet?: AnsweredPart[];
}

const boundaryOf = (type: string): string => /boundary=([^;\s]+)/.exec(type)?.[1] ?? '';

function readHttp(content: string, contentId: string | undefined): AnsweredPart {
  const end = content.indexOf('\r\n\r\n');
  const [line = '', ...lines] = content.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
  return { contentId, status: Number(line.split(' ')[1]), headers, body: content.slice(end + 4) };
}

/** The parts of a multipart batch answer. */
export function readMultipart(contentType: string, body: string): AnsweredPart[] {
  return [...parseMultipart(Buffer.from(body), { boundary: boundaryOf(contentType) })].map((p) => {
    const type = p.headers.get('content-type') ?? '';
    if (type.startsWith('multipart/mixed')) {
      return { contentId: undefined, status: 0, headers: {}, body: '', changeSet: readMultipart(type, p.text) };
    }
    return readHttp(p.text, p.headers.get('content-id') ?? undefined);
  });
}
