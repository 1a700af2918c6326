import type { Principal } from '../auth/principal';
import type { ChangeEntry } from '../domain/change-log/service';
import type { Services } from '../domain/services';
import type { Logger } from '../http/logger';
import type { CostBudget } from './limits';
import type { Loaders } from './loaders';

/** What every resolver gets: the caller, the one service layer, this request's DataLoaders. */
export interface GraphqlContext {
  readonly principal: Principal;
  readonly services: Services;
  readonly loaders: Loaders;
  /** This request's logger (it carries the request id). */
  readonly log: Logger;
  /** The request id (X-Request-Id), recorded with the change-log entries of mutations. */
  readonly requestId?: string | undefined;
  /** HTTP only: the cost the request's operations have used so far (a batch shares one limit). */
  readonly budget?: CostBudget;
  /** Subscriptions only (./subscriptions.ts): the change log after a cursor, then live. */
  readonly live?: LiveChanges;
}

/** What the `changes` subscription reads (src/events/live.ts provides it; main.ts wires it). */
export interface LiveChanges {
  follow(o: { readonly after: bigint | undefined; readonly resource: string | undefined }): AsyncIterableIterator<ChangeEntry>;
}
