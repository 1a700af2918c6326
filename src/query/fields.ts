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
