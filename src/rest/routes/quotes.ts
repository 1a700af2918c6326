import { Router } from 'express';
import { requireScope, SCOPES } from '../../auth/principal';
import type { Services } from '../../domain/services';
import { sendJson } from '../respond';

/** POST /quotes: prices, taxes and totals of invoice lines (writes nothing, so billing.read suffices). */
export function quoteRoutes(s: Services): Router {
  const r = Router();
  r.post('/', async (req, res) => {
    requireScope(res.locals.principal, SCOPES.read);
    sendJson(res, 200, await s.pricing.quote(req.body));
  });
  return r;
}
