import type { Prisma } from '../../generated/prisma/client';
import type { FieldCatalog } from '../../query/fields';
import type { FilterNode, SortKey } from '../../query/filter-tree';
import { cursorToWhere } from './keyset';
import { toPrismaOrderBy, toPrismaWhere } from './to-prisma';

// Prisma's own types for the queries the generic list and read code sends to any model.
// A model delegate (prisma.account, ...) is assignable to ModelDelegate<'Account', Account>,
// so services hand their delegates over typed, and records come back typed.

export type ModelName = Prisma.ModelName;
type Operations<M extends ModelName> = Prisma.TypeMap['model'][M]['operations'];

export type WhereOf<M extends ModelName> = NonNullable<Operations<M>['findMany']['args']['where']>;
export type WhereUniqueOf<M extends ModelName> = Operations<M>['findUnique']['args']['where'];
export type OrderByOf<M extends ModelName> = NonNullable<Operations<M>['findMany']['args']['orderBy']>;

/** Relations to read inside the records (REST $expand, a read view's own inclusions). */
export type IncludeOf<M extends ModelName> = NonNullable<Operations<M>['findMany']['args'] extends { include?: infer I } ? I : never>;
export interface FindManyArgs<M extends ModelName> {
  readonly where?: WhereOf<M>;
  readonly include?: IncludeOf<M>;
  readonly orderBy?: OrderByOf<M>;
  readonly skip?: number;
  readonly take?: number;
}

/** The slice of a model delegate that listing and reading by id need; R is the record as returned. */
export interface ModelDelegate<M extends ModelName, R> {
  findMany(args: FindManyArgs<M>): PromiseLike<R[]>;
  findUnique(args: { readonly where: WhereUniqueOf<M>; readonly include?: IncludeOf<M> }): PromiseLike<R | null>;
  count(args: { readonly where?: WhereOf<M> }): PromiseLike<number>;
}

/** What the ids of a page are read with (src/domain/common/list.ts): a model delegate is one. */
export interface IdDelegate<M extends ModelName> {
  findMany(args: IdsArgs<M>): PromiseLike<Array<{ id: string }>>;
}
export type IdsArgs<M extends ModelName> = Omit<FindManyArgs<M>, 'include'> & { readonly select: { readonly id: true } };

/** A page's findMany reading only the ids. */
export const idsArgs = <M extends ModelName>({ where, orderBy, skip, take }: FindManyArgs<M>): IdsArgs<M> => ({ where, orderBy, skip, take, select: { id: true } });

// The neutral query compiles to plain objects keyed by the catalogue's field names
// (to-prisma.ts, keyset.ts). They become a model's where and orderBy types here, and only
// here: test/domain/drift.test.ts proves each catalogue lists exactly its model's scalar
// fields with their types, which is what makes these objects valid for that model.

/** What one page of a list asks the database. */
export interface PageQuery {
  readonly filter: FilterNode | undefined;
  readonly orderBy: readonly SortKey[];
  readonly after: string | undefined;
  readonly offset: number;
  /** Rows to fetch (one more than the page size tells whether more follow). */
  readonly take: number;
}

/** The arguments of the page's findMany and of the count over the whole filter. */
export function pageArgs<M extends ModelName>(fields: FieldCatalog, q: PageQuery): { find: FindManyArgs<M>; count: { where: WhereOf<M> } } {
  const where = toPrismaWhere(q.filter, fields);
  const pageWhere = q.after ? { AND: [where, cursorToWhere(q.after, q.orderBy, fields)] } : where;
  return {
    find: { where: pageWhere, orderBy: toPrismaOrderBy(q.orderBy, fields), skip: q.offset, take: q.take },
    count: { where },
  };
}

/** Every model's id is a uuid primary key. */
export const whereId = <M extends ModelName>(id: string): WhereUniqueOf<M> => ({ id });
export const whereIdIn = <M extends ModelName>(ids: readonly string[]): WhereOf<M> => ({ id: { in: [...ids] } });

/** An include built from the relation catalogue (list.ts expansionInclude) as a model's include type: the catalogue's relations are the model's (test/rest/odata/interop.test.ts expands each). */
export const includeOf = <M extends ModelName>(include: Record<string, unknown>): IncludeOf<M> => include as IncludeOf<M>;
