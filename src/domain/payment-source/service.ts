import type { PrismaClient } from '../../db/__generated__/prisma/client';
import { isForeignKeyViolation, isRecordNotFound, isUniqueViolation } from '../../db/errors';
import { clientOf, executeInUnit, inTransaction } from '../../db/unit-of-work';
import { AppError, notFound } from '../../errors/catalogue';
import { appendChanges, fieldChanges } from '../change-log/append';
import { checkIfMatch } from '../common/etag';
import { ReadService, type RecordOf } from '../common/read-service';
import type { Actor, ServiceDeps } from '../context';
import { paymentSourceFields } from './fields';
import { paymentSourceResource } from './resource';
import { clashingDefault, codeKey } from './rules';
import { requireUsableAccount } from '../account/writes';
import { accountUse } from '../account/uses';
import { parseInput } from '../common/validate';
import { paymentSourceInput, paymentSourcePatch, type PaymentSourceInput } from './schema';

export type PaymentSource = RecordOf<typeof paymentSourceFields>;

export interface WriteOptions {
  /** The client's If-Match header, checked against the current record. */
  readonly ifMatch?: string | undefined;
}

// The seven payment-source rules (docs/service.md). Each is checked up front for a clear answer, and
// also kept by the database (unique lower(code), partial unique index on isDefault,
// restricting foreign key from payments), so a concurrent request that slips past the
// check is refused by the database and mapped to the same error.
export class PaymentSourceService extends ReadService<typeof paymentSourceFields> {
  private readonly prisma: PrismaClient;
  private readonly now: () => Date;

  constructor(deps: ServiceDeps) {
    super(deps, paymentSourceResource, { inline: [] });
    this.prisma = deps.prisma;
    this.now = deps.now ?? (() => new Date());
  }

  /** Reads of the rules: inside a unit of work through its transaction (src/db/unit-of-work.ts). */
  private db() {
    return clientOf(this.prisma);
  }

  async create(body: unknown, actor: Actor): Promise<PaymentSource> {
    const input = parseInput(paymentSourceInput, body);
    await this.checkRules(input, undefined);
    try {
      return await inTransaction(this.prisma, async (tx) => {
        const now = this.now();
        const created = await tx.paymentSource.create({
          data: { ...input, createdAt: now, createdById: actor.userId, updatedAt: null, updatedById: null },
        });
        await this.log(created.id, 'created', undefined, created, actor, now);
        return created;
      });
    } catch (e) {
      throw await this.explain(e, input, undefined);
    }
  }

  /** PUT: a full replacement of the editable fields. */
  async replace(id: string, body: unknown, actor: Actor, o: WriteOptions = {}): Promise<PaymentSource> {
    const input = parseInput(paymentSourceInput, body);
    return this.update(id, () => input, actor, o);
  }

  /** GraphQL update and REST PATCH: omitted fields keep their value (merge). */
  async patch(id: string, body: unknown, actor: Actor, o: WriteOptions = {}): Promise<PaymentSource> {
    const patch = parseInput(paymentSourcePatch, body);
    return this.update(
      id,
      (current) => ({
        code: patch.code ?? current.code,
        name: patch.name ?? current.name,
        description: patch.description === undefined ? current.description : patch.description,
        accountId: patch.accountId ?? current.accountId,
        sourceType: patch.sourceType ?? current.sourceType,
        isActive: patch.isActive ?? current.isActive,
        isDefault: patch.isDefault ?? current.isDefault,
      }),
      actor,
      o,
    );
  }

  async delete(id: string, actor: Actor, o: WriteOptions = {}): Promise<void> {
    const current = await this.get(id);
    checkIfMatch(o.ifMatch, current);
    if (await this.db().payment.findFirst({ where: { paymentSourceId: current.id }, select: { id: true } })) throw hasPayments(current);
    try {
      await inTransaction(this.prisma, async (tx) => {
        const before = await this.lockedVersion(current.id);
        const deleted = await tx.paymentSource.delete({ where: { id: current.id, ...versionOf(current, o) } });
        await this.log(current.id, 'deleted', before ?? deleted, undefined, actor, this.now());
      });
    } catch (e) {
      if (isForeignKeyViolation(e)) throw hasPayments(current);
      if (isRecordNotFound(e)) throw await this.changedOrGone(id);
      throw e;
    }
  }

