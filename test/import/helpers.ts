import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_DATA_FILE } from '../../src/config/paths';
import type { Database } from '../../src/db/database';
import { ImportValidationError, importReferenceData, type ImportProblem } from '../../src/import';
import { perSection, TABLE, type FileSection } from '../../src/import/registry';

/** Tables the import writes, with the file section each comes from (the import's own list). */
export const TABLES = TABLE;
export type Section = keyof typeof TABLES;

type Rec = Record<string, unknown> & { id: string };
/** An import file: each section an array of records (customers with their addresses inside), any other key as it comes. */
export type ImportFile = { [S in FileSection]?: S extends 'customers' ? (Rec & { addresses?: Rec[] })[] : Rec[] } & {
  [other: string]: unknown;
};

const demoText = fs.readFileSync(DEMO_DATA_FILE, 'utf8');
/** A fresh deep copy of the demo dataset. */
export const demo = (): Required<Pick<ImportFile, FileSection>> => JSON.parse(demoText);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Writes the data (or text) to a new temporary file and returns its path. */
export function writeFile(data: unknown): string {
  const file = path.join(dir, `${randomUUID()}.json`);
  fs.writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data, null, 1));
  return file;
}

/** Records per section in a file (addresses counted from the customers). */
export function fileCounts(data: ImportFile): Record<Section, number> {
  return perSection((s) =>
    s === 'addresses' ? (data.customers ?? []).reduce((n, c) => n + (c.addresses?.length ?? 0), 0) : (data[s]?.length ?? 0),
  );
}

/** Rows per table. */
export async function rowCounts(db: Database): Promise<Record<Section, number>> {
  const out = {} as Record<Section, number>;
  for (const [section, table] of Object.entries(TABLES) as [Section, string][]) {
    const [r] = await db.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${table}"`);
    out[section] = r!.n;
  }
  return out;
}

/** Every row of every table as JSON text, with its row version (xmin): equal dumps mean nothing was written. */
export async function dump(db: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of Object.values(TABLES)) {
    const rows = await db.prisma.$queryRawUnsafe<{ j: string }[]>(
      `SELECT t.xmin::text || ' ' || to_jsonb(t)::text AS j FROM "${table}" t ORDER BY t."id"`,
    );
    out[table] = rows.map((r) => r.j);
  }
  return out;
}

/** Imports the file expecting rejection; returns the problems. */
export async function rejected(db: Database, file: string): Promise<readonly ImportProblem[]> {
  const e = await importReferenceData(db, file).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ImportValidationError);
  return (e as ImportValidationError).problems;
}

export const positions = (problems: readonly ImportProblem[]) => problems.map((p) => p.position);
