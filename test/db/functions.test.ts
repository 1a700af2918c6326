// The migrations write PL/pgSQL bodies on one line, their semicolons escaped (prisma/README.md);
// prisma/functions/ holds each function readably. This holds a migrated database to those
// sources: every PL/pgSQL function of the schema has one, with the same body (white space aside),
// and the line scripts/migration-function.mjs prints for it defines that body.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/paths';
import { createTestDatabase, type TestDatabase } from '../support/database';

const DIR = path.join(PROJECT_ROOT, 'prisma', 'functions');
const oneLine = (body: string): string => body.replace(/\s+/g, ' ').trim();

/** The readable sources: name → body. */
const SOURCES = new Map(
  fs
    .readdirSync(DIR)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => {
      const m = /\bAS \$\$\n([\s\S]*?)\n\$\$;/.exec(fs.readFileSync(path.join(DIR, f), 'utf8'));
      if (!m) throw new Error(`${f}: no $$ body`);
      return [f.slice(0, -'.sql'.length), oneLine(m[1]!)] as const;
    }),
);

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

it('every PL/pgSQL function of the migrated schema has its readable source, with the same body', async () => {
  const rows = await db.prisma.$queryRawUnsafe<Array<{ name: string; body: string }>>(
    `SELECT p.proname AS name, p.prosrc AS body FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname = 'public' AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'plpgsql') ORDER BY 1`,
  );
  expect(rows.map((r) => r.name)).toEqual([...SOURCES.keys()].sort());
  for (const r of rows) expect({ name: r.name, body: oneLine(r.body) }).toEqual({ name: r.name, body: SOURCES.get(r.name) });
});

it("the migration line for a source defines that source's body", async () => {
  for (const name of SOURCES.keys()) {
    const line = execFileSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts', 'migration-function.mjs'), name], { encoding: 'utf8' });
    expect(line).not.toMatch(/;(?!\n$)/);
    await db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(line.replace(`"${name}"()`, `"probe_${name}"()`));
      const [defined] = await tx.$queryRawUnsafe<Array<{ body: string }>>(
        `SELECT prosrc AS body FROM pg_proc WHERE proname = $1`,
        `probe_${name}`,
      );
      expect(oneLine(defined!.body)).toBe(SOURCES.get(name));
      await tx.$executeRawUnsafe(`DROP FUNCTION "probe_${name}"()`);
    });
  }
});
