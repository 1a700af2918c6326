import type { NextFunction, Request, Response } from 'express';

/**
 * The requests whose handlers are still at work. A response counts as done once its handler
 * has ended it (`writableEnded`), whether or not the client is still there to receive it: a
 * client that hangs up does not stop the handler, which may still be reading the database.
 */
export function inFlight() {
  const open = new Set<Response>();
  return {
    track(this: void, _req: Request, res: Response, next: NextFunction): void {
      open.add(res);
      res.once('finish', () => open.delete(res));
      next();
    },
    /** Resolves once every handler has ended its response, or after `ms` (false then). */
    async drained(ms: number): Promise<boolean> {
      const until = Date.now() + ms;
      for (;;) {
        for (const res of open) if (res.writableEnded) open.delete(res);
        if (open.size === 0) return true;
        if (Date.now() >= until) return false;
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
