import type { Request, Response } from 'express';
import type { ListQuery, Page } from '../domain/common/list';
import type { FieldCatalog } from '../query/fields';
import { parseODataOptions } from '../query/odata/options';
import { sendJson } from './respond';

/** Server page size when the client gives no $top; $top itself may ask for up to MAX_TOP. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_TOP = 1000;

export interface Listable<T> {
  list(q: ListQuery): Promise<Page<T>>;
}

/**
 * GET on a collection with OData options: `{ value, @odata.count?, @odata.nextLink? }`.
 * The server cuts a page only when the client did not choose one ($top absent): then a
 * nextLink carries on from where the page ended.
 */
export async function sendODataList<T>(req: Request, res: Response, service: Listable<T>, fields: FieldCatalog): Promise<void> {
  const o = parseODataOptions(req.query as Record<string, unknown>, fields, { maxTop: MAX_TOP, defaultTop: DEFAULT_PAGE_SIZE });
  const limit = o.top ?? DEFAULT_PAGE_SIZE;
  const page = await service.list({ filter: o.filter, orderBy: o.orderBy, limit, offset: o.skip, count: o.count, select: o.select });
  const body: Record<string, unknown> = {};
  if (o.count) body['@odata.count'] = page.totalCount;
  body.value = page.items;
  if (o.top === undefined && page.hasMore) body['@odata.nextLink'] = nextLink(req, o.skip + limit);
  sendJson(res, 200, body);
}

function nextLink(req: Request, skip: number): string {
  const url = new URL(`${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`);
  url.searchParams.set('$skip', String(skip));
  return url.toString();
}
