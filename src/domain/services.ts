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
 * The ETag of a record as its single-record read gives it to this caller (a customer with its
 * addresses, as REST returns it; without personal fields unless `personalData`), for a door
 * holding only part of it.
 */
export async function currentEtag(s: Services, model: ResourceModel, id: string, personalData: boolean): Promise<string> {
  const access = { personalData };
  return etagOf(
    model === 'Customer' ? await s.customers.withAddresses.get(id, undefined, access) : await s.readers[model].get(id, undefined, access),
  );
}
