import { Router } from 'express';
import { requireScope, SCOPES } from '../../auth/principal';
import type { ListQuery, Page } from '../../domain/common/list';
import type { Services } from '../../domain/services';
import type { FieldCatalog } from '../../query/fields';
import { sendODataList } from '../odata-list';
import { sendJson, sendRecord } from '../respond';

/** What a collection needs for its two GET routes. */
export interface Collection<T extends { id: string }> {
  list(q: ListQuery): Promise<Page<T>>;
  get(id: string): Promise<T>;
}

/** GET collection (OData) and GET one: all of a read-only resource, the start of the others. */
export function readOnlyRoutes<T extends { id: string }>(service: Collection<T> & { fields: FieldCatalog }): Router;
export function readOnlyRoutes<T extends { id: string }>(service: Collection<T>, fields: FieldCatalog): Router;
export function readOnlyRoutes<T extends { id: string }>(service: Collection<T> & { fields?: FieldCatalog }, fields?: FieldCatalog): Router {
  const catalog = fields ?? service.fields!;
  const r = Router();
  r.get('/', async (req, res) => {
    requireScope(res.locals.principal, SCOPES.read);
    await sendODataList(req, res, service, catalog);
  });
  r.get('/:id', async (req, res) => {
    requireScope(res.locals.principal, SCOPES.read);
    sendRecord(req, res, await service.get(req.params.id));
  });
  return r;
}

/** GET /article-prices?articleId=: a bare array, newest validFrom first. */
export function articlePriceRoutes(s: Services): Router {
  const r = Router();
  r.get('/', async (req, res) => {
    requireScope(res.locals.principal, SCOPES.read);
    sendJson(res, 200, await s.articlePrices.forArticle(req.query.articleId));
  });
  return r;
}
