import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/paths';

// The README's shell blocks are run by `npm run test:readme` (.ci/run) on a fresh copy;
// here, quickly, that every block follows the conventions that runner relies on, so no
// block escapes it, and that the newcomer's two commands are there.

const checker = path.join(PROJECT_ROOT, 'scripts', 'check-readme.mjs');
const list = (readme: string) => spawnSync(process.execPath, [checker, '--list', '--readme', readme], { encoding: 'utf8' });

it("the README's shell blocks all follow the conventions; start and test are one command each", () => {
  const r = list(path.join(PROJECT_ROOT, 'README.md'));
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/^line \d+: server: npm install && npm start$/m);
  expect(r.stdout).toMatch(/^line \d+: norun \(.+\): npm test$/m);
  expect(r.stdout).toMatch(/^line \d+: run: TOKEN=\$\(npm run --silent token\)/m);
});

it('refuses a block that would escape the check: norun without a reason, an unknown word', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-conventions-'));
  try {
    const file = path.join(dir, 'README.md');
    fs.writeFileSync(
      file,
      ['# x', '```sh norun', 'npm test', '```', '```bash sever', 'npm start', '```', '```json', '{}', '```'].join('\n'),
    );
    const r = list(file);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('line 2: `norun` needs a reason');
    expect(r.stderr).toContain('line 5: unknown words after `bash`: sever');
    expect(r.stderr).not.toContain('line 8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
