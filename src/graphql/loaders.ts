// Per-request DataLoaders: every relation of the schema is read with ONE query per batch
// (the services' getMany, and byParents with the relation's declaration), so a page of N parents with a relation
// costs a constant number of SQL queries, not N (docs/service.md "GraphQL shape"). Loaders are made
// lazily: a request builds only the ones its query needs. Each lives for one request, so
// its cache never serves another caller or a later write.

import DataLoader from 'dataloader';
import type { ChangeEntry } from '../domain/change-log/service';
import type { LoggedResource } from '../domain/change-log/append';
import type { RelationMany } from '../domain/common/declaration';
import type { Services } from '../domain/services';
import { RESOURCES, type ResourceModel } from '../domain/resources';
import type { GraphModel } from './models';
import type { EffectivePrice } from '../domain/pricing/service';

interface PriceAtKey {
  readonly articleId: string;
  readonly date: Date;
}

/** What the loaders read through a resource's service (src/domain/common/read-service.ts). */
interface RecordReads<T> {
  getMany(ids: readonly string[]): Promise<T[]>;
  byParents(relation: RelationMany, parentIds: readonly string[]): Promise<Map<string, T[]>>;
}

/**
 * The service of a model's resource. The services are keyed by plural, which the types do
 * not tie back to the model; each reads its own resource's records (its ReadService
 * declaration), which is what the cast says.
 */
const readsOf = <M extends ResourceModel>(s: Services, model: M): RecordReads<GraphModel<M>> => s[RESOURCES[model].plural] as RecordReads<GraphModel<M>>;

/** One record per id (null for an unknown id), in the order of the keys. */
function byId<T extends { id: string }>(fetch: (ids: readonly string[]) => Promise<T[]>): DataLoader<string, T | null> {
  return new DataLoader<string, T | null>(async (ids) => {
    const rows = await fetch(ids);
    const found = new Map<string, T>();
    for (const r of rows) found.set(r.id, r);
    return ids.map((id) => found.get(id) ?? null);
  });
}

/** All records per parent id (an empty list for a parent without any), in the relation's order. */
function byParent<T>(fetch: (ids: readonly string[]) => Promise<Map<string, T[]>>): DataLoader<string, T[]> {
  return new DataLoader<string, T[]>(async (ids) => {
    const groups = await fetch(ids);
    return ids.map((id) => groups.get(id) ?? []);
  });
}

/** Rows by a key, in the order given. */
function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const r of rows) {
    const list = groups.get(key(r));
    if (list) list.push(r);
    else groups.set(key(r), [r]);
  }
  return groups;
}

export class Loaders {
  constructor(private readonly s: Services) {}

  #records = new Map<ResourceModel, DataLoader<string, unknown>>();
  #children = new Map<RelationMany, DataLoader<string, unknown[]>>();
  #priceAt?: DataLoader<PriceAtKey, EffectivePrice | null, string>;
  #history?: Map<LoggedResource, DataLoader<string, ChangeEntry[]>>;

  /** Records of a resource by id (every field; the single field and every to-one relation use it). */
  record<M extends ResourceModel>(model: M): DataLoader<string, GraphModel<M> | null> {
    let loader = this.#records.get(model);
    if (!loader) this.#records.set(model, (loader = byId((ids) => readsOf(this.s, model).getMany(ids))));
    // The map holds, under each model, the loader made just above for that model.
    return loader as DataLoader<string, GraphModel<M> | null>;
  }

  /** The records of a to-many relation per parent id, in the relation's declared order. */
  children<M extends ResourceModel>(relation: RelationMany<M>): DataLoader<string, GraphModel<M>[]> {
    let loader = this.#children.get(relation);
    if (!loader) this.#children.set(relation, (loader = byParent((ids) => readsOf(this.s, relation.target).byParents(relation, ids))));
    // As in record(): the loader made for this relation, reading its target's records.
    return loader as DataLoader<string, GraphModel<M>[]>;
  }

  /** The `history` field of a resource's records: their change-log entries, oldest first. */
  history(resource: LoggedResource): DataLoader<string, ChangeEntry[]> {
    const loaders = (this.#history ??= new Map<LoggedResource, DataLoader<string, ChangeEntry[]>>());
    let loader = loaders.get(resource);
    if (!loader) loaders.set(resource, (loader = byParent(async (ids) => groupBy(await this.s.changeLog.historyOf(resource, ids), (e) => e.recordId))));
    return loader;
  }

  /** Article.priceAt: the effective price of (article, date), through the pricing service's batched pricesAt. */
  get priceAt() {
    return (this.#priceAt ??= new DataLoader<PriceAtKey, EffectivePrice | null, string>((keys) => this.s.pricing.pricesAt(keys), {
      cacheKeyFn: (k) => `${k.articleId}|${k.date.getTime()}`,
    }));
  }
}
