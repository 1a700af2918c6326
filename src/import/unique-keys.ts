import { preview } from './validate/problems';
import { propOf, stringProp } from '../lib/unknown';
import type { NaturalKey } from '../domain/common/natural-key';

// A resource's natural key (src/domain/common/natural-key.ts) as the import checks and
// writes it: the key of a record as the file holds it, how two keys compare, and the SQL
// that finds a row by its key and moves a key aside for a file that swaps keys between rows.

export type Raw = Record<string, unknown>;

/** A unique key of a section's table other than the id. */
export interface UniqueKey {
  /** The field a clash is reported on. */
  readonly field: string;
  /** The key as written in the record (parsed, or raw when the record is invalid); undefined: none to claim. */
  readonly text: (r: object) => string | undefined;
  /** What is compared: two records clash when their keys are equal. */
  readonly key: (text: string) => string;
  /** SQL: the table's row `t` holds the key `f.key` (from `key`). Built from our own names only. */
  readonly match: string;
  /**
   * SQL of the SET clause that moves the key of row `t` aside, `f.n` being its 1-based
   * number among the rows moved (for keys the file swaps between rows).
   */
  readonly moveAside: string;
  /** The problem of a record whose key another record of the file has (at `other`). */
  readonly inFile: (text: string, other: string) => string;
  /** How the key is named in a problem with a row of the database. */
  readonly show: (key: string) => string;
}

function columnKey(field: string, label: string, caseInsensitive: boolean): UniqueKey {
  const compared = caseInsensitive ? '; codes compare case-insensitively' : '';
  return {
    field,
    text: (r) => stringProp(r, field),
    key: caseInsensitive ? (t) => t.toLowerCase() : (t) => t,
    match: caseInsensitive ? `lower(t."${field}") = f.key` : `t."${field}" = f.key`,
    // A temporary key that cannot clash: '~' and 19 hex digits of the row's id hash (fits varchar(20)).
    moveAside: `"${field}" = '~' || substr(md5(t."id"::text), 1, 19)`,
    inFile: (t, other) => `${label} ${preview(t)} is also used by ${other}${compared}`,
    show: (k) => `${label} ${preview(k)}${caseInsensitive ? ' (compared case-insensitively)' : ''}`,
  };
}

function perParentKey(parent: string, field: string, label: string): UniqueKey {
  const owner = parent.replace(/Id$/, '');
  return {
    field,
    // Only of a valid record: "<parent id> <instant in ISO form>".
    text: (r) => {
      const at = propOf(r, field);
      const ownerId = propOf(r, parent);
      return at instanceof Date && typeof ownerId === 'string' ? `${ownerId} ${at.toISOString()}` : undefined;
    },
    key: (t) => t,
    match: `t."${parent}" = split_part(f.key, ' ', 1)::uuid AND t."${field}" = split_part(f.key, ' ', 2)::timestamptz`,
    // Distinct instants no record uses: the first milliseconds of year 1, one per row.
    moveAside: `"${field}" = timestamptz '0001-01-01T00:00:00Z' + f.n * interval '1 millisecond'`,
    inFile: (t, other) => `the ${owner} already has a ${label} from ${t.split(' ')[1]}: ${other}`,
    show: (k) => `${field} ${k.split(' ')[1]} of this ${owner}`,
  };
}

/** The import's side of a declared natural key. */
export const uniqueKeyOf = (k: NaturalKey): UniqueKey =>
  k.kind === 'column' ? columnKey(k.field, k.label, k.caseInsensitive) : perParentKey(k.parent, k.field, k.label);
