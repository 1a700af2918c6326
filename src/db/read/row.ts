// The type of a record read by the compiled path, computed from its field catalogue: what a
// catalogue declares is what a row holds (test/db/read/compiled.test.ts holds these types equal
// to Prisma's for every model, so records read here and records Prisma writes are one type).

import { Prisma } from '../__generated__/prisma/client';
import type { FieldSpec } from '../../query/fields';
import { memoized } from '../../lib/memo';

/** Exact decimals as the domain computes with them. */
export type Decimal = Prisma.Decimal;

/**
 * A column the service reads that no door filters, sorts or selects by name, so it is in no
 * door's catalogue: a 64-bit integer (the change log's seq, a bigint as Prisma gives it) or a
 * JSON document (its changes, parsed as Prisma parses it).
 */
export type StoredFieldSpec =
  /** `unique`: no two rows share a value, so ordering by it orders completely (no tie by id). */
  { readonly type: 'bigint'; readonly nullable: false; readonly unique: boolean } | { readonly type: 'json'; readonly nullable: false };

/** What the compiled path reads: a door's field, or a stored column. */
export type ColumnSpec = FieldSpec | StoredFieldSpec;
/** The columns of a table the compiled path reads, by name; every door's FieldCatalog is one. */
export type ColumnCatalog = Readonly<Record<string, ColumnSpec>>;

export const stored = {
  bigint: ({ unique = false } = {}): { readonly type: 'bigint'; readonly nullable: false; readonly unique: boolean } => ({
    type: 'bigint',
    nullable: false,
    unique,
  }),
  json: (): { readonly type: 'json'; readonly nullable: false } => ({ type: 'json', nullable: false }),
} as const;

type Plain<S extends ColumnSpec> = S extends { readonly type: 'uuid' | 'string' }
  ? string
  : S extends { readonly type: 'boolean' }
    ? boolean
    : S extends { readonly type: 'decimal' }
      ? Decimal
      : S extends { readonly type: 'datetime' }
        ? Date
        : S extends { readonly type: 'enum'; readonly values: readonly (infer V)[] }
          ? V
          : S extends { readonly type: 'bigint' }
            ? bigint
            : S extends { readonly type: 'json' }
              ? Prisma.JsonValue
              : never;

/** A field's value in a row: null where the field is nullable. */
export type ValueOf<S extends ColumnSpec> = S extends { readonly nullable: true } ? Plain<S> | null : Plain<S>;

/** A record of a catalogue's fields. */
export type Row<F extends ColumnCatalog> = { -readonly [K in keyof F]: ValueOf<F[K]> };

/** How a column's value comes back from the database (see compile.ts `own`): as is, or as text to revive. */
export type Revive = ((text: string) => unknown) | null;

/**
 * Decimals are immutable, and billing data reads the same amounts again and again (a price
 * list, a term's fees): the last ones made are handed out again rather than parsed anew.
 */
export const decimalOf = memoized((text: string): Decimal => new Prisma.Decimal(text), 4096);

/** Values read as text (decimals, instants, enums, stored columns, everything inside a relation's JSON) turned into the row's values. */
export const REVIVE: Readonly<Record<ColumnSpec['type'], Revive>> = {
  uuid: null,
  string: null,
  enum: null,
  boolean: null,
  decimal: decimalOf,
  datetime: (v) => new Date(Number(v)),
  // Text, as a 64-bit integer may exceed a JavaScript number.
  bigint: (v) => BigInt(v),
  // jsonb's text, parsed as Prisma Client parses a Json column.
  json: (v) => JSON.parse(v) as Prisma.JsonValue,
};
