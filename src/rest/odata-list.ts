import type { Request, Response } from 'express';
import { DEFAULT_PAGE_SIZE, type ListQuery, type Page } from '../domain/common/list';
import type { FieldCatalog } from '../query/fields';
import { parseODataOptions } from './odata/options';
import { sendJson } from './respond';

export interface Listable<T extends object> {
  list(q: ListQuery): Promise<Page<T>>;
}

/**
 * GET on a collection with OData options: `{ value, @odata.count?, @odata.nextLink? }`.
 * The server cuts pages at DEFAULT_PAGE_SIZE (when there is no $top, or $top is larger);
 * when it cut one and more matching records remain, the nextLink carries on from there
 * with $skip advanced and $top reduced by what was delivered.
 */
export async function sendODataList<T extends object>(req: Request, res: Response, service: Listable<T>, fields: FieldCatalog): Promise<void> {
  const o = parseODataOptions(req.query as Record<string, unknown>, fields);
  const limit = Math.min(o.top ?? DEFAULT_PAGE_SIZE, DEFAULT_PAGE_SIZE);
  const cut = o.top === undefined || o.top > DEFAULT_PAGE_SIZE;
  const page = await service.list({ filter: o.filter, orderBy: o.orderBy, limit, offset: o.skip, count: o.count });
  const body: Record<string, unknown> = {};
  if (o.count) body['@odata.count'] = page.totalCount;
  body.value = o.select ? page.items.map((item) => pick(item, o.select!)) : page.items;
  if (cut && page.hasMore) body['@odata.nextLink'] = nextLink(req, o.skip + limit, o.top === undefined ? undefined : o.top - limit);
  sendJson(res, 200, body);
}

function nextLink(req: Request, skip: number, top: number | undefined): string {
  const url = new URL(`${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`);
  url.searchParams.set('$skip', String(skip));
  if (top !== undefined) url.searchParams.set('$top', String(top));
  return url.toString();
}

/** $select: exactly the fields named, in that order. */
function pick(record: object, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f, Object.getOwnPropertyDescriptor(record, f)?.value]));
}
