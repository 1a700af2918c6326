import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

// The Redis the tests share with every other run on the machine (127.0.0.1:6379): each test
// file works under a key prefix of its own and deletes its keys after, never a flush.

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix no other run uses. */
export const testKeyPrefix = (name: string): string => `billing-test-${name}-${process.pid}-${randomBytes(4).toString('hex')}:`;

/** Deletes every key under `prefix`. */
export async function deleteKeys(prefix: string): Promise<void> {
  const cleaner = new Redis(REDIS_URL);
  try {
    const keys = await cleaner.keys(`${prefix}*`);
    if (keys.length > 0) await cleaner.del(...keys);
  } finally {
    cleaner.disconnect();
  }
}
