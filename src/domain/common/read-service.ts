import { readCountedPage, readRecords, readRelated, type ReadRecord, type RelationRead } from '../../db/read/compile';
import { cursorFilter, encodeCursor } from '../../query/cursor';
import { narrowByLexicons, type Lexicons } from '../../db/read/lexicon';
import type { RowReader } from '../../db/row-reader';
import { notFound } from '../../errors/catalogue';
import { fieldNames, readableFields, type FieldCatalog } from '../../query/fields';
import { personalDataForbidden, personalFieldsNamed, type NamedFields } from '../../query/personal';
import { allOf, compare, isIn, uuid, type Expansion, type FilterNode } from '../../query/filter-tree';
import { resourceOf, RESOURCES, type DeclaredResource, type ResourceModel } from '../resources';
import type { ServiceDeps } from '../context';
import type { ListQuery, Page } from './list';
import type { RelationMany, Resource } from './declaration';
import { parseId } from './validate';
import { openCursor, sealCursor } from './sealing';

// Every read of every resource, for both doors, through the one compiled path
// (src/db/read/compile.ts): list pages, one record, many by id, relations of either
// direction. Which relations a read holds comes from the resource's declaration.

/** A record of the catalogue F, with the relations `Rs` a service always reads inside it (relationOf). */
export type RecordOf<F extends FieldCatalog, Rs extends readonly RelationRead[] = readonly []> = ReadRecord<F, keyof F & string, Rs>;

/** A record of which the caller selected some fields (GraphQL): the id always, the rest maybe. */
export type Selected<T> = Partial<T> & Pick<T, 'id' & keyof T>;

/** The fields of a declared resource's records. */
type FieldsOf<M> = M extends ResourceModel ? (typeof RESOURCES)[M]['fields'] : FieldCatalog;

/** The fields of a relation's target. */
type TargetFields<D extends DeclaredResource, N extends keyof D['relations']> = FieldsOf<D['relations'][N]['target']>;

/** A declared relation of a resource as the read path reads it (`S`: the target's fields read), typed by the declaration (its target's fields, its kind). */
export type RelationOf<
  D extends DeclaredResource,
  N extends keyof D['relations'] & string,
  S extends keyof TargetFields<D, N> & string = keyof TargetFields<D, N> & string,
> = RelationRead<N, TargetFields<D, N>, D['relations'][N]['kind'], S>;

/**
 * The declared relation `name` of `resource`, read inside each record (the fields `select`
 * names of it, all when absent). The types of its target's fields and its kind are looked up
 * in the declarations by the same names the value is (RESOURCES by the relation's target
 * model), which TypeScript cannot follow through a generic index; hence the one assertion.
 */
export function relationOf<
  D extends DeclaredResource,
  const N extends keyof D['relations'] & string,
  const S extends keyof TargetFields<D, N> & string = keyof TargetFields<D, N> & string,
>(resource: D, name: N, select?: readonly S[]): RelationOf<D, N, S> {
  const read: RelationRead = { name, relation: resource.relations[name]!, fields: targetOf(resource, name).fields, select };
  return read as RelationOf<D, N, S>;
}

export interface ReadOptions<Rs extends readonly RelationRead[]> {
  /** Relations read inside every record (REST's customers hold their addresses: relationOf); an $expand of the same relation replaces them. */
  readonly inline: Rs;
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

/**
 * How a relation is read inside records: declared order and fields unless an $expand says
 * otherwise (without personal fields unless `personalData`), with the relations of its
 * records that the expansion includes.
 */
function relationRead(resource: Resource, e: Expansion, personalData: boolean): RelationRead {
  const relation = resource.relations[e.relation]!;
  const target = targetOf(resource, e.relation);
  const select = e.select ?? (personalData ? undefined : readableFields(target.fields, false));
  const relations = e.include?.map((n) => relationRead(target, n, personalData));
  return { name: e.relation, relation, fields: target.fields, select, orderBy: e.orderBy, top: e.top, relations };
}

/** A page as read, one record past the limit telling whether more follow. */
interface Found<T> {
  readonly rows: T[];
  readonly totalCount: number | undefined;
  readonly hasMore: boolean;
}

export class ReadService<F extends FieldCatalog, const Rs extends readonly RelationRead[] = readonly []> {
  readonly fields: F;
  private readonly rows: RowReader;
  /** Every field of the catalogue. */
  private readonly all: ReadonlyArray<keyof F & string>;
  /** The relations inside every record without an $expand (ReadOptions.inline). */
  readonly inlineRelations: readonly string[];

