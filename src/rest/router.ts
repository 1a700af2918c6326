import { Router } from 'express';
import type { Services } from '../domain/services';
import { AppError } from '../errors/catalogue';
import { articlePriceRoutes, readOnlyRoutes } from './routes/read-only';
import { paymentRoutes } from './routes/payments';
import { paymentSourceRoutes } from './routes/payment-sources';
import { quoteRoutes } from './routes/quotes';

/** The REST door under /api/v1 (authenticated by the app before it gets here). */
export function restRouter(s: Services): Router {
  const r = Router();
  r.use('/payment-sources', paymentSourceRoutes(s));
  r.use('/payments', paymentRoutes(s));
  r.use('/accounts', readOnlyRoutes(s.accounts));
  r.use('/articles', readOnlyRoutes(s.articles));
  r.use('/article-prices', articlePriceRoutes(s));
  r.use('/customers', readOnlyRoutes(s.customers.withAddresses));
  r.use('/tax-codes', readOnlyRoutes(s.taxCodes));
  r.use('/academic-terms', readOnlyRoutes(s.academicTerms));
  r.use('/quotes', quoteRoutes(s));
  r.use(() => {
    throw new AppError('NOT_FOUND', 'No such resource path');
  });
  return r;
}
