import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/paths';
import { openDatabase } from '../../src/db/database';
import { EXIT_DATA_DIR_BUSY, LOCK_FILE } from '../../src/db/data-dir-lock';
import { TEST_SECRET, token } from '../support/app';

// The embedded database's folder belongs to one process. Real processes, as a user runs
// them: the service (src/main.ts) and `npm run import` (src/cli/import.ts), both through
// tsx in one node process each (so the pid in the lock is the process that runs). These
// are about the embedded database: they run the same on either test database.

jest.setTimeout(240_000);

const ENTRY = path.join(PROJECT_ROOT, 'src', 'main.ts');
const IMPORT = path.join(PROJECT_ROOT, 'src', 'cli', 'import.ts');

let dataDir: string;
const running: ChildProcess[] = [];

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'data-dir-lock-'));
});
afterAll(() => {
  for (const p of running) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    NODE_ENV: 'development',
    PORT: '0',
    HOST: '127.0.0.1',
    DEMO_DATA: 'off',
    JWT_SECRET: TEST_SECRET,
    LOG_LEVEL: 'info',
  };
  delete e.DATABASE_URL;
  delete e.npm_lifecycle_event;
  return e;
}

interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

function start(file: string, args: string[] = []): { child: ChildProcess; output: () => string; exited: Promise<Exited> } {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    cwd: PROJECT_ROOT,
    env: env(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<Exited>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, output: () => stdout + stderr, exited };
}

interface Service {
  child: ChildProcess;
  base: string;
  exited: Promise<Exited>;
}

/** Starts the service and waits for its "listening" log line; fails if it exits first. */
async function startService(): Promise<Service> {
  const s = start(ENTRY);
  const port = await new Promise<number>((resolve, reject) => {
    const onData = () => {
      const m = /"port":(\d+)[^\n]*listening on/.exec(s.output());
      if (m) resolve(Number(m[1]));
    };
    s.child.stdout!.on('data', onData);
    void s.exited.then((r) => reject(new Error(`the service exited (${r.code}) before listening: ${r.stderr}`)));
  });
  return { child: s.child, base: `http://127.0.0.1:${port}`, exited: s.exited };
}

async function stop(s: Service, signal: NodeJS.Signals): Promise<void> {
  s.child.kill(signal);
  await s.exited;
}

const lockOwner = () => JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')) as { pid: number; role: string };

const accountId = randomUUID();
const accountCode = `LOCK-${accountId.slice(0, 8)}`;
function importFile(): string {
  const file = path.join(dataDir, '..', `${path.basename(dataDir)}-import.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({ accounts: [{ id: accountId, code: accountCode, name: 'Lock test', type: 'Asset', isActive: true }] }),
  );
  return file;
}

async function getAccount(base: string): Promise<number> {
  const res = await fetch(`${base}/api/v1/accounts/${accountId}`, {
    headers: { authorization: `Bearer ${await token('billing.read')}` },
  });
  return res.status;
}

describe('the embedded data folder belongs to one process', () => {
  let service: Service;

  it('a running service holds it: the lock names its pid', async () => {
    service = await startService();
    expect(lockOwner()).toMatchObject({ pid: service.child.pid, role: 'service' });
    expect((await fetch(`${service.base}/readyz`)).status).toBe(200);
  });

  it('an import on that folder is refused at once, says why, and writes nothing', async () => {
    const file = importFile();
    const r = await start(IMPORT, [file]).exited;
    fs.rmSync(file);
    expect(r.code).toBe(EXIT_DATA_DIR_BUSY);
    expect(r.stderr).toMatch(/nothing was imported/);
    expect(r.stderr).toContain(`in use by another process (service, pid ${service.child.pid}`);
    expect(r.stdout).toBe('');
    // Not in the running service, and the lock is still the service's.
    expect(await getAccount(service.base)).toBe(404);
    expect(lockOwner().pid).toBe(service.child.pid);
  });

  it('a second service on that folder is refused at once with the same exit code', async () => {
    const r = await start(ENTRY).exited;
    expect(r.code).toBe(EXIT_DATA_DIR_BUSY);
    expect(r.stderr).toContain(`in use by another process (service, pid ${service.child.pid}`);
    expect(r.stdout).not.toMatch(/listening on/);
    expect(lockOwner().pid).toBe(service.child.pid);
    expect((await fetch(`${service.base}/readyz`)).status).toBe(200);
  });

  it('a stale lock (its process was killed) is taken over by the next service', async () => {
    const dead = service.child.pid;
    await stop(service, 'SIGKILL');
    expect(lockOwner().pid).toBe(dead); // left behind by the killed process
    service = await startService();
    expect(lockOwner()).toMatchObject({ pid: service.child.pid, role: 'service' });
    expect((await fetch(`${service.base}/readyz`)).status).toBe(200);
    expect(await getAccount(service.base)).toBe(404); // the refused import wrote nothing, also on disk
  });

  it('a stopped service releases it, and the import then runs', async () => {
    await stop(service, 'SIGTERM');
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    const file = importFile();
    const r = await start(IMPORT, [file]).exited;
    fs.rmSync(file);
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    const db = await openDatabase({ dataDir });
    try {
      expect(await db.prisma.account.findUnique({ where: { id: accountId } })).toMatchObject({ code: accountCode });
    } finally {
      await db.close();
    }
  });
});
