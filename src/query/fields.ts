// The shape every queryable resource declares once (src/domain/<resource>/fields.ts).
// OData $filter/$orderby/$select, GraphQL `where`/`orderBy` and the Prisma translation
// all read the same declaration, so a field is filterable in one door exactly when it is
// in the other.

export type FieldType =
  | 'uuid'
  | 'string'
  | 'boolean'
  | 'decimal'
  | 'datetime'
  | 'enum';

export interface FieldSpec {
  readonly type: FieldType;
  readonly nullable: boolean;
  /** Allowed values of an enum field, in the order they are listed in the API. */
  readonly values?: readonly string[];
}

/** A resource's scalar fields, by their API (camelCase) name. */
export type FieldCatalog = Readonly<Record<string, FieldSpec>>;

export const field = {
  uuid: (nullable = false): FieldSpec => ({ type: 'uuid', nullable }),
  string: (nullable = false): FieldSpec => ({ type: 'string', nullable }),
  boolean: (): FieldSpec => ({ type: 'boolean', nullable: false }),
  decimal: (nullable = false): FieldSpec => ({ type: 'decimal', nullable }),
  datetime: (nullable = false): FieldSpec => ({ type: 'datetime', nullable }),
  enum: (values: readonly string[], nullable = false): FieldSpec => ({ type: 'enum', nullable, values }),
} as const;

/**
 * A relation of a resource to records of another type, as clients may expand it
 * (`$expand=account`) and as the OData metadata describes it.
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

export const relation = {
  one: (type: string, fields: FieldCatalog, foreignKey: string, nullable = false): RelationSpec => ({
    type,
    many: false,
    nullable,
    fields,
    foreignKey,
  }),
  many: (type: string, fields: FieldCatalog, defaultOrder: RelationSpec['defaultOrder'] = []): RelationSpec => ({
    type,
    many: true,
    nullable: false,
    fields,
    defaultOrder,
  }),
} as const;
