import { includeOf, whereId, whereIdIn, type ModelDelegate, type ModelName } from '../../db/query/model';
import { readPage } from '../../db/query/page-sql';
import { notFound } from '../../errors/catalogue';
import type { FieldCatalog, RelationCatalog } from '../../query/fields';
import type { Expansion } from '../../query/filter-tree';
import { expansionInclude, listRecords, type ListOptions, type ListQuery, type Page } from './list';
import { parseId } from './validate';

const BY_ID = [{ id: 'asc' }] as const;

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

  /**
   * For batching (GraphQL): the records with these ids, in no particular order. With a page
   * source, one statement through the page reader, as list pages are read (Prisma's engine
   * cost 1.4-1.6 ms of server CPU more for a dozen tax codes).
   */
  async getMany(ids: readonly string[]): Promise<T[]> {
    if (!this.page) return this.delegate.findMany({ where: whereIdIn<M>(ids) });
    // The rows have the delegate's shape (test/db/query/page-sql.test.ts compares them).
    return (await readPage(this.page.source, { fields: this.fields, orderBy: BY_ID, window: { ids } })).rows as T[];
  }
}
