import { resourceServices } from './__generated__/services';
import { ChangeLogService } from './change-log/service';
import type { ServiceDeps } from './context';
import type { ResourcePlural } from './resources';
import { PricingService } from './pricing/service';

/**
 * The one service layer both doors call: each resource's service under its declaration's
 * `plural` (the doors find it there; the build collects them from the resource folders), and
 * the pricing and change-log services.
 */
export function createServices(deps: ServiceDeps) {
  return {
    ...resourceServices(deps),
    pricing: new PricingService(deps),
    changeLog: new ChangeLogService(deps),
  } satisfies Record<ResourcePlural | 'pricing' | 'changeLog', object>;
}

export type Services = ReturnType<typeof createServices>;
