import { arrayLiteral, arrayParam } from '../../db/sql-arrays';
import { NOUN, sectionDef, TABLE, type FileSection } from '../registry';
import type { FileKeys } from './file-keys';
import { loc, type Problems } from './problems';

// The checks of the file against the database that every section shares: references to
// rows the file does not hold, and unique keys that rows of the database already use.
// The file's keys go to the database in chunks of array parameters (one parameter per
// column, see sql-arrays.ts), so a check costs a few statements however large the file.

/** The database access both passes need: raw statements with parameters (a PrismaClient or a transaction client). */
export type { Sql } from '../../domain/maintenance/table-write';
import type { Sql } from '../../domain/maintenance/table-write';

/** Keys per statement that sends the file's keys to the database. */
export const CHUNK = 5000;

export async function inChunks<T>(items: Iterable<T>, f: (chunk: T[]) => Promise<void>): Promise<void> {
  let chunk: T[] = [];
  for (const item of items) {
    chunk.push(item);
    if (chunk.length >= CHUNK) {
      await f(chunk);
      chunk = [];
    }
  }
  if (chunk.length > 0) await f(chunk);
}

export async function hasRows(sql: Sql, table: string): Promise<boolean> {
  const [row] = await sql.$queryRawUnsafe<{ any: boolean }[]>(`SELECT EXISTS (SELECT 1 FROM "${table}") AS any`);
  return row?.any === true;
}

/** References the file does not satisfy must name rows of the database. */
export async function checkReferences(sql: Sql, keys: FileKeys, problems: Problems): Promise<void> {
  const open = keys.pending.filter((p) => !keys.ids[p.target].index.has(p.id));
  keys.pending = [];
  const byTarget = new Map<FileSection, Set<string>>();
  for (const p of open) {
    let s = byTarget.get(p.target);
    if (!s) byTarget.set(p.target, (s = new Set()));
    s.add(p.id);
  }
  const found = new Set<string>();
  for (const [target, idSet] of byTarget) {
    await inChunks(idSet, async (chunk) => {
      const rows = await sql.$queryRawUnsafe<{ id: string }[]>(
        `SELECT "id"::text AS id FROM "${TABLE[target]}" WHERE "id" = ANY(${arrayParam(1, 'uuid')})`,
        arrayLiteral(chunk),
      );
      for (const r of rows) found.add(`${target} ${r.id}`);
    });
  }
  for (const p of open)
    if (!found.has(`${p.target} ${p.id}`)) problems.add(p.at, p.field, `no ${NOUN(p.target)} with id ${p.id} in the file or the database`);
}

/**
 * Unique keys the file uses must not belong to other rows of the database, unless the
 * file gives those rows a new key too: their ids are returned, to be moved aside before
 * the write (PostgreSQL checks unique indexes row by row). The file's (key, id) pairs go
 * to the database, which answers only the rows holding one of the keys under another id.
 */
export async function checkUniqueKeys(sql: Sql, section: FileSection, keys: FileKeys, problems: Problems): Promise<string[]> {
  const unique = sectionDef(section).unique;
  const fileKeys = keys.keys[section];
  const ids = keys.ids[section];
  const moveAside: string[] = [];
  if (!unique || fileKeys.size === 0 || !(await hasRows(sql, TABLE[section]))) return moveAside;
  await inChunks(fileKeys.entries(), async (chunk) => {
    const rows = await sql.$queryRawUnsafe<{ id: string; key: string }[]>(
      `SELECT t."id"::text AS id, f.key FROM unnest(${arrayParam(1, 'text')}, ${arrayParam(2, 'uuid')}) AS f(key, id)
         JOIN LATERAL (SELECT * FROM "${TABLE[section]}" t WHERE ${unique.match} OFFSET 0) t ON true WHERE t."id" <> f.id`,
      arrayLiteral(chunk.map(([k]) => k)),
      arrayLiteral(chunk.map(([, index]) => ids.byIndex.get(index))),
    );
    for (const r of rows) {
      if (ids.index.has(r.id)) moveAside.push(r.id);
      else
        problems.add(
          loc(section, fileKeys.get(r.key)!),
          unique.field,
          `${unique.show(r.key)} is already used by ${NOUN(section)} ${r.id} in the database, which this file does not change`,
        );
    }
  });
  return moveAside;
}
