// How an import file's records of a resource are keyed besides their id (codes, debtor
// numbers, an article's price dates): declared with the resource (its `import` section) and
// used by the import's checks and upserts (src/import).

export type Raw = Record<string, unknown>;

/** A unique key of a section's table other than the id. */
export interface UniqueKey {
  /** The field a clash is reported on. */
  readonly field: string;
  /** The key as written in the record (parsed, or raw when the record is invalid); undefined: none to claim. */
  readonly text: (r: Raw) => string | undefined;
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

/** What a resource's section of an import file needs beyond the declaration's record schema, fields and relations. */
export interface ImportSpec {
  /** Database enum types of enum columns stored as such (other enums are text with a CHECK). */
  readonly enumTypes?: Readonly<Record<string, string>>;
  readonly unique?: UniqueKey;
}

const str = (r: Raw, name: string): string | undefined => (typeof r[name] === 'string' ? r[name] : undefined);

/** A value as a problem message quotes it, cut to 60 characters. */
export const preview = (v: string): string => {
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

/** A text column that is unique as it is written. */
export function uniqueColumn(field: string, what: string): UniqueKey {
  return {
    field,
    text: (r) => str(r, field),
    key: (t) => t,
    match: `t."${field}" = f.key`,
    // A temporary key that cannot clash: '~' and 19 hex digits of the row's id hash (fits varchar(20)).
    moveAside: `"${field}" = '~' || substr(md5(t."id"::text), 1, 19)`,
    inFile: (t, other) => `${what} ${preview(t)} is also used by ${other}`,
    show: (k) => `${what} ${preview(k)}`,
  };
}
