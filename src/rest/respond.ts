import type { Request, Response } from 'express';
import { etagOf } from '../domain/common/etag';
import { stringifyJson } from '../http/json';

/** JSON with exact decimals (src/http/json.ts). */
export function sendJson(res: Response, status: number, body: unknown): void {
  res.status(status).type('application/json').send(stringifyJson(body));
}

/**
 * A record as OData JSON shows an entity: its ETag as `@odata.etag` first (OData JSON 4.0,
 * 3.1.1: control information a response with `odata.metadata=minimal`, the default, must
 * carry). Clients that hold records from a list (SAPUI5's v4 ODataModel) send it back as
 * `If-Match`; without it they write unconditionally.
 */
export const withEtag = (etag: string, record: object): Record<string, unknown> => ({ '@odata.etag': etag, ...record });

/** A single record: 200/201 with its ETag (and Location for a 201); 204 sends only the ETag. */
export function sendRecord(req: Request, res: Response, record: { id: string }, status: 200 | 201 | 204 = 200): void {
  const etag = etagOf(record);
  res.setHeader('ETag', etag);
  // A record created by POST to its collection, or by PUT to its alternate key (`/customers/<key>`).
  const collection = res.locals.alternateKey === undefined ? req.path.replace(/\/$/, '') : '';
  if (status === 201) res.setHeader('Location', `${req.baseUrl}${collection}/${record.id}`);
  if (status === 204) res.status(204).end();
  else sendJson(res, status, withEtag(etag, record));
}
