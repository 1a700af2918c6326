import type { NextFunction, Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { currentReadScope, runInReadScope } from './read-scope';
import type { Logger } from './logger';

// Read-your-writes with read replicas. A client that wrote reads from the primary for a
// window after its write (READ_YOUR_WRITES_MS), whatever instance it reaches: each instance
// remembers who wrote, and with Redis every write is announced to every instance (publish
// at the start of the write, well before the client can send its next request). A request
// carrying `Prefer: read-your-writes` reads from the primary in any case. Every other read
// of the REST door's GET routes and of GraphQL queries may go to a replica.

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const PREFER_OWN_WRITES = /(?:^|[,;\s])read-your-writes(?:$|[,;\s])/i;

export class ReadRouting {
  private readonly wroteUntil = new Map<string, number>();
  private channel: string | undefined;
  private publisher: Redis | undefined;

  constructor(private readonly windowMs: number) {}

  /** Shares who wrote with the other instances through Redis pub/sub. */
  share(redis: Redis, keyPrefix: string, logger: Logger): () => Promise<void> {
    this.channel = `${keyPrefix}writes`;
    this.publisher = redis;
    const subscriber = redis.duplicate();
    subscriber.on('error', () => undefined);
    subscriber.on('message', (_channel: string, userId: string) => this.remember(userId));
    void subscriber
      .subscribe(this.channel)
      .catch((e: Error) => logger.warn({ error: e.message }, 'read-your-writes: cannot subscribe; the window holds per instance'));
    return () => {
      subscriber.disconnect();
      return Promise.resolve();
    };
  }

  private remember(userId: string): void {
    const now = Date.now();
    this.wroteUntil.set(userId, now + this.windowMs);
    if (this.wroteUntil.size > 10_000) for (const [k, until] of this.wroteUntil) if (until < now) this.wroteUntil.delete(k);
  }

  /** The caller writes now: its reads go to the primary for the window. */
  wrote(userId: string): void {
    this.remember(userId);
    if (this.channel && this.publisher) void this.publisher.publish(this.channel, userId).catch(() => undefined);
    const scope = currentReadScope();
    if (scope) scope.primaryOnly = true;
  }

  /** The caller is known (GraphQL authenticates inside its door): a recent writer reads from the primary. */
  caller(userId: string): void {
    const scope = currentReadScope();
    if (scope && (this.wroteUntil.get(userId) ?? 0) > Date.now()) scope.primaryOnly = true;
  }

  /**
   * Express middleware: opens the request's read scope. REST: after the token is verified,
   * so the caller and the method decide. GraphQL: before its door, which authenticates and
   * tells a mutation from a query itself (caller() and wrote() from there).
   */
  scope() {
    return (req: Request, res: Response, next: NextFunction): void => {
      const prefer = PREFER_OWN_WRITES.test(req.get('prefer') ?? '');
      if (prefer) res.setHeader('Preference-Applied', 'read-your-writes');
      runInReadScope({ primaryOnly: prefer }, () => {
        const userId = res.locals.principal?.userId;
        if (userId) {
          if (SAFE_METHODS.has(req.method)) this.caller(userId);
          else {
            this.wrote(userId);
            res.on('finish', () => this.wrote(userId));
          }
        }
        next();
      });
    };
  }
}
