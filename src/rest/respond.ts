import type { Request, Response } from 'express';
import { etagOf } from '../domain/common/etag';
import { stringifyJson } from '../http/json';
import { saysOData } from '../http/problem';

/** JSON with exact decimals (src/http/json.ts). */
export function sendJson(res: Response, status: number, body: unknown): void {
  res.status(status).type('application/json').send(stringifyJson(body));
}

/**
 * Whether a request wants OData's control information inside records (`@odata.etag`): an
 * OData client, which says so with OData-Version / OData-MaxVersion or names `odata.metadata`
 * (other than `none`) in Accept. Any other client gets each record with exactly its fields.
 */
function wantsControlInformation(req: Request): boolean {
  const metadata = /odata\.metadata=(\w+)/i.exec(req.get('accept') ?? '')?.[1]?.toLowerCase();
  if (metadata !== undefined) return metadata !== 'none';
  return saysOData((name) => req.get(name));
}

/**
 * A record as OData JSON shows an entity to an OData client: its ETag as `@odata.etag` first
 * (OData JSON 4.0, 3.1.1: control information a response with `odata.metadata=minimal`, the
 * default, must carry). Clients that hold records from a list (SAPUI5's v4 ODataModel) send it
 * back as `If-Match`; without it they write unconditionally. Other clients get the record as it is.
 */
export const withEtag = (req: Request, etag: string, record: object): object =>
  wantsControlInformation(req) ? { '@odata.etag': etag, ...record } : record;

/** A single record: 200/201 with its ETag (and Location for a 201); 204 sends only the ETag. */
export function sendRecord(req: Request, res: Response, record: { id: string }, status: 200 | 201 | 204 = 200): void {
  const etag = etagOf(record);
  res.setHeader('ETag', etag);
  // A record created by POST to its collection, or by PUT to its alternate key (`/customers/<key>`).
  const collection = res.locals.alternateKey === undefined ? req.path.replace(/\/$/, '') : '';
  if (status === 201) res.setHeader('Location', `${req.baseUrl}${collection}/${record.id}`);
  if (status === 204) res.status(204).end();
  else sendJson(res, status, withEtag(req, etag, record));
}
