import fs from 'node:fs';
import path from 'node:path';
import { errnoCode, propOf, stringProp } from '../lib/unknown';

// The embedded database belongs to one process at a time. PGlite keeps its own copy of the
// database pages in memory and writes them back on its own schedule; a second process on
// the same folder (a service, or `npm run import`) sees neither the other's writes nor its
// locks, and the two overwrite each other's files. So whoever opens the embedded database
// first writes its pid into `<DATA_DIR>/owner.lock` (created exclusively), and everyone
// else is refused at once, before touching anything in the folder. A lock whose pid no
// longer runs is stale (a killed process) and is taken over.

export const LOCK_FILE = 'owner.lock';
/** Exit status of a process refused because another one holds the data folder. */
export const EXIT_DATA_DIR_BUSY = 3;

export interface LockOwner {
  readonly pid: number;
  /** What holds it ("service", "import", "prisma"), for the message. */
  readonly role: string;
  readonly since: string;
}

/** Another running process holds the data folder. */
export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    super(
      `the data folder ${dataDir} is in use by another process (${owner.role}, pid ${owner.pid}, since ${owner.since}); ` +
        'the embedded database belongs to one process at a time: stop that process first (or use PostgreSQL with DATABASE_URL)',
    );
    this.name = 'DataDirBusyError';
  }
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

function readOwner(file: string): LockOwner | null | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return undefined; // gone meanwhile
    throw e;
  }
  try {
    const o: unknown = JSON.parse(text);
    const pid = propOf(o, 'pid');
    if (typeof pid === 'number' && Number.isInteger(pid) && pid > 0)
      return { pid, role: stringProp(o, 'role') ?? 'unknown', since: stringProp(o, 'since') ?? 'unknown' };
  } catch {
    // a lock file cut short by a crash while it was written: nobody owns it
  }
  return null;
}

/** Whether a process with this pid runs (EPERM: it runs under another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errnoCode(e) === 'EPERM';
  }
}

function tryCreate(file: string, owner: LockOwner): boolean {
  try {
    fs.writeFileSync(file, `${JSON.stringify(owner)}\n`, { flag: 'wx' });
    return true;
  } catch (e) {
    if (errnoCode(e) === 'EEXIST') return false;
    throw e;
  }
}

/**
 * Moves a stale lock out of the way. The lock is renamed (atomic) and then checked to be
 * the stale one that was read: when another process took the stale lock over in between,
 * the file renamed is that process's live lock, and it is put back.
 */
function removeStale(file: string, stale: LockOwner | null): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    fs.renameSync(file, aside);
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return;
    throw e;
  }
  const moved = readOwner(aside);
  if (moved && (!stale || moved.pid !== stale.pid) && isRunning(moved.pid)) {
    try {
      fs.linkSync(aside, file);
    } catch (e) {
      if (errnoCode(e) !== 'EEXIST') throw e;
    }
  }
  fs.rmSync(aside, { force: true });
}

/**
 * Takes the data folder for this process, or throws DataDirBusyError naming the process
 * that holds it. The lock is released by `release()` and, failing that, when the process
 * exits; after a crash it is stale and the next process takes it over.
 */
export function lockDataDir(dataDir: string, role: string): DataDirLock {
  const dir = path.resolve(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, role, since: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    if (tryCreate(file, me)) break;
    const owner = readOwner(file);
    if (owner === undefined) continue; // released meanwhile: try again
    if (owner && owner.pid === process.pid) throw new DataDirBusyError(dir, owner); // opened twice in one process
    if (owner && isRunning(owner.pid)) throw new DataDirBusyError(dir, owner);
    if (attempt >= 5) throw new Error(`cannot take over the stale lock ${file}; remove it if no process uses ${dir}`);
    removeStale(file, owner);
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.removeListener('exit', release);
    // Only our own lock: never remove one another process took over.
    if (readOwner(file)?.pid === process.pid) fs.rmSync(file, { force: true });
  };
  process.on('exit', release);
  return { file, release };
}
