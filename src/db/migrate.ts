import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_DIR } from '../config/paths';
import { messageOf } from '../lib/unknown';

// Applies prisma/migrations/* at start, the way `prisma migrate deploy` does, and records
// them in the same `_prisma_migrations` table with the same checksums, so the official CLI
// and this runner agree about what is applied. Why not spawn the CLI: it needs the prisma
// package and ~3 s of WASM start-up on every boot; this needs neither.

/** The little a migration needs from a connection: run a script, run a query. */
export interface SqlSession {
  exec(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Migration {
  readonly name: string;
  readonly sql: string;
  readonly checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

const MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Checksums a migration file had before an edit that changed comments only, so databases
 * migrated with the earlier text are not refused as modified: the runner records the
 * current checksum instead. 20261122000453_init: a `;` in a comment of the hand-written
 * block made the Prisma CLI (which splits a script at every `;`) fail on a fresh database.
 */
export const PREVIOUS_CHECKSUMS: Readonly<Record<string, readonly string[]>> = {
  '20261122000453_init': ['e4d96e65205e3563d7ae215bbc93192411ed8cfc9274daca375abdd2b5f7b684'],
};

// The advisory lock key Prisma's own migrate uses, so the CLI and two starting instances
// of this service never migrate one database at the same time.
const LOCK_KEY = 72707369;

/** Applies pending migrations; returns the names applied. Refuses a modified migration. */
export async function applyMigrations(db: SqlSession, migrations = readMigrations()): Promise<string[]> {
  await db.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
  try {
    await db.exec(MIGRATIONS_TABLE);
    const rows = await db.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
    );
    const done = new Map(rows.map((r) => [r.migration_name, r]));
    const applied: string[] = [];
    for (const m of migrations) {
      const row = done.get(m.name);
      if (row) {
        if (!row.finished_at)
          throw new Error(
            `migration ${m.name} failed earlier and may be half applied: undo what it did, then mark it with \`npx prisma migrate resolve --rolled-back ${m.name}\` (see prisma/README.md)`,
          );
        if (row.checksum !== m.checksum) {
          if (!PREVIOUS_CHECKSUMS[m.name]?.includes(row.checksum)) throw new Error(`migration ${m.name} was modified after it was applied`);
          await db.query('UPDATE "_prisma_migrations" SET checksum = $1 WHERE migration_name = $2 AND checksum = $3', [
            m.checksum,
            m.name,
            row.checksum,
          ]);
        }
        continue;
      }
      const id = randomUUID();
      await db.exec('BEGIN');
      try {
        await db.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`, [
          id,
          m.checksum,
          m.name,
        ]);
        await db.exec(m.sql);
        await db.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
        await db.exec('COMMIT');
      } catch (e) {
        await db.exec('ROLLBACK');
        throw new Error(`migration ${m.name} failed: ${messageOf(e)}`);
      }
      applied.push(m.name);
    }
    return applied;
  } finally {
    await db.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
  }
}
