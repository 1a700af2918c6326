// Where automatic persisted queries (APQ) are kept: Apollo Server speaks the protocol itself
// (hash only → PERSISTED_QUERY_NOT_FOUND, hash + query → checked against its SHA-256 and
// stored once the operation has passed every check of server.ts's guard, hash only → the
// stored text, parsed and checked again like any document); this file gives it the store.
//
//  - Without Redis: Apollo's own InMemoryLRUCache, bounded in bytes (documents and their
//    keys) and per entry; the least recently used documents make room for new ones, so any
//    number of registrations never holds more than APQ_LIMITS.memoryBytes.
//  - With REDIS_URL: one store for every instance, under REDIS_KEY_PREFIX + `apq:`, each
//    entry expiring after APQ_LIMITS.ttlSeconds and no larger than APQ_LIMITS.entryBytes. A
//    Redis outage is a cache miss (the client sends the text again), never a failed request.
//
// A document over APQ_LIMITS.entryBytes is answered (it came whole, under the body and token
// limits) but not kept: the client keeps sending it whole.

import { ErrorsAreMissesCache, InMemoryLRUCache, type KeyValueCache, type KeyValueCacheSetOptions } from '@apollo/utils.keyvaluecache';
import type { Redis } from 'ioredis';
import type { Logger } from '../../http/logger';
import type { Manifest } from './manifest';

export const APQ_LIMITS = {
  /** Bytes of documents and keys the in-process store holds at most. */
  memoryBytes: 4 * 1024 * 1024,
  /** Bytes of one document the store keeps at most (UTF-8). */
  entryBytes: 16 * 1024,
  /** Seconds a document lives after it was registered (in Redis and in process). */
  ttlSeconds: 24 * 60 * 60,
} as const;

/** What an entry costs the in-process store: its document's and its key's UTF-8 bytes. */
export const apqEntrySize = (value: string, key: string): number => Buffer.byteLength(value, 'utf8') + Buffer.byteLength(key, 'utf8');

/** The in-process store: Apollo's LRU cache with the bounds above (lru-cache skips an entry over maxEntrySize). */
export function memoryApqStore(): InMemoryLRUCache {
  return new InMemoryLRUCache({ maxSize: APQ_LIMITS.memoryBytes, maxEntrySize: APQ_LIMITS.entryBytes + 64, sizeCalculation: apqEntrySize });
}

/**
 * The shared store over the service's ioredis connection (src/http/redis.ts: commands fail at
 * once while Redis is away). Written here rather than taken from keyv's Redis adapter, which
 * would open a second connection with another client library and its own outage behaviour;
 * these are three commands.
 */
class RedisApqStore implements KeyValueCache {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async get(key: string): Promise<string | undefined> {
    return (await this.redis.get(this.prefix + key)) ?? undefined;
  }

  async set(key: string, value: string, options?: KeyValueCacheSetOptions): Promise<void> {
    if (Buffer.byteLength(value, 'utf8') > APQ_LIMITS.entryBytes) return;
    await this.redis.set(this.prefix + key, value, 'EX', options?.ttl ?? APQ_LIMITS.ttlSeconds);
  }

  async delete(key: string): Promise<boolean> {
    return (await this.redis.del(this.prefix + key)) > 0;
  }
}

/** The APQ store: shared through Redis when there is one, else in process. */
export function apqStore(redis: { readonly client: Redis; readonly keyPrefix: string } | undefined, logger: Logger): KeyValueCache {
  if (!redis) return memoryApqStore();
  // A failed read is a miss (Apollo then asks for the text); a failed write is logged by Apollo.
  return new ErrorsAreMissesCache(new RedisApqStore(redis.client, `${redis.keyPrefix}apq:`), {
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: (message: unknown) => logger.warn({ error: String(message) }, 'persisted-query store unreachable; treated as a miss'),
  });
}

/**
 * The store as Apollo sees it: the manifest's documents first (their SHA-256 ids answer a
 * hash-only request without registration), then the registered ones. A registration of a
 * manifest document is not stored again. The store holds nothing but persisted queries, so
 * Apollo need not prefix its keys (server.ts).
 */
export function withManifest(store: KeyValueCache, manifest: Manifest | undefined): KeyValueCache {
  if (!manifest || manifest.size === 0) return store;
  return {
    get: async (key) => manifest.get(key) ?? store.get(key),
    set: async (key, value, options) => (manifest.has(key) ? undefined : store.set(key, value, options)),
    delete: async (key) => store.delete(key),
  };
}