  private async update(
    id: string,
    next: (current: PaymentSource) => PaymentSourceInput,
    actor: Actor,
    o: WriteOptions,
  ): Promise<PaymentSource> {
    const current = await this.get(id);
    checkIfMatch(o.ifMatch, current);
    const input = next(current);
    await this.checkRules(input, current);
    try {
      return await inTransaction(this.prisma, async (tx) => {
        // The version the update replaces, locked, so the entry's old values are exactly it.
        const before = await this.lockedVersion(current.id);
        const now = this.now();
        // The version condition makes the update conditional on what was checked above.
        const updated = await tx.paymentSource.update({
          where: { id: current.id, ...versionOf(current, o) },
          data: { ...input, updatedAt: now, updatedById: actor.userId },
        });
        await this.log(updated.id, 'updated', before ?? current, updated, actor, now);
        return updated;
      });
    } catch (e) {
      if (isRecordNotFound(e)) throw await this.changedOrGone(id);
      throw await this.explain(e, input, id);
    }
  }

  /**
   * The current version of a payment source, its row locked until the transaction ends (a
   * concurrent write waits), or undefined when it is gone. Both statements go through the
   * write's transaction (the read path joins its unit). Parameterised.
   */
  private async lockedVersion(id: string): Promise<PaymentSource | undefined> {
    await executeInUnit('SELECT 1 FROM "PaymentSource" WHERE "id" = $1::uuid FOR UPDATE', [id]);
    const [found] = await this.getMany([id]);
    return found;
  }

  /** The write's change-log entry, last in its transaction (src/domain/change-log/append.ts). */
  private log(
    recordId: string,
    operation: 'created' | 'updated' | 'deleted',
    before: PaymentSource | undefined,
    after: PaymentSource | undefined,
    actor: Actor,
    occurredAt: Date,
  ): Promise<void> {
    const changes = fieldChanges(paymentSourceFields, before, after);
    return appendChanges([{ resource: 'payment-source', recordId, operation, changes }], { ...actor, occurredAt });
  }

  private async checkRules(input: PaymentSourceInput, current: PaymentSource | undefined): Promise<void> {
    const selfId = current?.id;
    if (!current || current.accountId !== input.accountId)
      await requireUsableAccount(this.db(), input.accountId, accountUse('PaymentSource', 'accountId'));
    await this.checkUniqueness(input, selfId);
  }

  private async checkUniqueness(input: PaymentSourceInput, selfId: string | undefined): Promise<AppError | void> {
    const sameCode = await this.db().paymentSource.findFirst({
      where: { code: { equals: input.code, mode: 'insensitive' }, ...(selfId ? { NOT: { id: selfId } } : {}) },
      select: { code: true },
    });
    // `mode: insensitive` is ILIKE: `_` and `%` in the code are wildcards there, so compare exactly.
    if (sameCode && codeKey(sameCode.code) === codeKey(input.code)) throw duplicateCode(input.code);
    if (input.isDefault) {
      const defaults = await this.db().paymentSource.findMany({
        where: { isDefault: true },
        select: { id: true, code: true, isDefault: true },
      });
      const other = clashingDefault({ id: selfId, isDefault: input.isDefault }, defaults);
      if (other) throw defaultAlreadySet(other.code);
    }
  }

  /** After the database refused a write: which rule did the concurrent request win? */
  private async explain(e: unknown, input: PaymentSourceInput, selfId: string | undefined): Promise<unknown> {
    if (!isUniqueViolation(e)) {
      if (isForeignKeyViolation(e))
        return new AppError('ACCOUNT_NOT_USABLE', `No account with id ${input.accountId}`, [
          { field: 'accountId', message: 'unknown account' },
        ]);
      return e;
    }
    try {
      await this.checkUniqueness(input, selfId);
    } catch (ruleError) {
      return ruleError;
    }
    return input.isDefault ? defaultAlreadySet('another payment source') : duplicateCode(input.code);
  }

  private async changedOrGone(id: string): Promise<AppError> {
    const still = await this.db().paymentSource.findUnique({ where: { id }, select: { id: true } });
    return still
      ? new AppError('PRECONDITION_FAILED', 'The payment source was changed by another request; read it again')
      : notFound('payment source', id);
  }
}

/**
 * With If-Match, the write is conditional on the row still being the version that was
 * checked (a concurrent change in between gives 412). Without it, last write wins.
 */
function versionOf(current: PaymentSource, o: WriteOptions): { updatedAt?: Date | null } {
  return o.ifMatch === undefined ? {} : { updatedAt: current.updatedAt };
}

const duplicateCode = (code: string) =>
  new AppError('DUPLICATE_CODE', `The code ${code} is already used by another payment source`, [
    { field: 'code', message: 'already used' },
  ]);
const defaultAlreadySet = (code: string) =>
  new AppError('DEFAULT_ALREADY_SET', `${code} is already the default payment source`, [
    { field: 'isDefault', message: 'another payment source is the default' },
  ]);
const hasPayments = (s: PaymentSource) => new AppError('HAS_PAYMENTS', `Payment source ${s.code} has payments and cannot be deleted`);
