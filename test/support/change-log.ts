import { APPEND } from '../../src/domain/change-log/append';
import type { TestDatabase } from './database';
import { WRITER_ID } from './app';
import { fixture } from './fixture';

/**
 * Appends one entry, a payment source's new description, in a transaction of its own (as a
 * write's entries are, so notifying a waiting reader by itself), without the write it would record:
 * what the change log's readers see, without a write's cost or timing. `seqAtInsert` asks for
 * the seq at the insert, as the import does (SET LOCAL billing.change_log_seq = 'now').
 */
export async function appendDescriptionChange(
  db: TestDatabase,
  description: string,
  requestId: string,
  recordId: string = fixture.paymentSources[0]!.id,
  o: { readonly seqAtInsert?: boolean } = {},
): Promise<void> {
  const changes = { description: { old: null, new: description } };
  const entries = JSON.stringify([{ resource: 'payment-source', recordId, operation: 'updated', changes }]);
  await db.prisma.$transaction(async (tx) => {
    if (o.seqAtInsert) await tx.$executeRawUnsafe(`SET LOCAL billing.change_log_seq = 'now'`);
    await tx.$executeRawUnsafe(APPEND, entries, WRITER_ID, new Date().toISOString(), requestId, null);
  });
}
