import type { NextFunction, Request, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import { AppError } from '../errors/catalogue';

/**
 * One limiter for both doors (REST and GraphQL share the budget): requests per client
 * (IP address) and minute; 0 turns it off. Over the limit: 429 RATE_LIMITED with Retry-After.
 */
export function rateLimiter(perMinute: number, onRefusal?: (req: Request) => void) {
  if (perMinute <= 0) return (_req: Request, _res: Response, next: NextFunction) => next();
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    handler: (req, res, next) => {
      const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const seconds = reset ? Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000)) : 60;
      res.setHeader('Retry-After', String(seconds));
      onRefusal?.(req);
      next(new AppError('RATE_LIMITED', `More than ${perMinute} requests in a minute; retry after ${seconds} s`));
    },
  });
}
