import type { Services } from '../../domain/services';
import { ENTITY_SETS } from '../odata/model';
import { sendRecord } from '../respond';
import { writer } from './payment-sources';
import { readOnlyRoutes } from './read-only';

/** Payments: read, and record new ones (never changed or deleted through the API). */
export function paymentRoutes(s: Services) {
  const r = readOnlyRoutes(s.payments, ENTITY_SETS.payments);
  r.post('/', async (req, res) => {
    const who = writer(res);
    sendRecord(req, res, await s.payments.create(req.body, who), 201);
  });
  return r;
}
