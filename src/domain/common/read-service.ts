import type { FieldCatalog } from '../../query/fields';
import { notFound } from '../../errors/catalogue';
import { includeOf, type PageSource } from '../../db/query/page-sql';
import { listRecords, type ListableDelegate, type ListQuery, type Page } from './list';
import { parseId } from './validate';

/** The slice of a Prisma delegate a read-only resource needs. */
export interface ReadableDelegate extends ListableDelegate {
  findUnique(args: object): Promise<unknown>;
}

/**
 * Read access shared by the read-only resources (accounts, articles, customers, tax
 * codes, academic terms): list with the neutral query, one by id, many by ids (batching).
 */
export class ReadService<T extends { id: string }> {
  private readonly include: Record<string, unknown> | undefined;

  /** `page`: read plain list pages as one statement (ListOptions.page), with these relations inside the records. */
  constructor(
    protected readonly delegate: ReadableDelegate,
    readonly fields: FieldCatalog,
    private readonly label: string,
    private readonly page?: PageSource,
  ) {
    this.include = page && includeOf(page.relations);
  }

  list(q: ListQuery): Promise<Page<T>> {
    return listRecords<T>(this.delegate, this.fields, q, { ...(this.include ? { include: this.include } : {}), ...(this.page ? { page: this.page } : {}) });
  }

  async get(rawId: string): Promise<T> {
    const id = parseId(rawId);
    const found = (await this.delegate.findUnique({ where: { id }, ...(this.include ? { include: this.include } : {}) })) as T | null;
    if (!found) throw notFound(this.label, id);
    return found;
  }

  async find(id: string): Promise<T | null> {
    return (await this.delegate.findUnique({ where: { id } })) as T | null;
  }

  getMany(ids: readonly string[]): Promise<T[]> {
    return this.delegate.findMany({ where: { id: { in: [...ids] } } }) as Promise<T[]>;
  }
}
