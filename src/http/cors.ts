import cors from 'cors';
import type { RequestHandler } from 'express';
import { originAllowed, type CorsOrigins } from '../config/config';

/** Response headers a browser app may read besides the CORS-safelisted ones. */
export const EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'Retry-After',
  'OData-Version',
  'X-Request-Id',
  // The rate limit's budget (express-rate-limit, IETF draft 7), so a browser app can slow down before a 429.
  'RateLimit',
  'RateLimit-Policy',
  'WWW-Authenticate',
] as const;

/**
 * CORS for both doors. Tokens travel in `Authorization`, never in cookies, so no credentials
 * mode; requested headers are reflected (the token is what protects the data, not the header
 * list). Preflights end here with 204, before the rate limit, authentication and Apollo's
 * CSRF check see them.
 *
 * A page on a public origin (the hosted Apollo Sandbox) calling a service on the developer's
 * machine makes Chromium-based browsers ask in the preflight for private-network access
 * (`Access-Control-Request-Private-Network: true`); an allowed origin gets it.
 */
export function corsPolicy(origins: CorsOrigins): RequestHandler {
  const allowed = (origin: string | undefined) => originAllowed(origins, origin);
  const policy = cors({
    origin: origins === '*' ? '*' : (origin, done) => done(null, allowed(origin)),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: [...EXPOSED_HEADERS],
    maxAge: 600,
    optionsSuccessStatus: 204,
  });
  return (req, res, next) => {
    if (req.method === 'OPTIONS' && req.get('access-control-request-private-network') === 'true' && allowed(req.get('origin'))) {
      res.setHeader('Access-Control-Allow-Private-Network', 'true');
    }
    policy(req, res, next);
  };
}

/** Whether any origin may read responses (then Cross-Origin-Resource-Policy must not forbid it). */
export const allowsAnyOrigin = (origins: CorsOrigins): boolean => origins === '*' || origins.length > 0;
