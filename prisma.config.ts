// Prisma CLI configuration. These machines cannot download Prisma's native engines,
// so the CLI runs its WASM schema engine through a driver adapter ("engine: js"):
// PostgreSQL when DATABASE_URL is a postgresql:// URL, else embedded PGlite in DATA_DIR.
import fs from 'node:fs';
import path from 'node:path';
import type { PrismaConfig } from 'prisma';

// The same `.env` the service reads (the real environment wins), so `npx prisma migrate
// deploy` finds the DATABASE_URL the service uses.
if (fs.existsSync('.env')) process.loadEnvFile('.env');

// The schema keeps `url = env("DATABASE_URL")` because without it the CLI asks for the
// native query engine. For the embedded database a placeholder fills it; it is never used.
const pooledUrl = process.env.DATABASE_URL;
if (!pooledUrl) process.env.DATABASE_URL = 'postgresql://embedded.invalid/pglite';
// Migrate takes a session-level advisory lock, which a transaction-mode pooler cannot keep:
// the direct URL when there is one (Prisma's directUrl; README "Scaling out").
const serverUrl = pooledUrl ? (process.env.DATABASE_DIRECT_URL ?? pooledUrl) : undefined;

let lock: { release(): void } | undefined;
let embedded: ReturnType<typeof openEmbedded> | undefined;

export default {
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join('prisma', 'schema.prisma'),
  async adapter() {
    if (serverUrl) {
      const { PrismaPg } = await import('@prisma/adapter-pg');
      const { withRootCert } = await import('./src/db/session');
      return new PrismaPg({ connectionString: withRootCert(serverUrl, process.env.PGSSLROOTCERT) });
    }
    // One embedded database per process: the CLI asks for an adapter more than once, and two
    // PGlite instances on one folder made migrate deploy hang now and then after it finished.
    embedded ??= openEmbedded();
    return embedded;
  },
} satisfies PrismaConfig;

async function openEmbedded() {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  // The embedded database belongs to one process: refused while a service holds DATA_DIR.
  const dataDir = process.env.DATA_DIR ?? 'data';
  const { lockDataDir } = await import('./src/db/data-dir-lock');
  lock ??= lockDataDir(dataDir, 'prisma');
  const { PGLITE_EXTENSIONS } = await import('./src/db/pglite-extensions');
  const dir = path.resolve(dataDir, 'pglite');
  return new PrismaPGlite(new PGlite(dir, { extensions: PGLITE_EXTENSIONS }));
}
