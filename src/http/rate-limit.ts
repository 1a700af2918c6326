import cluster from 'node:cluster';
import { ClusterMemoryStoreWorker } from '@express-rate-limit/cluster-memory-store';
import type { NextFunction, Request, Response } from 'express';
import { MemoryStore, rateLimit, type Options, type Store } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import { AppError } from '../errors/catalogue';
import type { Logger } from './logger';

export interface RateLimitOptions {
  /** With Redis, every instance counts against one budget per client (key prefix `<prefix>rl:`). */
  readonly redis?: { readonly client: Redis; readonly keyPrefix: string } | undefined;
  readonly logger?: Logger;
  /** Told of every refused request (for /metrics). */
  readonly onRefusal?: ((req: Request) => void) | undefined;
}

/**
 * One limiter for both doors (REST and GraphQL share the budget): requests per client
 * (IP address) and minute; 0 turns it off. Over the limit: 429 RATE_LIMITED with Retry-After.
 * Where the count lives: in Redis when configured (all instances share it); else, in a
 * worker of WORKERS=N, in the cluster's primary process (all workers share it); else here.
 */
export function rateLimiter(perMinute: number, o: RateLimitOptions = {}) {
  if (perMinute <= 0) return (_req: Request, _res: Response, next: NextFunction) => next();
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    store: o.redis
      ? new RedisWithFallbackStore(o.redis.client, `${o.redis.keyPrefix}rl:`, o.logger)
      : cluster.isWorker
        ? new ClusterMemoryStoreWorker({ prefix: 'billing-rl' })
        : undefined,
    handler: (req, res, next) => {
      const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const seconds = reset ? Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000)) : 60;
      res.setHeader('Retry-After', String(seconds));
      o.onRefusal?.(req);
      next(new AppError('RATE_LIMITED', `More than ${perMinute} requests in a minute; retry after ${seconds} s`));
    },
  });
}

/**
 * The shared count in Redis, falling back to this process's own count while Redis cannot be
 * reached. Fail-open to the local limit rather than fail-closed: an outage of Redis (a
 * convenience for fairness across instances) must not take the billing API down, and the
 * local limit still bounds what one client can do to each instance. Each change of state
 * is logged once, not per request.
 */
class RedisWithFallbackStore implements Store {
  readonly localKeys = false;
  private readonly shared: RedisStore;
  private readonly local = new MemoryStore();
  private options: Options | undefined;
  private usingRedis = true;
  private loadedAt = 0;

  constructor(
    redis: Redis,
    readonly prefix: string,
    private readonly logger?: Logger,
  ) {
    this.shared = new RedisStore({
      prefix,
      sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply>,
    });
    // The scripts are loaded again whenever the connection comes (back): a failed first load
    // would otherwise fail every later count.
    redis.on('ready', () => this.loadScripts());
  }

  init(options: Options): void {
    this.options = options;
    this.local.init(options);
    this.loadScripts();
  }

  private loadScripts(): void {
    if (!this.options) return;
    this.loadedAt = Date.now();
    void this.shared.init(this.options).catch(() => undefined);
  }

  private fellBack(e: unknown): void {
    // A load that failed (Redis slow or away at that moment) is retried, at most once a second.
    if (Date.now() - this.loadedAt > 1000) this.loadScripts();
    if (!this.usingRedis) return;
    this.usingRedis = false;
    this.logger?.warn(
      { error: e instanceof Error ? e.message : String(e) },
      'rate limit: Redis unreachable, counting in this process until it is back',
    );
  }

  private recovered(): void {
    if (this.usingRedis) return;
    this.usingRedis = true;
    this.logger?.info('rate limit: Redis reachable again, counting in Redis');
  }

  async increment(key: string) {
    try {
      const r = await this.shared.increment(key);
      this.recovered();
      return r;
    } catch (e) {
      this.fellBack(e);
      return this.local.increment(key);
    }
  }

  async decrement(key: string) {
    await this.shared.decrement(key).catch(() => this.local.decrement(key));
  }

  async resetKey(key: string) {
    await Promise.allSettled([this.shared.resetKey(key), this.local.resetKey(key)]);
  }

  async get(key: string) {
    return this.shared.get(key).catch(() => this.local.get(key));
  }

  shutdown(): void {
    this.local.shutdown();
  }
}
