// The shape every queryable resource declares once (src/domain/<resource>/fields.ts).
// OData $filter/$orderby/$select, GraphQL `where`/`orderBy` and the read path's SQL
// (src/db/read) all read the same declaration, so a field is filterable in one door exactly when it is
// in the other.

/** A field whose values need no list: the type says everything. */
export interface PlainFieldSpec {
  readonly type: 'uuid' | 'string' | 'boolean' | 'decimal' | 'datetime';
  readonly nullable: boolean;
  /** Personal data (`personal()` below). */
  readonly personal?: true;
  /** No two records share a value (`unique()` below). */
  readonly unique?: true;
  /** With `unique`: values that differ only in case are the same (codes). */
  readonly ignoresCase?: true;
}

/** An enum field: its allowed values, in the order the API lists them. */
export interface EnumFieldSpec {
  readonly type: 'enum';
  readonly nullable: boolean;
  readonly values: readonly string[];
  /** Personal data (`personal()` below). */
  readonly personal?: true;
}

export type FieldSpec = PlainFieldSpec | EnumFieldSpec;
export type FieldType = FieldSpec['type'];

/** A resource's scalar fields, by their API (camelCase) name. */
export type FieldCatalog = Readonly<Record<string, FieldSpec>>;

// Each helper keeps its type and nullability as literal types, so that a catalogue's row type
// (src/db/read/row.ts) follows from the catalogue itself. Overloads, not a generic
// `nullable: N`: inside `satisfies FieldCatalog` a generic would be inferred as `boolean`.
interface PlainField<T extends PlainFieldSpec['type']> {
  (nullable?: false): { readonly type: T; readonly nullable: false };
  (nullable: true): { readonly type: T; readonly nullable: true };
}
function plain<T extends PlainFieldSpec['type']>(type: T): PlainField<T> {
  function make(nullable?: false): { readonly type: T; readonly nullable: false };
  function make(nullable: true): { readonly type: T; readonly nullable: true };
  function make(nullable = false): PlainFieldSpec {
    return { type, nullable };
  }
  return make;
}

export const field = {
  uuid: plain('uuid'),
  string: plain('string'),
  boolean: (): { readonly type: 'boolean'; readonly nullable: false } => ({ type: 'boolean', nullable: false }),
  decimal: plain('decimal'),
  datetime: plain('datetime'),
  enum: <const V extends string>(
    values: readonly V[],
  ): { readonly type: 'enum'; readonly nullable: false; readonly values: readonly V[] } => ({
    type: 'enum',
    nullable: false,
    values,
  }),
} as const;

/**
 * The scope a caller needs, on top of the read or write scope, to see, filter, sort by or
 * write a personal field (docs/personal-data.md). The auth module's scope list takes it from here.
 */
export const PERSONAL_DATA_SCOPE = 'billing.pii';

/**
 * Marks a field as personal data, where the catalogue declares it: the one place that says
 * which fields need PERSONAL_DATA_SCOPE. Projections, the checks of both doors, the change
 * log's redaction, schema.graphql, $metadata and OpenAPI all derive from the mark.
 */
export const personal = <const S extends FieldSpec>(spec: S): S & { readonly personal: true } => ({ ...spec, personal: true });

/**
 * Marks a field no two records share a value of (a unique index in the schema; not null),
 * `ignoringCase` when values that differ only in case are the same (codes). A page ordered by
 * it is ordered completely, with no tie to break by id (src/db/read/compile.ts orderList), so
 * its own index serves the order; and it is the resource's natural key
 * (src/domain/common/natural-key.ts): what the import checks and the alternate key of the
 * REST paths and GraphQL upserts.
 */
export const unique = <const S extends PlainFieldSpec & { readonly nullable: false }>(
  spec: S,
  { ignoringCase = false } = {},
): S & { readonly unique: true } => ({ ...spec, unique: true, ...(ignoringCase ? { ignoresCase: true as const } : {}) });

const personalNames = new WeakMap<FieldCatalog, ReadonlySet<string>>();

/** The personal fields of a catalogue (computed once per catalogue). */
export function personalFieldsOf(fields: FieldCatalog): ReadonlySet<string> {
  let names = personalNames.get(fields);
  if (!names) personalNames.set(fields, (names = new Set(Object.keys(fields).filter((f) => fields[f]?.personal === true))));
  return names;
}

const openNames = new WeakMap<FieldCatalog, readonly string[]>();

/** The fields of a catalogue a caller may read: all of them with PERSONAL_DATA_SCOPE, the others without it. */
export function readableFields(fields: FieldCatalog, personalData: boolean): readonly string[] {
  if (personalData) return Object.keys(fields);
  let names = openNames.get(fields);
  if (!names) openNames.set(fields, (names = Object.keys(fields).filter((f) => fields[f]?.personal !== true)));
  return names;
}

/**
 * A relation of a resource to records of another type, as clients may expand it
 * (`$expand=account`) and as the OData metadata describes it: derived from the resource
 * declarations (src/domain/resources.ts expandableRelations), never written by hand.
 */
export interface RelationSpec {
  /** The entity type of the related records (its name in the metadata). */
  readonly type: string;
  /** A collection of records (`prices`) rather than one (`account`). */
  readonly many: boolean;
  /** A to-one relation that may be absent (its foreign key is nullable). */
  readonly nullable: boolean;
  /** The related records' scalar fields. */
  readonly fields: FieldCatalog;
  /** To-one: this resource's field holding the related record's id. */
  readonly foreignKey?: string;
  /** To-many: the order of the related records when the client names none. */
  readonly defaultOrder?: readonly { readonly field: string; readonly direction: 'asc' | 'desc' }[];
}

export type RelationCatalog = Readonly<Record<string, RelationSpec>>;

/**
 * The field names of a catalogue, typed as its keys. A catalogue is a closed object literal
 * (`satisfies FieldCatalog`), so its own keys are exactly the names its type lists.
 */
export const fieldNames = <C extends object>(catalog: C): Array<keyof C & string> => Object.keys(catalog) as Array<keyof C & string>;

/**
 * A field's declaration in a catalogue (a door's, or the read path's columns), or undefined
 * when there is no such field. Own properties only: `constructor` or `__proto__` must be
 * unknown fields, not Object's.
 */
export const lookupField = <S>(catalog: Readonly<Record<string, S>>, name: string): S | undefined =>
  Object.hasOwn(catalog, name) ? catalog[name] : undefined;
