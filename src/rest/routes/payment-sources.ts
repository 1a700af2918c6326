import type { Response, Router } from 'express';
import { SCOPES } from '../../auth/principal';
import type { Actor } from '../../domain/context';
import type { Services } from '../../domain/services';
import { sendRecord } from '../respond';
import { actorOf, sendUpdated } from './maintain';

/** The one resource with full create, read, update and delete: its writes, on the collection's read-only routes. */
export function paymentSourceWrites(r: Router, s: Services): void {
  r.post('/', async (req, res) => {
    const who = writer(res);
    sendRecord(req, res, await s.paymentSources.create(req.body, who), 201);
  });
  r.put('/:id', async (req, res) => {
    const who = writer(res);
    sendUpdated(req, res, await s.paymentSources.replace(req.params.id, req.body, who, { ifMatch: req.get('if-match') }));
  });
  // PATCH merges: the fields it names change, the others keep their value (OData clients' update).
  r.patch('/:id', async (req, res) => {
    const who = writer(res);
    sendUpdated(req, res, await s.paymentSources.patch(req.params.id, req.body, who, { ifMatch: req.get('if-match') }));
  });
  r.delete('/:id', async (req, res) => {
    const who = writer(res);
    await s.paymentSources.delete(req.params.id, who, { ifMatch: req.get('if-match') });
    res.status(204).end();
  });
}

/** The caller of a write (billing.write). */
export const writer = (res: Response): Actor => actorOf(res, SCOPES.write);
