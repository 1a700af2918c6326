import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { PROJECT_ROOT } from '../../src/config/paths';
import { openDatabase, type Database } from '../../src/db/database';
import { applyMigrations, PREVIOUS_CHECKSUMS, readMigrations } from '../../src/db/migrate';
import { usingPostgres } from '../support/database';

// The official `prisma migrate deploy` and the service's own migration runner apply the
// same prisma/migrations to a fresh database and agree on what is applied: the CLI first,
// then the service opens the database and finds nothing left to do.

// The CLI starts a WASM engine: slow on a loaded machine.
jest.setTimeout(240_000);

const run = promisify(execFile);
const PRISMA = path.join(PROJECT_ROOT, 'node_modules', 'prisma', 'build', 'index.js');

interface Target {
  env: NodeJS.ProcessEnv;
  open(): Promise<Database>;
  drop(): Promise<void>;
}

/** A fresh, empty database: a new PostgreSQL database, or an embedded one in a new DATA_DIR. */
async function freshDatabase(): Promise<Target> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'prisma-cli-'));
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    return {
      env,
      open: () => openDatabase({ dataDir }),
      drop: () => {
        fs.rmSync(dataDir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  const name = `test_cli_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new Client({ connectionString: base });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  const url = u.toString();
  return {
    env: { ...process.env, DATABASE_URL: url },
    open: () => openDatabase({ url, poolMax: 2 }),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

let target: Target;
beforeAll(async () => {
  target = await freshDatabase();
});
afterAll(async () => {
  await target.drop();
});

describe(`prisma migrate deploy on a fresh ${usingPostgres() ? 'PostgreSQL' : 'embedded'} database`, () => {
  it('applies every migration, and the service then finds nothing to apply', async () => {
    const { stdout } = await run(process.execPath, [PRISMA, 'migrate', 'deploy'], {
      cwd: PROJECT_ROOT,
      env: target.env,
      timeout: 200_000,
    }).catch((e: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`prisma migrate deploy failed: ${e.stderr ?? ''}${e.stdout ?? ''}${e.message}`);
    });
    expect(stdout).toMatch(/successfully applied/);

    const db = await target.open(); // applies pending migrations: there must be none, and no checksum refused
    try {
      const rows = await db.session.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
        'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name',
      );
      const files = readMigrations();
      expect(rows.map((r) => [r.migration_name, r.checksum])).toEqual(files.map((m) => [m.name, m.checksum]));
      expect(rows.every((r) => r.finished_at !== null)).toBe(true);
      expect(await applyMigrations(db.session)).toEqual([]);
      // The hand-written rules arrived too (the block the old comment broke).
      const indexes = await db.session.query<{ indexname: string }>(
        `SELECT indexname FROM pg_indexes WHERE indexname IN ('PaymentSource_code_lower_key', 'PaymentSource_one_default_key', 'Address_one_default_per_customer_key')`,
      );
      expect(indexes).toHaveLength(3);
    } finally {
      await db.close();
    }
  });
});

describe('a database migrated with the earlier text of a migration', () => {
  it('is accepted, and its recorded checksum becomes the current one', async () => {
    const db = await target.open();
    try {
      const [name, previous] = Object.entries(PREVIOUS_CHECKSUMS)[0]!;
      await db.session.query('UPDATE "_prisma_migrations" SET checksum = $1 WHERE migration_name = $2', [previous[0], name]);
      expect(await applyMigrations(db.session)).toEqual([]);
      const [row] = await db.session.query<{ checksum: string }>('SELECT checksum FROM "_prisma_migrations" WHERE migration_name = $1', [
        name,
      ]);
      expect(row?.checksum).toBe(readMigrations().find((m) => m.name === name)?.checksum);
      // Any other checksum is still a modified migration.
      await db.session.query('UPDATE "_prisma_migrations" SET checksum = $1 WHERE migration_name = $2', ['0'.repeat(64), name]);
      await expect(applyMigrations(db.session)).rejects.toThrow(/modified/);
    } finally {
      await db.close();
    }
  });
});
