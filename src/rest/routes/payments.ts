import { Router } from 'express';
import { requireScope, SCOPES } from '../../auth/principal';
import { paymentFields } from '../../domain/payment/fields';
import type { Services } from '../../domain/services';
import { sendODataList } from '../odata-list';
import { sendRecord } from '../respond';

export function paymentRoutes(s: Services): Router {
  const r = Router();
  r.get('/', async (req, res) => {
    requireScope(res.locals.principal, SCOPES.read);
    await sendODataList(req, res, s.payments, paymentFields);
  });
  r.get('/:id', async (req, res) => {
    requireScope(res.locals.principal, SCOPES.read);
    sendRecord(req, res, await s.payments.get(req.params.id));
  });
  r.post('/', async (req, res) => {
    const who = requireScope(res.locals.principal, SCOPES.write);
    sendRecord(req, res, await s.payments.create(req.body, who), 201);
  });
  return r;
}
