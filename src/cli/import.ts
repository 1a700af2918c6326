import path from 'node:path';
import { ConfigError, loadConfig, readEnvFile } from '../config/config';
import { configuredDatabase, openDatabase, type Database } from '../db/database';
import { DataDirBusyError, EXIT_DATA_DIR_BUSY } from '../db/data-dir-lock';
import {
  FILE_SECTIONS,
  IMPORT_SECTIONS,
  ImportFileError,
  importReferenceData,
  ImportValidationError,
  ImportWriteError,
  type ImportProgress,
  type ImportResult,
} from '../import';
import { fileSize } from '../import/read-file';
import { messageOf } from '../lib/unknown';

// `npm run import -- FILE.json`: imports a reference-data file (docs/service.md "Reference-data
// import") into the configured database (DATABASE_URL, else the embedded one in DATA_DIR),
// after applying pending migrations. Exit codes: 0 imported; 1 invalid records (each is
// listed) or the import failed; 2 bad usage (no file, unreadable, not JSON, bad config);
// 3 the embedded database's folder is held by a running service (nothing was written).

const USAGE = `Usage: npm run import -- FILE.json

Imports a reference-data file, a JSON object of sections, each an array of records
(any may be absent; customers hold their addresses): ${FILE_SECTIONS.join(', ')},
into the database named by DATABASE_URL (or the embedded database in DATA_DIR), upserting
by id in one transaction. Every record is validated first; if any is invalid, nothing is
written and each invalid record is listed.

The embedded database belongs to one process at a time: while a service runs on DATA_DIR,
stop it first (or use PostgreSQL, which the import and the service share).

Exit status: 0 imported, 1 invalid records or failure, 2 bad usage, 3 DATA_DIR in use.
`;

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

const err = (s: string) => process.stderr.write(s);
const out = (s: string) => process.stdout.write(s);
const num = (n: number) => n.toLocaleString('en-US');

/** A file argument is relative to where the user ran `npm run` (npm itself runs in the project root). */
function resolveFile(arg: string): string {
  const base = process.env.npm_lifecycle_event === 'import' && process.env.INIT_CWD ? process.env.INIT_CWD : process.cwd();
  return path.resolve(base, arg);
}

const PHASE: Record<ImportProgress['phase'], string> = {
  validate: 'validating',
  check: 'checking against the database',
  write: 'writing',
};

/** One status line on stderr, redrawn at most ten times a second; only on a terminal. */
function progressLine(): { update(p: ImportProgress): void; clear(): void } {
  if (!process.stderr.isTTY) return { update() {}, clear() {} };
  let last = 0;
  let phase = '';
  let phaseStart = Date.now();
  let shown = false;
  return {
    update(p) {
      const now = Date.now();
      if (p.phase !== phase) {
        phase = p.phase;
        phaseStart = now;
      } else if (now - last < 100) return;
      last = now;
      const secs = (now - phaseStart) / 1000;
      const rate = secs >= 0.5 ? `, ${num(Math.round(p.totalRecords / secs))}/s` : '';
      const pct = p.totalBytes > 0 ? ` ${Math.min(100, Math.floor((p.bytes / p.totalBytes) * 100))}%` : '';
      const what = p.phase === 'check' ? '' : ` ${p.section ?? ''} ${num(p.sectionRecords)} · ${num(p.totalRecords)} records${rate}`;
      err(`\r\x1b[K${PHASE[p.phase]}${what}${p.phase === 'check' ? '' : pct}`);
      shown = true;
    },
    clear() {
      if (shown) err('\r\x1b[K');
    },
  };
}

function printResult(file: string, kind: Database['kind'], r: ImportResult): void {
  const where = kind === 'postgres' ? 'PostgreSQL' : 'the embedded database';
  out(`Imported ${file} into ${where} in ${(r.durationMs / 1000).toFixed(1)} s (${num(r.records)} records).\n`);
  const rows = IMPORT_SECTIONS.map((s) => [s, r.counts[s].inserted, r.counts[s].updated, r.counts[s].unchanged] as const);
  const counts = (i: 1 | 2 | 3) => rows.map((row) => num(row[i]).length);
  const head = ['section', 'inserted', 'updated', 'unchanged'];
  const w = [
    Math.max(head[0]!.length, ...rows.map((r) => r[0].length)),
    ...([1, 2, 3] as const).map((i) => Math.max(head[i]!.length, ...counts(i))),
  ];
  const line = (cells: string[]) => `  ${cells.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ')}\n`;
  out(line(head));
  for (const r of rows) out(line([r[0], num(r[1]), num(r[2]), num(r[3])]));
}

export async function main(argv: string[]): Promise<number> {
  const args = argv.filter((a) => a !== '--');
  if (args.includes('-h') || args.includes('--help')) {
    out(USAGE);
    return EXIT_OK;
  }
  const unknown = args.filter((a) => a.startsWith('-'));
  if (unknown.length > 0 || args.length !== 1) {
    err(
      unknown.length > 0
        ? `import: unknown option ${unknown[0]}\n\n${USAGE}`
        : args.length === 0
          ? `import: no file given\n\n${USAGE}`
          : `import: one file at a time, got ${args.length}\n\n${USAGE}`,
    );
    return EXIT_USAGE;
  }
  const file = resolveFile(args[0]!);

  let config;
  try {
    readEnvFile();
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      err(`import: ${e.message}\n`);
      return EXIT_USAGE;
    }
    throw e;
  }

  try {
    await fileSize(file); // unreadable: say so before touching the database
  } catch (e) {
    if (e instanceof ImportFileError) {
      err(`import: ${e.message}\n`);
      return EXIT_USAGE;
    }
    throw e;
  }

  let db: Database;
  try {
    db = await openDatabase({ ...configuredDatabase(config.database), poolMax: 2, role: 'import' });
  } catch (e) {
    if (e instanceof DataDirBusyError) {
      err(`import: nothing was imported: ${e.message}\n`);
      return EXIT_DATA_DIR_BUSY;
    }
    err(`import: cannot open the database: ${messageOf(e)}\n`);
    return EXIT_FAILED;
  }

  const progress = progressLine();
  try {
    const result = await importReferenceData(db, file, { onProgress: (p) => progress.update(p) });
    progress.clear();
    printResult(file, db.kind, result);
    return EXIT_OK;
  } catch (e) {
    progress.clear();
    if (e instanceof ImportFileError) {
      err(`import: ${e.message}\n`);
      return EXIT_USAGE;
    }
    if (e instanceof ImportValidationError) {
      err(`import: ${file}: ${e.message}:\n`);
      for (const p of e.problems) err(`  ${p.position}: ${p.message}\n`);
      return EXIT_FAILED;
    }
    if (e instanceof ImportWriteError) {
      err(`import: ${e.message}\n`);
      return EXIT_FAILED;
    }
    throw e;
  } finally {
    await db.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      err(`import: unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = EXIT_FAILED;
    },
  );
}
