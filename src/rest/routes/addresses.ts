import { Router } from 'express';
import type { Services } from '../../domain/services';
import { sendRecord } from '../respond';
import { maintainer, refuseMethods, sendUpdated } from './maintain';

/**
 * A customer's addresses at their own paths (mounted at the REST root): POST
 * /customers/{id}/addresses, PATCH and DELETE /customers/{id}/addresses/{addressId}. They
 * are written through the customer (billing.maintain); GET reads them inside the customer.
 */
export function addressRoutes(s: Services): Router {
  const r = Router();
  const base = '/customers/:id/addresses';
  r.post(base, async (req, res) => {
    const who = maintainer(res);
    const address = await s.customers.addAddress(req.params.id, req.body, who);
    res.setHeader('Location', `${req.baseUrl}/customers/${address.customerId}/addresses/${address.id}`);
    sendRecord(req, res, address, 201);
  });
  r.patch(`${base}/:addressId`, async (req, res) => {
    const who = maintainer(res);
    sendUpdated(
      req,
      res,
      await s.customers.changeAddress(req.params.id, req.params.addressId, req.body, who, { ifMatch: req.get('if-match') }),
    );
  });
  r.delete(`${base}/:addressId`, async (req, res) => {
    const who = maintainer(res);
    await s.customers.removeAddress(req.params.id, req.params.addressId, who, { ifMatch: req.get('if-match') });
    res.status(204).end();
  });
  refuseMethods(r, base, ['POST']);
  refuseMethods(r, `${base}/:addressId`, ['PATCH', 'DELETE']);
  return r;
}
