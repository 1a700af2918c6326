import { unitOfWork } from '../db/unit-of-work';
import { resourceServices } from './__generated__/services';
import { ChangeLogService } from './change-log/service';
import type { ReadService } from './common/read-service';
import type { ServiceDeps } from './context';
import type { RecordWriter } from './maintenance/write-service';
import { etagOf } from './common/etag';
import { PricingService } from './pricing/service';
import type { RESOURCES, ResourceModel, ResourcePlural } from './resources';

/**
 * What every resource's service reads, by model: its records, typed by its declaration. The
 * doors that pick a service by a model they hold in a variable (GraphQL's loaders and list
 * fields) look it up here and get that type, without a cast.
 */
export type ResourceReaders = { readonly [M in ResourceModel]: ReadService<(typeof RESOURCES)[M]['fields']> };

/** The reference data written through the common write path (billing.maintain), by model: the resources whose folder has a writes.ts. */
export type ResourceWriters = Partial<Readonly<Record<ResourceModel, RecordWriter>>>;

/**
 * The one service layer both doors call: each resource's service under its declaration's
 * `plural` (the doors find it there; the build collects them from the resource folders) and
 * by model (`readers`), the pricing and change-log services, and units of work.
 */
export function createServices(deps: ServiceDeps) {
  const { byModel, byPlural, writers } = resourceServices(deps);
  const readers: ResourceReaders = byModel;
  const maintained: ResourceWriters = writers;
  return {
    ...byPlural,
    readers,
    writers: maintained,
    pricing: new PricingService(deps),
    changeLog: new ChangeLogService(deps),
    /**
     * Runs `work` as one unit of work: every write and read of the services inside it in one
     * transaction, all kept or none (`work` throws: nothing is kept). Nested units join the
     * outer one. A GraphQL operation's mutations and a $batch change set are each one.
     */
    unitOfWork: <T>(work: () => Promise<T>): Promise<T> => unitOfWork(deps.prisma, work),
  } satisfies Record<ResourcePlural | 'readers' | 'writers' | 'pricing' | 'changeLog' | 'unitOfWork', object>;
}

export type Services = ReturnType<typeof createServices>;

/**
 * The ETags of records as their single-record reads give them to this caller (a customer with
 * its addresses, as REST returns it; without personal fields unless `personalData`), for a
 * door holding only part of them: one read for all of them (GraphQL's `etag` of a page's
 * records), by id; an id without a record has none.
 */
export async function currentEtags(
  s: Services,
  model: ResourceModel,
  ids: readonly string[],
  personalData: boolean,
): Promise<Map<string, string>> {
  const records =
    model === 'Customer'
      ? await s.customers.withAddresses.getManyFor(ids, personalData)
      : await s.readers[model].getManyFor(ids, personalData);
  return new Map(records.map((r) => [r.id, etagOf(r)]));
}
