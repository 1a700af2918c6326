import express, { type Request, type RequestHandler, type Response } from 'express';
import { BULK_LIMITS } from '../domain/maintenance/write-service';

// Request bodies: JSON, at most 100 KiB after decompression (gzip, deflate and br are
// accepted); a bulk upsert's at most BULK_LIMITS.bytes, for a caller who may maintain the
// data (`larger` says which requests). Both doors mount this only AFTER the bearer token has
// been checked, so an unauthenticated request never costs a read, an inflate or a parse.

export const BODY_LIMIT = '100kb';

export function jsonBody(larger?: (req: Request, res: Response) => boolean): RequestHandler {
  const small = express.json({ limit: BODY_LIMIT, strict: true });
  if (!larger) return small;
  const large = express.json({ limit: BULK_LIMITS.bytes, strict: true });
  return (req, res, next) => (larger(req, res) ? large : small)(req, res, next);
}
