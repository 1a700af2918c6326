// The type of a record read by the compiled path, computed from its field catalogue: what a
// catalogue declares is what a row holds (test/db/read/compiled.test.ts holds these types equal
// to Prisma's for every model, so records read here and records Prisma writes are one type).

import { Prisma } from '../../generated/prisma/client';
import type { FieldCatalog, FieldSpec } from '../../query/fields';

/** Exact decimals as the domain computes with them. */
export type Decimal = Prisma.Decimal;

type Plain<S extends FieldSpec> = S extends { readonly type: 'uuid' | 'string' }
  ? string
  : S extends { readonly type: 'boolean' }
    ? boolean
    : S extends { readonly type: 'decimal' }
      ? Decimal
      : S extends { readonly type: 'datetime' }
        ? Date
        : S extends { readonly type: 'enum'; readonly values: readonly (infer V)[] }
          ? V
          : never;

/** A field's value in a row: null where the field is nullable. */
export type ValueOf<S extends FieldSpec> = S extends { readonly nullable: true } ? Plain<S> | null : Plain<S>;

/** A record of a catalogue's fields. */
export type Row<F extends FieldCatalog> = { -readonly [K in keyof F]: ValueOf<F[K]> };

/** How a column's value comes back from the database (see compile.ts `own`): as is, or as text to revive. */
export type Revive = ((text: string) => unknown) | null;

/** Values read as text (decimals, instants, enums, everything inside a relation's JSON) turned into the row's values. */
export const REVIVE: Readonly<Record<FieldSpec['type'], Revive>> = {
  uuid: null,
  string: null,
  enum: null,
  boolean: null,
  decimal: (v) => new Prisma.Decimal(v),
  datetime: (v) => new Date(Number(v)),
};
