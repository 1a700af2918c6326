// What src/db assumes of Prisma Client 6 and @prisma/adapter-pg 7 beyond their documented
// API, in one place. test/tooling/library-internals.test.ts holds each assumption to the
// installed packages, so an upgrade that breaks one fails that test; the versions are pinned
// exactly in package.json.

import type { PrismaPg } from '@prisma/adapter-pg';

export type PgAdapter = Awaited<ReturnType<PrismaPg['connect']>>;
export type SqlQuery = Parameters<PgAdapter['queryRaw']>[0];
export type ResultSet = Awaited<ReturnType<PgAdapter['queryRaw']>>;

/**
 * 1. The object a driver adapter's connect() gives Prisma Client answers every statement
 *    outside a transaction through its own `queryRaw` property, which Prisma Client looks up
 *    at each call: replacing it routes those statements (src/db/replicas.ts sends plain
 *    reads to a replica). Statements of a transaction go through the transaction's object.
 */
export function routeStatements(
  adapter: PgAdapter,
  route: (q: SqlQuery, here: (q: SqlQuery) => Promise<ResultSet>) => Promise<ResultSet>,
): void {
  const here = adapter.queryRaw.bind(adapter);
  adapter.queryRaw = (q) => route(q, here);
}

/**
 * 2. Prisma Client's models are properties named as the model in camelCase (`paymentSource`),
 *    each an object of methods; these read and every other method of a model writes. A
 *    Proxy over the client may answer the model properties with objects of its own.
 */
export const READ_METHODS: ReadonlySet<PropertyKey> = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'count',
  'aggregate',
  'groupBy',
]);

/** A model method of a client (2.), called on that client's model. */
export function callModel(client: object, model: PropertyKey, method: PropertyKey, args: unknown[]): unknown {
  const delegate: unknown = Reflect.get(client, model);
  if (typeof delegate !== 'object' || delegate === null) throw new Error(`Prisma Client has no model ${String(model)}`);
  const fn: unknown = Reflect.get(delegate, method);
  if (typeof fn !== 'function') throw new Error(`Prisma Client's ${String(model)} has no method ${String(method)}`);
  return Reflect.apply(fn, delegate, args);
}

/** A transaction as a driver adapter opens it: its statements go through its own queryRaw. */
export type AdapterTransaction = Awaited<ReturnType<PgAdapter['startTransaction']>>;

/**
 * 3. Prisma Client (engine type "client") opens an interactive transaction (`$transaction`
 *    with a function) by calling `startTransaction()` of the adapter object its factory's
 *    connect() gave it, looked up when it connects (so a replacement must be in place before
 *    connect() returns), and in the async context of the `$transaction` call: an
 *    AsyncLocalStorage store around the call is the store inside startTransaction. Every
 *    statement of that transaction then goes through the transaction object it returned.
 *    `heard` is told each such object (src/db/unit-of-work.ts reads through it).
 */
export function hearTransactions<
  Tx,
  A extends { startTransaction(isolationLevel?: never): Promise<Tx> },
  F extends { connect(): Promise<A> },
>(factory: F, heard: (tx: Tx) => void): F {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel?: never) => {
      const tx = await start(isolationLevel);
      heard(tx);
      return tx;
    };
    return adapter;
  };
  return factory;
}
