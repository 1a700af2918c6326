import type { FieldCatalog } from '../../query/fields';

// How a resource's records are told apart besides their id: a code, a debtor number (the
// field its catalogue marks `unique()`), an article's price by its start (declared in its
// `import` section). What it is, not how a statement finds it: src/import/unique-keys.ts
// turns it into the import's checks and SQL, the write path into its rule and alternate key.

/** A unique key other than the id. */
export type NaturalKey =
  /** One text column, unique as written or compared case-insensitively (codes). */
  | { readonly kind: 'column'; readonly field: string; readonly label: string; readonly caseInsensitive: boolean }
  /** One instant per parent record (an article's prices by `validFrom`). */
  | { readonly kind: 'per-parent'; readonly parent: string; readonly field: string; readonly label: string };

export const naturalKey = {
  perParent: (parent: string, field: string, label: string): NaturalKey => ({ kind: 'per-parent', parent, field, label }),
};

/** The natural key of a resource: the one its `import` section declares, else the field its catalogue marks `unique()`. */
export function naturalKeyOf(r: { readonly fields: FieldCatalog; readonly import?: ImportSpec }): NaturalKey | undefined {
  if (r.import?.unique) return r.import.unique;
  const marked = Object.entries(r.fields).find(([, spec]) => 'unique' in spec && spec.unique === true);
  if (!marked) return undefined;
  const [field, spec] = marked;
  // `debtorNumber` → "debtor number", as refusals name it
  const label = field.replace(/([A-Z])/g, ' $1').toLowerCase();
  return { kind: 'column', field, label, caseInsensitive: 'ignoresCase' in spec && spec.ignoresCase === true };
}

/** What a resource's section of an import file needs beyond the declaration's record schema, fields and relations. */
export interface ImportSpec {
  /** Database enum types of enum columns stored as such (other enums are text with a CHECK). */
  readonly enumTypes?: Readonly<Record<string, string>>;
  /** A key other than one field marked `unique()` in the catalogue (an article's prices by start). */
  readonly unique?: NaturalKey;
}

/** What makes two codes the same: codes are unique ignoring case. */
export const codeKey = (code: string): string => code.toLowerCase();
