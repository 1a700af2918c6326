import { countRecords, readRecords, readRelated, type RelationRead, type Values } from '../../db/read/compile';
import { cursorFilter, encodeCursor } from '../../db/read/keyset';
import { narrowByLexicons, type Lexicons } from '../../db/read/lexicon';
import type { Row } from '../../db/read/row';
import type { RowReader } from '../../db/row-reader';
import { notFound } from '../../errors/catalogue';
import { readableFields, type FieldCatalog } from '../../query/fields';
import { personalDataForbidden, personalFieldsNamed, type NamedFields } from '../../query/personal';
import { allOf, compare, isIn, uuid, type Expansion, type FilterNode } from '../../query/filter-tree';
import { resourceOf } from '../resources';
import type { ServiceDeps } from '../context';
import type { ListQuery, Page } from './list';
import type { RelationMany, Resource } from './declaration';
import { parseId } from './validate';
import { openCursor, sealCursor } from './sealing';

// Every read of every resource, for both doors, through the one compiled path
// (src/db/read/compile.ts): list pages, one record, many by id, relations of either
// direction. Which relations a read holds comes from the resource's declaration.

/** A record of the catalogue F, with the relations `Inline` a service always reads inside it. */
export type RecordOf<F extends FieldCatalog, Inline extends object = object> = Row<F> & Inline;

/** A record of which the caller selected some fields (GraphQL): the id always, the rest maybe. */
export type Selected<T> = Partial<T> & { id: string };

export interface ReadOptions {
  /** Relations read inside every record (REST's customers hold their addresses); an $expand of the same relation replaces them. */
  readonly inline?: readonly string[];
  /** Text filters on these fields look in a lexicon first (src/db/read/lexicon.ts). */
  readonly lexicons?: Lexicons;
}

/** The declaration of a relation's target; declarations name targets by model (src/domain/resources.ts). */
function targetOf(resource: Resource, name: string): Resource {
  const relation = Object.hasOwn(resource.relations, name) ? resource.relations[name] : undefined;
  const target = relation && resourceOf(relation.target);
  // Relation names come from the declarations (and the doors check clients' names against them).
  if (!relation || !target) throw new Error(`${resource.model} has no relation '${name}'`);
  return target;
}

/** How a relation is read inside records: declared order and fields unless an $expand says otherwise (without personal fields unless `personalData`). */
function relationRead(resource: Resource, e: Expansion, personalData: boolean): RelationRead {
  const relation = resource.relations[e.relation]!;
  const target = targetOf(resource, e.relation);
  const select = e.select ?? (personalData ? undefined : readableFields(target.fields, false));
  return { name: e.relation, relation, fields: target.fields, select, orderBy: e.orderBy, top: e.top };
}

export class ReadService<F extends FieldCatalog, Inline extends object = object> {
  readonly fields: F;
  private readonly rows: RowReader;

  constructor(
    deps: ServiceDeps,
    readonly resource: Resource<F>,
    private readonly options: ReadOptions = {},
  ) {
    this.fields = resource.fields;
    this.rows = deps.rows;
  }

  /**
   * The records as read: the statement reads exactly the catalogue's fields and the inline
   * relations, each value revived by its declared type (test/db/read/compiled.test.ts holds
   * them equal to findMany's records), which is what the type says.
   */
  private typed(values: Values): RecordOf<F, Inline> {
    return values as RecordOf<F, Inline>;
  }

  private relations(expand: readonly Expansion[] | undefined, include: readonly Expansion[] = [], personalData = true): RelationRead[] {
    const named = new Map<string, Expansion>();
    for (const name of this.options.inline ?? []) named.set(name, { relation: name });
    for (const e of [...include, ...(expand ?? [])]) named.set(e.relation, e);
    return [...named.values()].map((e) => relationRead(this.resource, e, personalData));
  }

  /**
   * FORBIDDEN when a caller without the personal-data scope names a personal field (filter,
   * order, selection, expansions), before anything is read: the answer is the same whether or
   * not a record matches. Once per read, on the query, never per record.
   */
  private checkPersonal(q: NamedFields & { readonly include?: readonly Expansion[] | undefined }, personalData: boolean | undefined): void {
    if (personalData !== false) return;
    const named = personalFieldsNamed(this.fields, { ...q, expand: [...(q.expand ?? []), ...(q.include ?? [])] }, (r) => targetOf(this.resource, r).fields);
    if (named.length > 0) throw personalDataForbidden(named);
  }

  /** The fields a read returns when the caller names none: every field, or the non-personal ones (ListQuery.personalData). */
  private defaultSelect(personalData: boolean | undefined): readonly string[] {
    return readableFields(this.fields, personalData !== false);
  }

