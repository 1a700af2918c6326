import type { Prisma, PrismaClient } from '../../db/__generated__/prisma/client';
import { isForeignKeyViolation } from '../../db/errors';
import { inTransaction } from '../../db/unit-of-work';
import { AppError, validationFailed } from '../../errors/catalogue';
import { ReadService, type RecordOf } from '../common/read-service';
import type { Actor, ServiceDeps } from '../context';
import { paymentFields } from './fields';
import { appendChanges, fieldChanges } from '../change-log/append';
import { paymentResource } from './resource';
import { parseInput } from '../common/validate';
import { paymentInput } from './schema';

export type Payment = RecordOf<typeof paymentFields>;

export class PaymentService extends ReadService<typeof paymentFields> {
  private readonly prisma: PrismaClient;
  private readonly now: () => Date;

  constructor(deps: ServiceDeps) {
    super(deps, paymentResource, { inline: [] });
    this.prisma = deps.prisma;
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Records a payment. Without a payment source the default one is used (rule 6); an
   * inactive source is refused (rule 7). Source and customer are read in the transaction
   * that writes, with a share lock on the source, so a concurrent deactivation or delete
   * waits for this payment or makes it fail.
   */
  async create(body: unknown, actor: Actor): Promise<Payment> {
    const input = parseInput(paymentInput, body);
    try {
      return await inTransaction(this.prisma, async (tx) => {
        const source = input.paymentSourceId ? await lockSource(tx, input.paymentSourceId) : await lockDefaultSource(tx);
        if (!source) {
          if (input.paymentSourceId)
            throw validationFailed([{ field: 'paymentSourceId', message: `no payment source with id ${input.paymentSourceId}` }]);
          throw new AppError('NO_DEFAULT_PAYMENT_SOURCE', 'The payment names no payment source and none is the default');
        }
        if (!source.isActive)
          throw new AppError('PAYMENT_SOURCE_INACTIVE', `Payment source ${source.code} is inactive and cannot take new payments`, [
            { field: 'paymentSourceId', message: 'the payment source is inactive' },
          ]);
        const customer = await tx.customer.findUnique({ where: { id: input.customerId }, select: { id: true } });
        if (!customer) throw validationFailed([{ field: 'customerId', message: `no customer with id ${input.customerId}` }]);
        const now = this.now();
        const payment = await tx.payment.create({
          data: {
            paymentSourceId: source.id,
            customerId: input.customerId,
            amount: input.amount,
            receivedAt: input.receivedAt ?? now,
            reference: input.reference,
            createdAt: now,
            createdById: actor.userId,
          },
        });
        const changes = fieldChanges(paymentFields, undefined, payment);
        await appendChanges([{ resource: 'payment', recordId: payment.id, operation: 'created', changes }], {
          ...actor,
          occurredAt: now,
        });
        return payment;
      });
    } catch (e) {
      if (isForeignKeyViolation(e))
        throw validationFailed([{ field: 'customerId', message: 'the customer or payment source no longer exists' }]);
      throw e;
    }
  }
}

interface LockedSource {
  id: string;
  code: string;
  isActive: boolean;
}

// FOR SHARE: a concurrent UPDATE/DELETE of the source waits until the payment is committed.
// Parameterised; no input is placed in the SQL text.
async function lockSource(tx: Prisma.TransactionClient, id: string): Promise<LockedSource | undefined> {
  const rows = await tx.$queryRaw<LockedSource[]>`
    SELECT "id", "code", "isActive" FROM "PaymentSource" WHERE "id" = ${id}::uuid FOR SHARE`;
  return rows[0];
}

async function lockDefaultSource(tx: Prisma.TransactionClient): Promise<LockedSource | undefined> {
  const rows = await tx.$queryRaw<LockedSource[]>`
    SELECT "id", "code", "isActive" FROM "PaymentSource" WHERE "isDefault" FOR SHARE`;
  return rows[0];
}
