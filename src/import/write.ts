import { arrayLiteral, arrayParam } from '../db/sql-arrays';
import { clearFlagFirst, recordMoved, tableSpec, type Row, type Sql, type TableSpec } from '../domain/maintenance/table-write';
import { propOf } from '../lib/unknown';
import { ADDRESSES, FILE_SECTIONS, perFileSection, sectionDef, type FileSection } from './registry';

// Pass 2 of the import: set-based upserts by id, with the statements the API's bulk upserts
// use too (src/domain/maintenance/table-write.ts), one writer per table. Audit fields the
// file leaves out are the import's: its time and the nil UUID (the system).

export { TableWriter } from '../domain/maintenance/table-write';

/** Which audit fields the file gave (its record as written, before the schema's defaults). */
export const givenAudit = (raw: unknown): Row['given'] => ({
  createdById: propOf(raw, 'createdById') !== undefined,
  updatedAt: propOf(raw, 'updatedAt') !== undefined,
  updatedById: propOf(raw, 'updatedById') !== undefined,
});

export const SPEC_OF: Readonly<Record<FileSection, TableSpec>> = perFileSection((s) => {
  const d = sectionDef(s);
  return tableSpec(d.table, d.fields, d.enumTypes);
});
export const ADDRESS: TableSpec = tableSpec(ADDRESSES.table, ADDRESSES.fields);

/** Statements run first in the write transaction, before any upsert (see ImportPlan). */
export async function prepareKeys(
  db: Sql,
  moveKeyFirst: Readonly<Record<FileSection, readonly string[]>>,
  clearDefaultFirst: readonly string[],
): Promise<void> {
  for (const section of FILE_SECTIONS) {
    const { unique, table, fields } = sectionDef(section);
    const ids = moveKeyFirst[section];
    if (unique && ids.length > 0) await recordMoved(db, table, unique.field, fields[unique.field]?.type ?? 'string', ids);
    if (unique && ids.length > 0)
      await db.$executeRawUnsafe(
        `UPDATE "${table}" t SET ${unique.moveAside}
           FROM unnest(${arrayParam(1, 'uuid')}) WITH ORDINALITY AS f(id, n) WHERE t."id" = f.id`,
        arrayLiteral(ids),
      );
  }
  await clearFlagFirst(db, ADDRESS.table, 'isDefault', clearDefaultFirst);
}
