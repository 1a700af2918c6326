import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Principal } from '../auth/principal';
import type { TokenVerifier } from '../auth/tokens';
import type { Logger } from './logger';

declare module 'express-serve-static-core' {
  interface Locals {
    requestId: string;
    log: Logger;
    principal?: Principal;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Request id (taken from X-Request-Id when sane), a child logger, one line per request. */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const given = req.get('x-request-id');
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = requestId;
    res.locals.log = logger.child({ requestId });
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      res.locals.log.info(
        {
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
          user: res.locals.principal?.userId,
        },
        'request',
      );
    });
    next();
  };
}

/** Verifies the bearer token; the principal lands in res.locals for the handlers. */
export function authenticate(verify: TokenVerifier) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      res.locals.principal = await verify(req.get('authorization'));
      next();
    } catch (e) {
      next(e);
    }
  };
}
