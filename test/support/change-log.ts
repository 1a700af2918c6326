import { APPEND } from '../../src/domain/change-log/append';
import type { TestDatabase } from './database';
import { WRITER_ID } from './app';
import { fixture } from './fixture';

/**
 * Appends one entry, a payment source's new description, in a transaction of its own (as a
 * write's entries are, so with a notification of its own), without the write it would record:
 * what the change log's readers see, without a write's cost or timing.
 */
export async function appendDescriptionChange(
  db: TestDatabase,
  description: string,
  requestId: string,
  recordId: string = fixture.paymentSources[0]!.id,
): Promise<void> {
  const changes = { description: { old: null, new: description } };
  await db.prisma.$executeRawUnsafe(
    APPEND,
    JSON.stringify([{ resource: 'payment-source', recordId, operation: 'updated', changes }]),
    WRITER_ID,
    new Date().toISOString(),
    requestId,
    null,
  );
}
