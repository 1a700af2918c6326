import { whereId, whereIdIn, type ModelDelegate, type ModelName } from '../../db/query/model';
import { notFound } from '../../errors/catalogue';
import type { FieldCatalog } from '../../query/fields';
import type { PageSource } from '../../db/query/page-sql';
import { listRecords, type ListQuery, type Page } from './list';
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
    /** Read plain list pages as one statement (listRecords), with these relations inside. */
    private readonly page?: PageSource,
  ) {}

  list(q: ListQuery): Promise<Page<T>> {
    return listRecords(this.delegate, this.fields, q, this.page);
  }

  async get(rawId: string): Promise<T> {
    const id = parseId(rawId);
    const found = await this.delegate.findUnique({ where: whereId<M>(id) });
    if (!found) throw notFound(this.label, id);
    return found;
  }

  /** For batching (GraphQL): the records with these ids, in no particular order. */
  async getMany(ids: readonly string[]): Promise<T[]> {
    return this.delegate.findMany({ where: whereIdIn<M>(ids) });
  }
}
