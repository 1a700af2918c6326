import { Client, Pool, type PoolConfig, type QueryConfig } from 'pg';
import { isAdapterStatement, isBareBegin, isQueryConfig, passOn, statementText } from './pg-internals';

// The pool for a transaction-mode pooler (DB_POOLER=transaction: PgBouncer, a managed
// database's pooler). Such a pooler lends a server connection for one transaction and may
// refuse startup parameters it does not know (PgBouncer 1.18: "unsupported startup
// parameter: statement_timeout"), so the time limits cannot be session settings: each
// transaction carries them as SET LOCAL, sent in the same message as its BEGIN, and a
// statement outside a transaction is sent as one (BEGIN + limits, the statement, COMMIT,
// pipelined). The pooler forwards all three to the one server connection it lends for the
// transaction.

/** The server-side limits a transaction carries. */
export interface TransactionLimits {
  readonly statementTimeoutMs: number;
  readonly idleInTransactionMs: number;
}

const beginWith = (l: TransactionLimits): string =>
  `BEGIN; SET LOCAL statement_timeout = ${Math.trunc(l.statementTimeoutMs)}; SET LOCAL idle_in_transaction_session_timeout = ${Math.trunc(l.idleInTransactionMs)}`;

/** A single statement's transaction is sent whole, so it is never idle: only the statement's limit. */
const beginStatementWith = (l: TransactionLimits): string => `BEGIN; SET LOCAL statement_timeout = ${Math.trunc(l.statementTimeoutMs)}`;

// node-postgres' query() has a dozen overloads; the overrides below pass them through (their
// result as `any`). What they assume of pg and of Prisma's adapter: ./pg-internals.ts.

/** A pg Client whose BEGIN (Prisma's interactive transactions send a bare one) also sets the limits. */
function limitedClient(limits: TransactionLimits): typeof Client {
  const begin = beginWith(limits);
  return class LimitedClient extends Client {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one signature over all of query()'s overloads must return what each of them does
    override query(...args: unknown[]): any {
      const [first] = args;
      const text = statementText(first);
      // Unnamed and without values, so it goes as one simple-protocol message (a named or
      // parameterised statement cannot hold three commands).
      if (text !== undefined && isBareBegin(text))
        args[0] = isQueryConfig(first) ? { ...first, text: begin, name: undefined, values: undefined } : begin;
      return passOn(super.query.bind(this), args);
    }
  };
}

/** A pool whose single statements (Prisma's reads, the row reader's pages) run as transactions with the limits. */
class LimitedPool extends Pool {
  constructor(
    config: PoolConfig,
    private readonly begin: string,
  ) {
    super(config);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one signature over all of query()'s overloads must return what each of them does
  override query(...args: unknown[]): any {
    // The driver adapter's form: one QueryConfig, a promise back. Callback forms (pool
    // internals, health probes) pass through unchanged.
    if (isAdapterStatement(args)) return this.inTransaction(args[0]);
    return passOn(super.query.bind(this), args);
  }

  private async inTransaction(config: QueryConfig): Promise<unknown> {
    const client = await this.connect();
    // The pool's clients pipeline (node-postgres' `pipeline` option): BEGIN with the limits,
    // the statement and COMMIT leave together and cost one round trip, not three. A failed
    // statement aborts the transaction, and the COMMIT queued behind it then ends it as a
    // ROLLBACK (no error), so the server connection goes back to the pooler idle either way.
    const [begun, result, committed] = await Promise.allSettled([client.query(this.begin), client.query(config), client.query('COMMIT')]);
    // A COMMIT that did not answer, or failed, leaves the connection in doubt: it is closed, not reused.
    client.release(committed.status === 'rejected' ? toError(committed.reason) : undefined);
    for (const step of [begun, result, committed]) if (step.status === 'rejected') throw step.reason;
    return result.status === 'fulfilled' ? result.value : undefined;
  }
}

const toError = (reason: unknown): Error => (reason instanceof Error ? reason : new Error(String(reason)));

/** A pool for DATABASE_URL behind a transaction-mode pooler; without limits a plain pool. */
export function transactionPool(config: PoolConfig, limits: TransactionLimits | undefined): Pool {
  if (!limits) return new Pool(config);
  return new LimitedPool({ ...config, Client: limitedClient(limits), pipeline: true }, beginStatementWith(limits));
}
