import { requireScope, SCOPES } from '../../auth/principal';
import { paymentSourceFields } from '../../domain/payment-source/fields';
import type { Services } from '../../domain/services';
import { sendRecord } from '../respond';
import { readOnlyRoutes } from './read-only';

/** The one resource with full create, read, update and delete. */
export function paymentSourceRoutes(s: Services) {
  const r = readOnlyRoutes(s.paymentSources, paymentSourceFields);
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
