import { Router } from 'express';
import { requireScope, SCOPES } from '../../auth/principal';
import type { ReadService } from '../../domain/common/read-service';
import type { Services } from '../../domain/services';
import { sendODataList } from '../odata-list';
import { sendJson, sendRecord } from '../respond';

/** GET collection (OData) and GET one, for a read-only resource. */
export function readOnlyRoutes<T extends { id: string }>(service: ReadService<T>): Router {
  const r = Router();
  r.get('/', async (req, res) => {
    requireScope(res.locals.principal, SCOPES.read);
    await sendODataList(req, res, service, service.fields);
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
