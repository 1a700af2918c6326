import type { PrismaPg } from '@prisma/adapter-pg';
import type { SortIndexes } from './read/indexes';
import type { Statement } from './read/sql';

// Every read (./read/compile.ts) goes to the database through the Prisma driver
// adapter that Prisma Client itself sends every statement through: the same pool, the same
// prepared-statement names, the same DriverAdapterError for a failure (./errors.ts reads
// it). What they skip is Prisma Client's raw-query path, which re-encodes every value of
// the result twice before handing it over. Measured on GraphQL's 50 articles with their
// prices (10 connections, CPU of the server process from /proc): 1.97 ms per request through
// $queryRaw, 1.44-1.51 ms through the adapter; nothing else changed.

type PgAdapter = Awaited<ReturnType<PrismaPg['connect']>>;
type SqlQuery = Parameters<PgAdapter['queryRaw']>[0];
type ArgType = SqlQuery['argTypes'][number];

/** What a hot read needs of a driver adapter; both adapters (PostgreSQL, PGlite) have it. */
export interface Queryable {
  queryRaw(query: SqlQuery): Promise<{ readonly columnNames: readonly string[]; readonly rows: ReadonlyArray<readonly unknown[]> }>;
}

/** A result: each row's values in the order of the column names. */
export interface RowSet {
  readonly columnNames: readonly string[];
  readonly rows: ReadonlyArray<readonly unknown[]>;
}

/**
 * Told each statement sent: its text, and for a RowReader's its values too (Prisma Client
 * reports its own as text only). Tests count statements; npm run bench:plans explains them.
 */
export type OnQuery = (sql: string, values?: readonly unknown[]) => void;

/** Runs one parameterised SELECT (values as parameters, never as text) on a database whose sort indexes it knows. */
export interface RowReader {
  read(statement: Statement): Promise<RowSet>;
  /** The database's indexes, as orders they give (./read/indexes.ts): the statements' shape depends on them. */
  readonly sortIndexes: SortIndexes;
}

/** Parameter types as the adapters want them: numbers are integers here (limit, offset); values are text, booleans or lists of them. */
export function argType(value: unknown): ArgType {
  if (Array.isArray(value)) return { scalarType: 'string', arity: 'list' };
  return { scalarType: typeof value === 'number' ? 'int' : 'string', arity: 'scalar' };
}

/** A RowReader on a connected driver adapter; onQuery hears each statement. */
export function adapterReader(adapter: Queryable, sortIndexes: SortIndexes, onQuery?: OnQuery): RowReader {
  return {
    sortIndexes,
    read(statement) {
      const sql = statement.text;
      onQuery?.(sql, statement.values);
      const args = [...statement.values];
      return adapter.queryRaw({ sql, args, argTypes: args.map(argType) });
    },
  };
}

/** Reads through `replica` when the current request's read scope allows it, else through `primary`. */
export function routedReader(primary: RowReader, replica: RowReader, replicaReadsAllowed: () => boolean): RowReader {
  // A replica has the primary's schema.
  return { sortIndexes: primary.sortIndexes, read: (statement) => (replicaReadsAllowed() ? replica : primary).read(statement) };
}