  private async page(q: ListQuery, select: readonly string[]): Promise<{ rows: Values[]; totalCount: number | undefined; hasMore: boolean }> {
    this.checkPersonal(q, q.personalData);
    const sortKeys = q.orderBy ?? [];
    const filter = this.options.lexicons ? await narrowByLexicons(this.rows, this.options.lexicons, q.filter) : q.filter;
    const after = q.after ? cursorFilter(openCursor(q.after), sortKeys, this.fields) : undefined;
    const pageFilter = allOf(filter, after);
    const [rows, totalCount] = await Promise.all([
      readRecords(this.rows, {
        table: this.resource.model,
        fields: this.fields,
        select,
        filter: pageFilter,
        orderBy: sortKeys,
        window: { take: q.limit + 1, skip: q.offset ?? 0 },
        relations: this.relations(q.expand, q.include, q.personalData !== false),
      }),
      q.count ? countRecords(this.rows, this.resource.model, this.fields, filter) : undefined,
    ]);
    return { rows, totalCount, hasMore: rows.length > q.limit };
  }

  private pageOf<T extends object>(q: ListQuery, found: { rows: T[]; totalCount: number | undefined; hasMore: boolean }): Page<T> {
    const sortKeys = q.orderBy ?? [];
    return {
      items: found.hasMore ? found.rows.slice(0, q.limit) : found.rows,
      totalCount: found.totalCount,
      hasMore: found.hasMore,
      cursorOf: (item) => sealCursor(encodeCursor(sortKeys, item)),
    };
  }

  /** A page of records with every field the caller may read (`q.select` is checked, not applied: see listSelected). */
  async list(q: ListQuery): Promise<Page<RecordOf<F, Inline>>> {
    const found = await this.page(q, this.defaultSelect(q.personalData));
    return this.pageOf(q, { ...found, rows: found.rows.map((v) => this.typed(v)) });
  }

  /** A page of records holding the fields `q.select` names (all when absent), the id and the sort keys. */
  async listSelected(q: ListQuery): Promise<Page<Selected<RecordOf<F, Inline>>>> {
    const select = q.select ? [...new Set(['id', ...(q.orderBy ?? []).map((k) => k.field), ...q.select])] : this.defaultSelect(q.personalData);
    const found = await this.page(q, select);
    // What the statement read: the id and the selected fields, revived by type (as in typed()).
    return this.pageOf(q, { ...found, rows: found.rows.map((v) => v as Selected<RecordOf<F, Inline>>) });
  }

  /**
   * One record by id; `expand` adds relations inside it (REST $expand). `access` says what the
   * caller may see (ListQuery.personalData) and what it names (`select`, checked, not applied);
   * without it, every field.
   */
  async get(rawId: string, expand?: readonly Expansion[], access?: { readonly personalData: boolean; readonly select?: readonly string[] | undefined }): Promise<RecordOf<F, Inline>> {
    if (access) this.checkPersonal({ expand, select: access.select }, access.personalData);
    const id = parseId(rawId);
    const personalData = access?.personalData ?? true;
    const [found] = (await this.readValues(compare('id', 'eq', uuid(id)), expand, this.defaultSelect(personalData), personalData)).map((v) => this.typed(v));
    if (!found) throw notFound(this.resource.label, id);
    return found;
  }

  /** For batching (GraphQL): the records with these ids, in no particular order. */
  getMany(ids: readonly string[]): Promise<Array<RecordOf<F, Inline>>> {
    return this.read(isIn('id', ids.map(uuid)));
  }

  /** One record by id (GraphQL) holding the fields `select` names (all when absent, the id always) and the relations `include` reads inside it; null when there is none. */
  async getSelected(rawId: string, select: readonly string[] | undefined, include: readonly Expansion[]): Promise<Selected<RecordOf<F, Inline>> | null> {
    const id = parseId(rawId);
    const [found] = await this.readValues(compare('id', 'eq', uuid(id)), include, select && [...new Set(['id', ...select])]);
    // What the statement read: the id and the selected fields, revived by type (as in typed()).
    return found ? (found as Selected<RecordOf<F, Inline>>) : null;
  }

  private async read(filter: FilterNode, expand?: readonly Expansion[]): Promise<Array<RecordOf<F, Inline>>> {
    return (await this.readValues(filter, expand)).map((v) => this.typed(v));
  }

  private readValues(filter: FilterNode, expand?: readonly Expansion[], select: readonly string[] = Object.keys(this.fields), personalData = true): Promise<Values[]> {
    return readRecords(this.rows, { table: this.resource.model, fields: this.fields, select, filter, orderBy: [], window: 'all', relations: this.relations(expand, [], personalData) });
  }

  /**
   * For batching (GraphQL): the records of a to-many relation declared on another resource
   * (`Customer.payments` on the payments' service), per parent id, in the relation's order.
   */
  async byParents(relation: RelationMany, parentIds: readonly string[]): Promise<Map<string, Array<Row<F>>>> {
    const groups = await readRelated(this.rows, { name: '', relation, fields: this.fields }, parentIds);
    if (relation.target !== this.resource.model) throw new Error(`byParents: ${relation.target} is not ${this.resource.model}`);
    // The statement reads exactly the catalogue's fields, revived by type (as typed() says).
    return new Map([...groups].map(([parent, rows]) => [parent, rows.map((v) => v as Row<F>)]));
  }
}
