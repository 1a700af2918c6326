// How a resource's records are told apart besides their id: a code, a debtor number, an
// article's price by its start. Declared with the resource (its `import` section) as what it
// is, not how a statement finds it: src/import/unique-keys.ts turns it into the import's
// checks and SQL.

/** A unique key other than the id. */
export type NaturalKey =
  /** One text column, unique as written or compared case-insensitively (codes). */
  | { readonly kind: 'column'; readonly field: string; readonly label: string; readonly caseInsensitive: boolean }
  /** One instant per parent record (an article's prices by `validFrom`). */
  | { readonly kind: 'per-parent'; readonly parent: string; readonly field: string; readonly label: string };

export const naturalKey = {
  column: (field: string, label: string, { caseInsensitive = false } = {}): NaturalKey => ({
    kind: 'column',
    field,
    label,
    caseInsensitive,
  }),
  perParent: (parent: string, field: string, label: string): NaturalKey => ({ kind: 'per-parent', parent, field, label }),
};

/** What a resource's section of an import file needs beyond the declaration's record schema, fields and relations. */
export interface ImportSpec {
  /** Database enum types of enum columns stored as such (other enums are text with a CHECK). */
  readonly enumTypes?: Readonly<Record<string, string>>;
  readonly unique?: NaturalKey;
}

/** What makes two codes the same: codes are unique ignoring case. */
export const codeKey = (code: string): string => code.toLowerCase();
