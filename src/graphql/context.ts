import type { Principal } from '../auth/principal';
import type { Services } from '../domain/services';
import type { Logger } from '../http/logger';
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
}
