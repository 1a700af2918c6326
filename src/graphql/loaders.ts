// Per-request DataLoaders: every relation of the schema is read with ONE query per batch
// (the services' getMany, and byParents with the relation's declaration), so a page of N parents with a relation
// costs a constant number of SQL queries, not N (docs/service.md "GraphQL shape"). Loaders are made
// lazily: a request builds only the ones its query needs. Each lives for one request, so
// its cache never serves another caller or a later write.

import DataLoader from 'dataloader';
import type { ChangeEntry } from '../domain/change-log/service';
import type { LoggedResource } from '../domain/change-log/append';
import type { RelationMany } from '../domain/common/declaration';
import { currentEtags, type Services } from '../domain/services';
import type { ResourceModel } from '../domain/resources';
import type { GraphModel } from './models';
import type { EffectivePrice } from '../domain/pricing/service';
import type { EntityKey } from './federation';
import type { Selection } from './resolvers/selection';

interface PriceAtKey {
  readonly articleId: string;
  readonly date: Date;
}

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

export class Loaders {
  constructor(private readonly s: Services) {}

  #records: { [M in ResourceModel]?: DataLoader<string, GraphModel<M> | null> } = {};
  /** Per target model, the loaders of each relation to its records. */
  #children: { [M in ResourceModel]?: Map<RelationMany, DataLoader<string, GraphModel<M>[]>> } = {};
  #priceAt?: DataLoader<PriceAtKey, EffectivePrice | null, string>;
  #history?: Map<LoggedResource, DataLoader<string, ChangeEntry[]>>;
  #etags = new Map<string, DataLoader<string, string | null>>();
  /** Entity loaders (`_entities`) by model and key field (`Customer.id`), and selection (one per type in an operation). */
  #entities = new Map<string, WeakMap<Selection, DataLoader<string, unknown>>>();

  /** The ETags of a resource's records as this caller reads them (`etag` of every record of a page: one read). */
  etag(model: ResourceModel, personalData: boolean): DataLoader<string, string | null> {
    const name = `${model}.${personalData}`;
    let loader = this.#etags.get(name);
    if (!loader) {
      // Batched, not cached: mutation fields of one operation run one after the other, and a
      // later one's answer must carry the ETag after its own write.
      loader = new DataLoader<string, string | null>(
        async (ids) => {
          const etags = await currentEtags(this.s, model, ids, personalData);
          return ids.map((id) => etags.get(id) ?? null);
        },
        { cache: false },
      );
      this.#etags.set(name, loader);
    }
    return loader;
  }

  /** Records of a resource by id (every field; the single field and every to-one relation use it). */
  record<M extends ResourceModel>(model: M): DataLoader<string, GraphModel<M> | null> {
    const made: DataLoader<string, GraphModel<M> | null> | undefined = this.#records[model];
    if (made) return made;
    const loader = byId<GraphModel<M>>((ids) => this.s.readers[model].getMany(ids));
    this.#records[model] = loader;
    return loader;
  }

  /**
   * Records of a resource by a key (federation's `_entities`: ./federation.ts), each with what
   * `selection` reads (only what the operation selects: resolvers pass them on as the single
   * field's getSelected does), null for a key no record has. The values come canonical (a UUID
   * in lower case, a code that ignores case in lower case). The loads of one operation's
   * representations of a type are one read.
   */
  entity(model: ResourceModel, key: EntityKey, selection: Selection, personalData: boolean): DataLoader<string, unknown> {
    const name = `${model}.${key.field}`;
    let bySelection = this.#entities.get(name);
    if (!bySelection) this.#entities.set(name, (bySelection = new WeakMap<Selection, DataLoader<string, unknown>>()));
    let loader = bySelection.get(selection);
    if (loader) return loader;
    loader = new DataLoader<string, unknown>(async (values) => {
      const rows = await this.s.readers[model].getSelectedByKey(key.field, values, selection.select, selection.include, personalData);
      const found = new Map<string, unknown>();
      for (const row of rows) {
        const value = String(Object.getOwnPropertyDescriptor(row, key.field)?.value);
        found.set(key.ignoresCase ? value.toLowerCase() : value, row);
      }
      return values.map((v) => found.get(v) ?? null);
    });
    bySelection.set(selection, loader);
    return loader;
  }

  /** The records of a to-many relation per parent id, in the relation's declared order. */
  children<M extends ResourceModel>(relation: RelationMany<M>): DataLoader<string, GraphModel<M>[]> {
    let loaders: Map<RelationMany, DataLoader<string, GraphModel<M>[]>> | undefined = this.#children[relation.target];
    if (!loaders) {
      loaders = new Map<RelationMany, DataLoader<string, GraphModel<M>[]>>();
      this.#children[relation.target] = loaders;
    }
    let loader = loaders.get(relation);
    if (!loader)
      loaders.set(relation, (loader = byParent<GraphModel<M>>((ids) => this.s.readers[relation.target].byParents(relation, ids))));
    return loader;
  }

  /** The `history` field of a resource's records: their change-log entries, oldest first. */
  history(resource: LoggedResource): DataLoader<string, ChangeEntry[]> {
    const loaders = (this.#history ??= new Map<LoggedResource, DataLoader<string, ChangeEntry[]>>());
    let loader = loaders.get(resource);
    if (!loader) loaders.set(resource, (loader = byParent((ids) => this.s.changeLog.historyOf(resource, ids))));
    return loader;
  }

  /** Article.priceAt: the effective price of (article, date), through the pricing service's batched pricesAt. */
  get priceAt() {
    return (this.#priceAt ??= new DataLoader<PriceAtKey, EffectivePrice | null, string>((keys) => this.s.pricing.pricesAt(keys), {
      cacheKeyFn: (k) => `${k.articleId}|${k.date.getTime()}`,
    }));
  }
}
