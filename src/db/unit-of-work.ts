import { AsyncLocalStorage } from 'node:async_hooks';
import type { Prisma, PrismaClient } from './__generated__/prisma/client';
import type { AdapterTransaction } from './prisma-internals';
import { adapterReader, argType, type OnQuery, type RowReader } from './row-reader';

// A unit of work: several writes (and the reads between them) in one database transaction,
// all kept or none. The open transaction lives in an AsyncLocalStorage store, so whatever
// runs inside the unit finds it without being handed it: the write paths join it
// (`inTransaction`), Prisma reads of the rules use its client (`clientOf`), and the read
// path's statements go through the driver adapter's transaction object (`unitAware`).
// Everything inside must: on the embedded database the transaction holds the one
// connection, so a statement sent outside it would wait for the unit's end for ever.

interface Unit {
  /** Set while `$transaction` opens: the adapter transaction it starts is this unit's. */
  opening: boolean;
  /** Prisma's client of the open transaction. */
  db?: Prisma.TransactionClient;
  /** The same transaction as the driver adapter's object, for the read path's statements. */
  tx?: AdapterTransaction;
  /** The transaction has ended (a late statement then goes to the pool). */
  closed: boolean;
  savepoints: number;
}

const units = new AsyncLocalStorage<Unit>();

/** A unit whose transaction is open: both its clients are there. */
type OpenUnit = Unit & { db: Prisma.TransactionClient; tx: AdapterTransaction };
const isOpen = (unit: Unit | undefined): unit is OpenUnit => unit?.db !== undefined && unit.tx !== undefined && !unit.closed;

/** The open unit of the current async context, if any. */
function openUnit(): OpenUnit | undefined {
  const unit = units.getStore();
  return isOpen(unit) ? unit : undefined;
}

/** Told by the adapter (prisma-internals.ts, 3.) of every transaction it starts: the opening unit's is claimed. */
export function claimTransaction(tx: AdapterTransaction): void {
  const unit = units.getStore();
  if (unit?.opening && !unit.tx) unit.tx = tx;
}

/** Longest a unit may stay open (a batch's change set, a GraphQL operation's mutations), and wait for a connection. */
const UNIT_TIMEOUT_MS = 30_000;
const UNIT_MAX_WAIT_MS = 5_000;

/**
 * Runs `work` as one unit of work: one transaction, committed when `work` resolves, rolled
 * back when it throws. Inside a unit already, `work` joins it (nested units are the outer one).
 */
export async function unitOfWork<T>(prisma: PrismaClient, work: () => Promise<T>): Promise<T> {
  if (openUnit()) return work();
  return openNewUnit(prisma, () => work(), { timeout: UNIT_TIMEOUT_MS, maxWait: UNIT_MAX_WAIT_MS });
}

/** How long a transaction may stay open, and wait for a connection, in ms (Prisma's options). */
type TransactionLimits = { readonly timeout: number; readonly maxWait: number };

/** A new unit's transaction, with `limits` (Prisma's defaults when undefined). */
async function openNewUnit<T>(
  prisma: PrismaClient,
  work: (db: Prisma.TransactionClient) => Promise<T>,
  limits: TransactionLimits | undefined,
): Promise<T> {
  const unit: Unit = { opening: true, closed: false, savepoints: 0 };
  return units.run(unit, async () => {
    try {
      return await prisma.$transaction(async (db) => {
        unit.opening = false;
        // Without the adapter's object the read path would go around the transaction (and
        // on the embedded database wait for it): refuse rather than deadlock.
        if (!unit.tx) throw new Error('The unit of work did not see its transaction start (src/db/prisma-internals.ts, 3.)');
        unit.db = db;
        return work(db);
      }, limits);
    } finally {
      unit.closed = true;
    }
  });
}

/**
 * One write's transaction: inside a unit, a savepoint of the unit's transaction (a refused
 * statement leaves the unit usable, so the write path can check its rules again there
 * before the unit is rolled back); outside, a unit of its own, so its statements may go
 * through the adapter (`executeInUnit`), with `limits` (Prisma's defaults when absent).
 */
export async function inTransaction<T>(
  prisma: PrismaClient,
  work: (db: Prisma.TransactionClient) => Promise<T>,
  limits?: TransactionLimits,
): Promise<T> {
  const unit = openUnit();
  if (!unit) return openNewUnit(prisma, work, limits);
  // The name is a counter, never input.
  const name = `unit_write_${++unit.savepoints}`;
  await executeInUnit(`SAVEPOINT ${name}`, []);
  try {
    const result = await work(unit.db);
    await executeInUnit(`RELEASE SAVEPOINT ${name}`, []);
    return result;
  } catch (e) {
    await executeInUnit(`ROLLBACK TO SAVEPOINT ${name}`, []);
    throw e;
  }
}

/**
 * Runs a statement whose rows are not wanted in the open unit's transaction, through the
 * driver adapter as the read path's statements go: a write's savepoints, the lock on the
 * record it changes, its change-log append. Prisma Client's `$executeRawUnsafe` costs 0.50 ms
 * of CPU a statement, this 0.15 (PostgreSQL, Node 24). Values are text or null, cast in
 * `sql`. Outside an open unit it refuses: such a statement belongs to a write's transaction.
 */
export function executeInUnit(sql: string, values: readonly (string | null)[]): Promise<number> {
  const unit = openUnit();
  if (!unit) return Promise.reject(new Error('executeInUnit: no open unit of work (a statement of a write must be in its transaction)'));
  return unit.tx.executeRaw({ sql, args: [...values], argTypes: values.map(argType) });
}

/** The client a read of the rules uses: the unit's transaction inside one, else `prisma`. */
export function clientOf(prisma: PrismaClient): PrismaClient | Prisma.TransactionClient {
  return openUnit()?.db ?? prisma;
}

/** The read path's reader: inside a unit its statements go through the unit's transaction, else through `outside`. */
export function unitAware(outside: RowReader, onQuery?: OnQuery): RowReader {
  return {
    sortIndexes: outside.sortIndexes,
    read(statement) {
      const unit = openUnit();
      return unit ? adapterReader(unit.tx, outside.sortIndexes, onQuery).read(statement) : outside.read(statement);
    },
  };
}
