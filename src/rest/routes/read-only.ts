import { Router, type Request, type Response } from 'express';
import { requireScope, SCOPES, type Scope } from '../../auth/principal';
import type { Services } from '../../domain/services';
import { sendODataCount, sendODataList, sendODataRecord, type Listable, type Retrievable } from '../odata/list';
import type { EntitySetModel } from '../odata/model';
import { sendJson } from '../respond';
import { maintainedWrites, refuseOtherMethods } from './maintain';
import { MAINTAINED, READ_ONLY } from '../writable';

/** What a collection needs for its GET routes. */
export interface Collection<T extends { id: string }> extends Listable<T>, Retrievable<T> {}

/** Where a collection's routes differ: the scope they require, and its own list (the change log's feed). */
export interface CollectionRouteOptions {
  /** Default billing.read. */
  readonly scope?: Scope;
  /** Default the OData list. */
  readonly list?: (req: Request, res: Response) => Promise<void>;
}

/**
 * GET collection (OData), GET `/$count` and GET one: all of a read-only resource, the start
 * of the others. Keys in parentheses (`/payment-sources('…')`) reach `/:id` through the
 * router's OData path rewrite.
 */
export function readOnlyRoutes<T extends { id: string }>(
  service: Collection<T>,
  set: EntitySetModel,
  o: CollectionRouteOptions = {},
): Router {
  const scope = o.scope ?? SCOPES.read;
  const list = o.list ?? ((req: Request, res: Response) => sendODataList(req, res, service, set));
  const r = Router();
  r.get('/', async (req, res) => {
    requireScope(res.locals.principal, scope);
    await list(req, res);
  });
  r.get('/\\$count', async (req, res) => {
    requireScope(res.locals.principal, scope);
    await sendODataCount(req, res, service, set);
  });
  r.get('/:id', async (req, res) => {
    requireScope(res.locals.principal, scope);
    await sendODataRecord(req, res, service, set, req.params.id);
  });
  return r;
}

/** GET /article-prices?articleId=: a bare array, newest validFrom first; and the prices' writes (billing.maintain). */
export function articlePriceRoutes(s: Services): Router {
  const r = Router();
  r.get('/', async (req, res) => {
    requireScope(res.locals.principal, SCOPES.read);
    sendJson(res, 200, await s.articles.pricesOf(req.query.articleId));
  });
  const writer = s.writers.ArticlePrice;
  if (writer) maintainedWrites(writer)(r);
  refuseOtherMethods(r, writer ? MAINTAINED : READ_ONLY, { count: false, itemRead: false });
  return r;
}
