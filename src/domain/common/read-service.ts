import { includeOf, whereId, whereIdIn, type ModelDelegate, type ModelName } from '../../db/query/model';
import { notFound } from '../../errors/catalogue';
import type { FieldCatalog, RelationCatalog } from '../../query/fields';
import type { Expansion } from '../../query/filter-tree';
import { expansionInclude, listRecords, type ListOptions, type ListQuery, type Page } from './list';
import { parseId } from './validate';

/**
 * Read access every resource shares: list with the neutral query, one by id, many by ids
 * (batching). T is the record as the delegate returns it.
 */
export class ReadService<M extends ModelName, T extends { id: string }> {
  constructor(
    protected readonly delegate: ModelDelegate<M, T>,
    readonly fields: FieldCatalog,
    private readonly label: string,
    /** Read list pages through page-sql (listRecords), with the source's relations inside. */
    private readonly page?: ListOptions<M>['page'],
    /** The relations REST's $expand may name. */
    readonly relations: RelationCatalog = {},
  ) {}

  list(q: ListQuery): Promise<Page<T>> {
    return listRecords(this.delegate, this.fields, q, { page: this.page, relations: this.relations });
  }

  /** One record by id; `expand` adds relations inside it (REST $expand). */
  async get(rawId: string, expand?: readonly Expansion[]): Promise<T> {
    const id = parseId(rawId);
    const include = expansionInclude(expand, this.relations);
    const found = await this.delegate.findUnique({ where: whereId<M>(id), ...(include ? { include: includeOf<M>(include) } : {}) });
    if (!found) throw notFound(this.label, id);
    return found;
  }

  /** For batching (GraphQL): the records with these ids, in no particular order. */
  async getMany(ids: readonly string[]): Promise<T[]> {
    return this.delegate.findMany({ where: whereIdIn<M>(ids) });
  }
}
