import type { Request, Response } from 'express';
import type { ListQuery, Page } from '../domain/common/list';
import type { FieldCatalog } from '../query/fields';
import { parseODataOptions } from './odata/options';
import { sendJson } from './respond';

/** The server's page size; $top may ask for up to MAX_TOP, delivered in pages of this size. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_TOP = 1000;

export interface Listable<T> {
  list(q: ListQuery): Promise<Page<T>>;
}

/**
 * GET on a collection with OData options: `{ value, @odata.count?, @odata.nextLink? }`.
 * The server cuts pages at DEFAULT_PAGE_SIZE (when there is no $top, or $top is larger);
 * when it cut one and more matching records remain, the nextLink carries on from there
 * with $skip advanced and $top reduced by what was delivered.
 */
export async function sendODataList<T>(req: Request, res: Response, service: Listable<T>, fields: FieldCatalog): Promise<void> {
  const o = parseODataOptions(req.query as Record<string, unknown>, fields, { maxTop: MAX_TOP, defaultTop: DEFAULT_PAGE_SIZE });
  const limit = Math.min(o.top ?? DEFAULT_PAGE_SIZE, DEFAULT_PAGE_SIZE);
  const cut = o.top === undefined || o.top > DEFAULT_PAGE_SIZE;
  const page = await service.list({ filter: o.filter, orderBy: o.orderBy, limit, offset: o.skip, count: o.count, select: o.select });
  const body: Record<string, unknown> = {};
  if (o.count) body['@odata.count'] = page.totalCount;
  body.value = page.items;
  if (cut && page.hasMore) body['@odata.nextLink'] = nextLink(req, o.skip + limit, o.top === undefined ? undefined : o.top - limit);
  sendJson(res, 200, body);
}

function nextLink(req: Request, skip: number, top: number | undefined): string {
  const url = new URL(`${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`);
  url.searchParams.set('$skip', String(skip));
  if (top !== undefined) url.searchParams.set('$top', String(top));
  return url.toString();
}
