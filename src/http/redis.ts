import { Redis } from 'ioredis';
import type { Logger } from './logger';

/**
 * The Redis connection instances share state through (the rate-limit budget, and who wrote
 * recently for read-your-writes). Commands fail at once while Redis is unreachable instead
 * of queueing, so a Redis outage never holds a request: callers fall back to local state.
 * The client keeps reconnecting in the background.
 */
export function connectRedis(url: string, logger: Logger, o: { commandTimeoutMs?: number } = {}): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    commandTimeout: o.commandTimeoutMs ?? 1_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  let up = false;
  redis.on('ready', () => {
    up = true;
    logger.info('redis connected');
  });
  redis.on('error', (e: Error) => {
    if (up) logger.warn({ error: e.message }, 'redis unreachable; shared state falls back to this process');
    up = false;
  });
  return redis;
}
