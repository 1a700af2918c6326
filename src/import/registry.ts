import type { z } from 'zod';
import type { Prisma } from '../db/__generated__/prisma/client';
import type { FieldCatalog } from '../query/fields';
import type { Relation } from '../domain/common/declaration';
import { RESOURCES, targetOf, type ResourceModel } from '../domain/resources';
import { naturalKeyOf, type ImportSpec } from '../domain/common/natural-key';
import { uniqueKeyOf, type Raw, type UniqueKey } from './unique-keys';
import { recordOf } from '../lib/collections';

// The one registry of what an import file holds: its sections, in the order the import
// writes them when it can, and for each the record schema, the table, the columns (the
// resource's field catalogue), the references to other sections and the unique key. All of
// it is read off the resource declarations (src/domain/<resource>/resource.ts): a resource
// with an `import` section is a section here, named by its `plural`, and its to-one
// relations to other sections are its references. Everything else of the import (section
// lists, write order, lookups, upserts, moving keys aside, counts) is derived from here.

export type { Raw, UniqueKey };

/** A record as its section's schema gives it. */
export type Identified = Raw & { readonly id: string };

/** The imported resources, by model. */
type Imported = { [M in ResourceModel]: (typeof RESOURCES)[M] extends { readonly import: object } ? M : never }[ResourceModel];
export type FileSection = (typeof RESOURCES)[Imported]['plural'];

export interface Reference {
  /** The field holding the id. */
  readonly field: string;
  readonly target: FileSection;
}

export interface SectionDef {
  readonly noun: string;
  readonly table: Prisma.ModelName;
  /** Records are JSON objects with an id: the schema's output is one too. */
  readonly schema: z.ZodType<Identified>;
  /** The columns written: every field of the catalogue (audit fields handled apart). */
  readonly fields: FieldCatalog;
  /** Database enum types of enum columns stored as such (other enums are text with a CHECK). */
  readonly enumTypes?: Readonly<Record<string, string>>;
  readonly references: readonly Reference[];
  readonly unique?: UniqueKey;
}

const IMPORTED = Object.values(RESOURCES).filter((r) => 'import' in r);
const SECTION_NAMES: readonly string[] = IMPORTED.map((r) => r.plural);
export const isFileSection = (name: string): name is FileSection => SECTION_NAMES.includes(name);

function section(r: (typeof IMPORTED)[number]): SectionDef {
  const relations: Readonly<Record<string, Relation>> = r.relations;
  const references = Object.values(relations).flatMap((rel) => {
    const target = targetOf(rel).plural;
    return rel.kind === 'one' && isFileSection(target) ? [{ field: rel.foreignKey, target }] : [];
  });
  const { enumTypes }: ImportSpec = r.import;
  const unique = naturalKeyOf(r);
  return {
    noun: r.label,
    table: r.model,
    schema: r.record,
    fields: r.fields,
    enumTypes,
    unique: unique && uniqueKeyOf(unique),
    references,
  };
}

export const SECTIONS: Readonly<Record<FileSection, SectionDef>> = recordOf(
  IMPORTED.map((r) => r.plural),
  (plural) => section(IMPORTED.find((r) => r.plural === plural)!),
);

/**
 * The sections in the order the import writes them: each right after the sections it
 * references (depth first), the others by name. Derived from the references, so a new
 * section needs no place assigned (test/import/registry.test.ts checks the order).
 */
function writeOrder(): FileSection[] {
  const order: FileSection[] = [];
  const entered = new Set<FileSection>();
  const visit = (s: FileSection): void => {
    if (order.includes(s)) return;
    // Sections that reference each other round in a circle have no order to be written in.
    if (entered.has(s)) throw new Error(`import sections reference each other in a circle through ${s}`);
    entered.add(s);
    for (const d of SECTIONS[s].references) if (d.target !== s) visit(d.target);
    order.push(s);
  };
  for (const name of [...SECTION_NAMES].sort()) if (isFileSection(name)) visit(name);
  return order;
}
export const FILE_SECTIONS: readonly FileSection[] = writeOrder();

/** The records nested in customers: written to their own table, counted as their own section. */
export const ADDRESSES = {
  noun: RESOURCES.Address.label,
  table: RESOURCES.Address.model,
  fields: RESOURCES.Address.fields,
} as const satisfies Pick<SectionDef, 'noun' | 'table' | 'fields'>;

/** What the import counts: the file sections, addresses right after the customers that hold them. */
export const IMPORT_SECTIONS = FILE_SECTIONS.flatMap((s) => (s === 'customers' ? (['customers', 'addresses'] as const) : [s]));
export type ImportSection = FileSection | 'addresses';

/** A section's definition, as the common shape. */
export const sectionDef = (s: FileSection): SectionDef => SECTIONS[s];

/** Sections whose rows a section's records point at. */
export const dependsOn = (s: FileSection): FileSection[] => [...new Set(sectionDef(s).references.map((r) => r.target))];

/** Database tables per counted section. */
export const TABLE: Readonly<Record<ImportSection, Prisma.ModelName>> = recordOf(IMPORT_SECTIONS, (s) =>
  s === 'addresses' ? ADDRESSES.table : SECTIONS[s].table,
);

export const NOUN = (s: ImportSection): string => (s === 'addresses' ? ADDRESSES.noun : SECTIONS[s].noun);

/** Per file section, a value made by `f`. */
export function perFileSection<T>(f: (s: FileSection) => T): Record<FileSection, T> {
  return recordOf(FILE_SECTIONS, f);
}

/** Per counted section, a value made by `f`. */
export function perSection<T>(f: (s: ImportSection) => T): Record<ImportSection, T> {
  return recordOf(IMPORT_SECTIONS, f);
}

/** A section's record as its schema gives it. */
export type RecordOf<S extends FileSection> = z.output<Extract<(typeof RESOURCES)[Imported], { readonly plural: S }>['record']>;
