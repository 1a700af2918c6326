import type { Router } from 'express';
import type { Services } from '../../domain/services';
import { sendRecord } from '../respond';
import { writer } from './payment-sources';

/** Payments: read, and record new ones (never changed or deleted through the API): the write, on the collection's read-only routes. */
export function paymentWrites(r: Router, s: Services): void {
  r.post('/', async (req, res) => {
    const who = writer(res);
    sendRecord(req, res, await s.payments.create(req.body, who), 201);
  });
}
