import { AsyncLocalStorage } from 'node:async_hooks';

// Where the reads of one request may be answered. With read replicas configured, the doors
// open a scope per request: a request that writes, or whose caller must see its own recent
// writes, reads from the primary; any other request's reads may go to a replica. The
// database layer asks replicaReadsAllowed() for every statement outside a transaction.
// Outside any scope (start-up, the import, tests of the services) everything stays on the
// primary.

export interface ReadScope {
  /** Set once the request turns out to write (a GraphQL mutation is known only after parsing). */
  primaryOnly: boolean;
}

const storage = new AsyncLocalStorage<ReadScope>();

export function runInReadScope<T>(scope: ReadScope, fn: () => T): T {
  return storage.run(scope, fn);
}

export const currentReadScope = (): ReadScope | undefined => storage.getStore();

/** True when the current statement may be answered by a replica. */
export function replicaReadsAllowed(): boolean {
  const scope = storage.getStore();
  return scope !== undefined && !scope.primaryOnly;
}
