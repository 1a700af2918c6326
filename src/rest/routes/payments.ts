import type { Router } from 'express';
import { requireScope, SCOPES } from '../../auth/principal';
import type { Services } from '../../domain/services';
import { sendRecord } from '../respond';

/** Payments: read, and record new ones (never changed or deleted through the API): the write, on the collection's read-only routes. */
export function paymentWrites(r: Router, s: Services): void {
  r.post('/', async (req, res) => {
    const who = requireScope(res.locals.principal, SCOPES.write);
    sendRecord(req, res, await s.payments.create(req.body, who), 201);
  });
}
