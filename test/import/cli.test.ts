import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_DATA_FILE, PROJECT_ROOT } from '../../src/config/paths';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../support/database';
import { demo, fileCounts, rowCounts, writeFile } from './helpers';

// `npm run import -- FILE.json`, run through tsx (the npm script runs the built file;
// the code is the same). On PostgreSQL the CLI gets its own fresh database; on PGlite a
// fresh data folder.

// Each run starts a process through tsx: slow on a loaded machine. A run cut short by a
// test timeout would keep the data folder locked for the next one.
jest.setTimeout(180_000);

const TSX = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
const CLI = path.join(PROJECT_ROOT, 'src', 'cli', 'import.ts');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let db: TestDatabase | undefined;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cli-'));
  if (usingPostgres()) db = await createTestDatabase();
});
afterAll(async () => {
  await db?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function run(...args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'development' };
  delete env.DATABASE_URL;
  delete env.npm_lifecycle_event;
  if (db?.url) env.DATABASE_URL = db.url;
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [CLI, ...args], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run import', () => {
  it('exits 2 with a usage message without a file', async () => {
    const r = await run();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no file given/);
    expect(r.stderr).toMatch(/Usage: npm run import -- FILE.json/);
  });

  it('exits 2 for a file that cannot be read or is not JSON, without a stack trace', async () => {
    const missing = await run('/nonexistent/data.json');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('import: cannot read /nonexistent/data.json: no such file\n');
    const notJson = await run(writeFile('{"accounts": [ {"id": "x",, } ]}'));
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/is not a valid import file: line 1: accounts\[0\] is not valid JSON/);
    expect(notJson.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 1 and lists every bad record, writing nothing', async () => {
    const d = demo();
    d.paymentSources[2]!.sourceType = 'Bitcoin';
    d.customers[3]!.addresses![0]!.postalCode = '1'.repeat(25);
    const r = await run(writeFile(d));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/2 invalid records \(2 problems\); nothing was imported/);
    expect(r.stderr).toMatch(/^ {2}customers\[3\]\.addresses\[0\]\.postalCode: must have at most 20 characters$/m);
    expect(r.stderr).toMatch(/^ {2}paymentSources\[2\]\.sourceType: must be one of .* \(got "Bitcoin"\)$/m);
    expect(r.stdout).toBe('');
  });

  it('imports a file, applying the migrations first, and prints the counts', async () => {
    const r = await run(DEMO_DATA_FILE);
    expect(r.stderr).toBe(''); // no progress line: stderr is not a terminal
    expect(r.code).toBe(0);
    const counts = fileCounts(demo());
    expect(r.stdout).toMatch(new RegExp(`^ +customers +${counts.customers} +0 +0$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^ +addresses +${counts.addresses} +0 +0$`, 'm'));
    if (db) expect(await rowCounts(db)).toEqual(counts);
    const again = await run(DEMO_DATA_FILE);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^ +customers +0 +0 +${counts.customers}$`, 'm'));
  });
});