  constructor(
    deps: ServiceDeps,
    readonly resource: Resource<F>,
    private readonly options: ReadOptions<Rs>,
  ) {
    this.fields = resource.fields;
    this.rows = deps.rows;
    this.all = fieldNames(resource.fields);
    this.inlineRelations = options.inline.map((r) => r.name);
  }

  /**
   * The relations of a read: the inline ones (in the records' type), then those requested by
   * name, which the read path reads instead of an inline one of the same name (an $expand of
   * the customers' addresses with its own options).
   */
  private relations(
    expand: readonly Expansion[] | undefined,
    include: readonly Expansion[] = [],
    personalData = true,
  ): { relations: Rs; requested: RelationRead[] } {
    // Without personal data the inline relations are read again by name, without personal fields.
    const inline = personalData ? [] : this.options.inline.map((r) => relationRead(this.resource, { relation: r.name }, false));
    return {
      relations: this.options.inline,
      requested: [...inline, ...[...include, ...(expand ?? [])].map((e) => relationRead(this.resource, e, personalData))],
    };
  }

  /**
   * FORBIDDEN when a caller without the personal-data scope names a personal field (filter,
   * order, selection, expansions), before anything is read: the answer is the same whether or
   * not a record matches. Once per read, on the query, never per record.
   */
  private checkPersonal(q: NamedFields & { readonly include?: readonly Expansion[] | undefined }, personalData: boolean | undefined): void {
    if (personalData !== false) return;
    const named = personalFieldsNamed(
      this.fields,
      { ...q, expand: [...(q.expand ?? []), ...(q.include ?? [])] },
      (path) => path.reduce<Resource>((resource, r) => targetOf(resource, r), this.resource).fields,
    );
    if (named.length > 0) throw personalDataForbidden(named);
  }

  /**
   * The fields a read returns when the caller names none: every field, or the non-personal
   * ones (ListQuery.personalData). Typed as whole records either way: a caller without the
   * scope gets records without those keys, which the doors write out as they are.
   */
  private defaultSelect(personalData: boolean | undefined): ReadonlyArray<keyof F & string> {
    return personalData === false ? this.own(readableFields(this.fields, false)) : this.all;
  }

  /**
   * The catalogue's fields among `names` (names reach here checked against the catalogue by
   * the doors), in the catalogue's order: one selection is one statement text, however written.
   */
  private own(names: readonly string[]): Array<keyof F & string> {
    return this.all.filter((f) => names.includes(f));
  }

  private async page(q: ListQuery, select: ReadonlyArray<keyof F & string>): Promise<Found<RecordOf<F, Rs>>> {
    this.checkPersonal(q, q.personalData);
    const sortKeys = q.orderBy ?? [];
    const filter = this.options.lexicons ? await narrowByLexicons(this.rows, this.options.lexicons, q.filter) : q.filter;
    const after = q.after ? cursorFilter(openCursor(q.after), sortKeys, this.fields) : undefined;
    const pageFilter = allOf(filter, after);
    const read = {
      table: this.resource.model,
      fields: this.fields,
      select,
      filter: pageFilter,
      orderBy: sortKeys,
      window: { take: q.limit + 1, skip: q.offset ?? 0 },
      ...this.relations(q.expand, q.include, q.personalData !== false),
    };
    // The count without the cursor: every record the filter matches, not those after it.
    const { records: rows, count: totalCount } = q.count
      ? await readCountedPage(this.rows, read, filter)
      : { records: await readRecords(this.rows, read), count: undefined };
    return { rows, totalCount, hasMore: rows.length > q.limit };
  }

  private pageOf<T extends object>(q: ListQuery, found: Found<T>): Page<T> {
    const sortKeys = q.orderBy ?? [];
    return {
      items: found.hasMore ? found.rows.slice(0, q.limit) : found.rows,
      totalCount: found.totalCount,
      hasMore: found.hasMore,
      cursorOf: (item) => sealCursor(encodeCursor(sortKeys, item)),
    };
  }

  /** A page of records with every field the caller may read (`q.select` is checked, not applied: see listSelected). */
  async list(q: ListQuery): Promise<Page<RecordOf<F, Rs>>> {
    return this.pageOf(q, await this.page(q, this.defaultSelect(q.personalData)));
  }

  /** A page of records holding the fields `q.select` names (all when absent), the id and the sort keys. */
  async listSelected(q: ListQuery): Promise<Page<Selected<RecordOf<F, Rs>>>> {
    const select = q.select ? this.own(['id', ...(q.orderBy ?? []).map((k) => k.field), ...q.select]) : this.defaultSelect(q.personalData);
    // Typed as whole records, read with only the selected fields: Selected says which are sure.
    return this.pageOf<Selected<RecordOf<F, Rs>>>(q, await this.page(q, select));
  }

