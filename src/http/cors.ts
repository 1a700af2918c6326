import cors from 'cors';
import type { RequestHandler } from 'express';
import type { CorsOrigins } from '../config/config';

/** Response headers a browser app may read besides the CORS-safelisted ones. */
export const EXPOSED_HEADERS = ['ETag', 'Location', 'Retry-After', 'OData-Version', 'X-Request-Id'] as const;

/**
 * CORS for both doors. Tokens travel in `Authorization`, never in cookies, so no credentials
 * mode; requested headers are reflected (the token is what protects the data, not the header
 * list). Preflights end here with 204, before the rate limit, authentication and Apollo's
 * CSRF check see them.
 */
export function corsPolicy(origins: CorsOrigins): RequestHandler {
  return cors({
    origin: origins === '*' ? '*' : [...origins],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: [...EXPOSED_HEADERS],
    maxAge: 600,
    optionsSuccessStatus: 204,
  });
}

/** Whether any origin may read responses (then Cross-Origin-Resource-Policy must not forbid it). */
export const allowsAnyOrigin = (origins: CorsOrigins): boolean => origins === '*' || origins.length > 0;
