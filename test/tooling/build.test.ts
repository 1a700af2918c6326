import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/paths';

// `npm run token` (like `npm start` and `npm run import`) builds first; a second run must
// find everything up to date and touch nothing, and print the token alone on stdout so
// that `TOKEN=$(npm run --silent token)` captures exactly the token. Runs on a copy of the
// project's files (with the project's node_modules linked in), as a fresh clone has them.

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-'));
  execFileSync('bash', ['-c', `git ls-files -z -co --exclude-standard | tar --null -cf - -T - | tar -xf - -C "${dir}"`], {
    cwd: PROJECT_ROOT,
  });
  fs.rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
  fs.rmSync(path.join(dir, 'src', 'db', '__generated__'), { recursive: true, force: true });
  fs.symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function npm(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: path.join(dir, 'data'), NODE_ENV: 'development' };
  delete env.DATABASE_URL;
  for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
  const r = spawnSync('npm', args, { cwd: dir, env, encoding: 'utf8' });
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr
      .split('\n')
      .filter((l) => l && !/Unknown user config/.test(l))
      .join('\n'),
  };
}

const mtimes = () =>
  Object.fromEntries(
    ['dist/src/main.js', 'dist/src/cli/token.js', 'src/db/__generated__/prisma/client.ts'].map((f) => [
      f,
      fs.statSync(path.join(dir, f)).mtimeMs,
    ]),
  );

const JWT = /^[\w-]+\.[\w-]+\.[\w-]+\n$/;

it('builds once, then runs without rebuilding, printing the token alone', () => {
  const first = npm('run', '--silent', 'token');
  expect(first.status).toBe(0);
  expect(first.stdout).toMatch(JWT);
  const before = mtimes();

  const second = npm('run', '--silent', 'token');
  expect(second.status).toBe(0);
  expect(second.stdout).toMatch(JWT);
  expect(second.stderr).toBe(''); // no `prisma generate`, no compiler output
  expect(mtimes()).toEqual(before);

  // A changed schema is generated again.
  fs.appendFileSync(path.join(dir, 'prisma', 'schema.prisma'), '\n// changed\n');
  const third = spawnSync(process.execPath, ['scripts/build.mjs', '--generate-only'], { cwd: dir, encoding: 'utf8' });
  expect(third.status).toBe(0);
  expect(third.stdout).toBe('');
  expect(third.stderr).toContain('Generated Prisma Client');
  expect(mtimes()['src/db/__generated__/prisma/client.ts']).toBeGreaterThan(before['src/db/__generated__/prisma/client.ts']!);
}, 300_000);
