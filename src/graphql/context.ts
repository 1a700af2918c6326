import type { Principal } from '../auth/principal';
import type { Services } from '../domain/services';
import type { Loaders } from './loaders';

/** What every resolver gets: the caller, the one service layer, this request's DataLoaders. */
export interface GraphqlContext {
  readonly principal: Principal;
  readonly services: Services;
  readonly loaders: Loaders;
}
