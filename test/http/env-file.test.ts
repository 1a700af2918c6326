import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jwtVerify } from 'jose';
import { PROJECT_ROOT } from '../../src/config/paths';
import { signToken } from '../../src/auth/tokens';

// `.env` in the working directory is read at start by the service and the CLIs; a variable
// set in the real environment wins over the file.

const TSX = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
const FILE_SECRET = 'secret-from-the-env-file-0123456789abcdef';
let dir: string;
let service: { child: ChildProcess; exited: Promise<unknown> } | undefined;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'env-file-'));
  fs.writeFileSync(
    path.join(dir, '.env'),
    [
      `JWT_SECRET=${FILE_SECRET}`,
      `DATA_DIR=${path.join(dir, 'data')}`,
      'PORT=not-a-port # the real environment overrides it',
      'DEMO_DATA=off',
    ].join('\n'),
  );
});
afterAll(async () => {
  if (service) {
    service.child.kill('SIGTERM');
    await service.exited;
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

function cleanEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, ...extra };
}

it('npm run token signs with the JWT_SECRET of .env', async () => {
  const r = spawnSync(TSX, [path.join(PROJECT_ROOT, 'src/cli/token.ts')], { cwd: dir, env: cleanEnv({ PORT: '4000' }), encoding: 'utf8' });
  expect(r.stderr).toBe('');
  const { payload } = await jwtVerify(r.stdout.trim(), new TextEncoder().encode(FILE_SECRET));
  // Every scope: billing.pii for customers' names, billing.maintain and billing.audit too.
  expect(payload.scope).toBe('billing.read billing.write billing.maintain billing.audit billing.pii');
  expect(fs.existsSync(path.join(dir, 'data', 'jwt-secret'))).toBe(false); // no generated key: the file's was used
}, 60_000);

it('the real environment wins over .env', async () => {
  const other = 'secret-from-the-real-environment-0123456789';
  const r = spawnSync(TSX, [path.join(PROJECT_ROOT, 'src/cli/token.ts')], {
    cwd: dir,
    env: cleanEnv({ PORT: '4000', JWT_SECRET: other }),
    encoding: 'utf8',
  });
  await expect(jwtVerify(r.stdout.trim(), new TextEncoder().encode(other))).resolves.toBeDefined();
}, 60_000);

it('the service reads .env at start (and the environment wins)', async () => {
  const child = spawn(TSX, [path.join(PROJECT_ROOT, 'src/main.ts')], {
    cwd: dir,
    env: cleanEnv({ PORT: '0', LOG_LEVEL: 'info' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const listening = new Promise<number>((resolve, reject) => {
    const look = (d: Buffer) => {
      out += d.toString();
      const m = /listening on http:\/\/localhost:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
  });
  service = { child, exited: new Promise((resolve) => child.once('exit', resolve)) };
  try {
    const port = await listening;
    const token = await signToken(FILE_SECRET, { sub: '00000000-0000-4000-8000-000000000001', scope: 'billing.read' });
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/accounts`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { value: unknown[] }).value).toEqual([]); // DEMO_DATA=off from the file
  } finally {
    child.kill('SIGTERM');
    await service.exited;
    service = undefined;
  }
}, 300_000);
