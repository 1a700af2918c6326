import { Router } from 'express';
import { requireScope, SCOPES } from '../../auth/principal';
import { paymentSourceFields } from '../../domain/payment-source/fields';
import type { Services } from '../../domain/services';
import { sendODataList } from '../odata-list';
import { sendRecord } from '../respond';

export function paymentSourceRoutes(s: Services): Router {
  const r = Router();
  r.get('/', async (req, res) => {
    requireScope(res.locals.principal, SCOPES.read);
    await sendODataList(req, res, s.paymentSources, paymentSourceFields);
  });
  r.get('/:id', async (req, res) => {
    requireScope(res.locals.principal, SCOPES.read);
    sendRecord(req, res, await s.paymentSources.get(req.params.id));
  });
  r.post('/', async (req, res) => {
    const who = requireScope(res.locals.principal, SCOPES.write);
    sendRecord(req, res, await s.paymentSources.create(req.body, who), 201);
  });
  r.put('/:id', async (req, res) => {
    const who = requireScope(res.locals.principal, SCOPES.write);
    sendRecord(req, res, await s.paymentSources.replace(req.params.id, req.body, who, { ifMatch: req.get('if-match') }));
  });
  r.delete('/:id', async (req, res) => {
    requireScope(res.locals.principal, SCOPES.write);
    await s.paymentSources.delete(req.params.id, { ifMatch: req.get('if-match') });
    res.status(204).end();
  });
  return r;
}