  /**
   * One record by id; `expand` adds relations inside it (REST $expand). `access` says what the
   * caller may see (ListQuery.personalData) and what it names (`select`, checked, not applied);
   * without it, every field.
   */
  async get(
    rawId: string,
    expand?: readonly Expansion[],
    access?: { readonly personalData: boolean; readonly select?: readonly string[] | undefined },
  ): Promise<RecordOf<F, Rs>> {
    if (access) this.checkPersonal({ expand, select: access.select }, access.personalData);
    const id = parseId(rawId);
    const personalData = access?.personalData ?? true;
    const [found] = await this.read(compare('id', 'eq', uuid(id)), expand, this.defaultSelect(personalData), personalData);
    if (!found) throw notFound(this.resource.label, id);
    return found;
  }

  /** For batching (GraphQL): the records with these ids, in no particular order. */
  getMany(ids: readonly string[]): Promise<Array<RecordOf<F, Rs>>> {
    return this.read(isIn('id', ids.map(uuid)));
  }

  /** The records with these ids as `get` gives each to a caller (without personal fields unless `personalData`), in no particular order. */
  getManyFor(ids: readonly string[], personalData: boolean): Promise<Array<RecordOf<F, Rs>>> {
    return this.read(isIn('id', ids.map(uuid)), undefined, this.defaultSelect(personalData), personalData);
  }

  /** One record by id (GraphQL) holding the fields `select` names (all when absent, the id always) and the relations `include` reads inside it; null when there is none. */
  async getSelected(
    rawId: string,
    select: readonly string[] | undefined,
    include: readonly Expansion[],
  ): Promise<Selected<RecordOf<F, Rs>> | null> {
    const id = parseId(rawId);
    // As listSelected: whole records by type, the selected fields by value.
    const [found] = await this.read(compare('id', 'eq', uuid(id)), include, select ? this.own(['id', ...select]) : this.all);
    return found ?? null;
  }

  /**
   * The records whose unique `key` (the id, or the natural key its catalogue marks `unique()`)
   * is one of `values` (GraphQL federation's entity representations), holding the fields
   * `select` names (all when absent; the id and the key always) and the relations `include`
   * reads, in no particular order. Read as a page of at most that many records, as the list
   * field reads `where: { id: { in: [...] } }`: one statement, and one more per to-many
   * relation by the records' ids. Keys that ignore case (codes) are compared so.
   */
  async getSelectedByKey(
    key: string,
    values: readonly string[],
    select: readonly string[] | undefined,
    include: readonly Expansion[],
    personalData: boolean,
  ): Promise<Array<Selected<RecordOf<F, Rs>>>> {
    const spec = Object.hasOwn(this.fields, key) ? this.fields[key] : undefined;
    if (!spec || (key !== 'id' && !('unique' in spec && spec.unique === true)))
      throw new Error(`${this.resource.model}.${key} is not a key`);
    if (values.length === 0) return [];
    const filter: FilterNode =
      key === 'id'
        ? isIn('id', values.map(uuid))
        : {
            kind: 'in',
            field: key,
            values: values.map((value) => ({ type: 'string', value })),
            ignoreCase: 'ignoresCase' in spec && spec.ignoresCase === true,
          };
    return readRecords(this.rows, {
      table: this.resource.model,
      fields: this.fields,
      select: select ? this.own(['id', key, ...select]) : this.defaultSelect(personalData),
      filter,
      orderBy: [],
      window: { take: values.length, skip: 0 },
      ...this.relations(undefined, include, personalData),
    });
  }

  private read(
    filter: FilterNode,
    expand?: readonly Expansion[],
    select: ReadonlyArray<keyof F & string> = this.all,
    personalData = true,
  ): Promise<Array<RecordOf<F, Rs>>> {
    return readRecords(this.rows, {
      table: this.resource.model,
      fields: this.fields,
      select,
      filter,
      orderBy: [],
      window: 'all',
      ...this.relations(expand, [], personalData),
    });
  }

  /**
   * For batching (GraphQL): the records of a to-many relation declared on another resource
   * (`Customer.payments` on the payments' service), per parent id, in the relation's order.
   */
  async byParents(relation: RelationMany, parentIds: readonly string[]): Promise<Map<string, Array<RecordOf<F>>>> {
    if (relation.target !== this.resource.model) throw new Error(`byParents: ${relation.target} is not ${this.resource.model}`);
    return readRelated(this.rows, { name: '', relation, fields: this.fields, select: this.all }, parentIds);
  }
}
