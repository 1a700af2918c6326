import { DEMO_DATA_FILE } from '../config/paths';
import type { Database } from '../db/database';
import { Prisma } from '../db/__generated__/prisma/client';
import { importReferenceData } from './import-service';
import type { ImportOptions } from './types';

// The demo dataset (prisma/demo/reference-data.json) is loaded into a database that has no
// record in any resource table (docs/service.md "Reference-data import").

/** Every resource table: the models of the Prisma schema. */
const RESOURCE_TABLES = Object.values(Prisma.ModelName);

/** True when no resource table holds a row. */
export async function isDatabaseEmpty(db: Database): Promise<boolean> {
  const sql = `SELECT NOT (${RESOURCE_TABLES.map((t) => `EXISTS (SELECT 1 FROM "${t}")`).join(' OR ')}) AS empty`;
  const [row] = await db.prisma.$queryRawUnsafe<{ empty: boolean }[]>(sql);
  return row?.empty === true;
}

/**
 * Imports the demo file when the database is empty; returns whether it did. Two instances
 * starting at once on one empty database may both import: the import upserts by id, so the
 * second one finds the same rows.
 */
export async function loadDemoDataIfEmpty(db: Database, file: string = DEMO_DATA_FILE, opts: ImportOptions = {}): Promise<boolean> {
  if (!(await isDatabaseEmpty(db))) return false;
  await importReferenceData(db, file, opts);
  return true;
}
