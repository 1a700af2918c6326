#!/usr/bin/env node
// npm run test:readme — pastes the README's shell blocks into a shell, on a fresh copy of
// the project (the files a clone has: tracked and not ignored; no node_modules, no data, no
// .env), in order, the way a newcomer would. Conventions, by the info string of a fence:
//
//   ```sh                 run with bash -e -o pipefail in the copy; must exit 0.
//   ```sh server          starts the service and keeps running: started in the background,
//                         must answer /readyz; stopped (SIGTERM) before the next `server` or
//                         `stopped` block and at the end, and must stop within 30 s.
//   ```sh stopped         run once the service is stopped (the embedded database belongs to
//                         one process at a time).
//   ```sh norun REASON    not run; REASON is required (e.g. `norun needs your PostgreSQL server`).
//
// `bash`, `shell` and `console` fences follow the same rules; any other word after the
// language fails the check, so a typo cannot skip a block. Other languages (json, text,
// dotenv, …) are not shell and are not run. Each block runs in its own shell: a block sets
// what it uses (e.g. TOKEN). The runner gives every block PORT (a free port; it writes
// `localhost:4000` and `127.0.0.1:4000` in the blocks as that port) and runs curl with
// --fail-with-body, so an HTTP error status fails the block.
//
// usage: node scripts/check-readme.mjs [--list] [--readme FILE]
//   --list   check the conventions and print the blocks, run nothing.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const listOnly = args.includes('--list');
const readmeArg = args.indexOf('--readme');
const readme = readmeArg >= 0 ? path.resolve(args[readmeArg + 1] ?? '') : path.join(root, 'README.md');
const SHELLS = new Set(['sh', 'bash', 'shell', 'console']);
const READY_TIMEOUT_MS = 15 * 60_000;
const BLOCK_TIMEOUT_MS = 5 * 60_000;

/** Fenced blocks of a Markdown text: { line, lang, words, body }. */
export function fencedBlocks(text) {
  const blocks = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, , fence, info] = open;
    const body = [];
    let j = i + 1;
    while (j < lines.length && !lines[j].trimStart().startsWith(fence)) body.push(lines[j++]);
    const [lang = '', ...words] = info.trim().split(/\s+/).filter(Boolean);
    blocks.push({ line: i + 1, lang: lang.toLowerCase(), words, body: body.join('\n') });
    i = j;
  }
  return blocks;
}

/** The shell blocks with what to do with each; throws on a block that breaks the conventions. */
export function plan(text) {
  const problems = [];
  const steps = [];
  for (const b of fencedBlocks(text)) {
    if (!SHELLS.has(b.lang)) continue;
    const [mode = 'run', ...rest] = b.words;
    if (mode === 'norun') {
      if (rest.length === 0) problems.push(`line ${b.line}: \`norun\` needs a reason`);
      steps.push({ ...b, mode, reason: rest.join(' ') });
    } else if (['run', 'server', 'stopped'].includes(mode) && rest.length === 0) {
      if (b.body.trim() === '') problems.push(`line ${b.line}: empty shell block`);
      steps.push({ ...b, mode });
    } else {
      problems.push(`line ${b.line}: unknown words after \`${b.lang}\`: ${b.words.join(' ')} (use server, stopped or norun REASON)`);
    }
  }
  if (problems.length) throw new Error(`README conventions:\n  ${problems.join('\n  ')}`);
  return steps;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const PREAMBLE = 'curl() { command curl --fail-with-body "$@"; }\n';

async function main() {
  let steps;
  try {
    steps = plan(fs.readFileSync(readme, 'utf8'));
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(2);
  }
  if (listOnly) {
    for (const s of steps) process.stdout.write(`line ${s.line}: ${s.mode}${s.reason ? ` (${s.reason})` : ''}: ${s.body.split('\n')[0]}\n`);
    return;
  }

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-'));
  execFileSync('bash', ['-c', `git ls-files -z -co --exclude-standard | tar --null -cf - -T - | tar -xf - -C "${dir}"`], { cwd: root });
  const port = Number(process.env.README_PORT) || (await freePort());
  const env = { ...process.env, PORT: String(port) };
  for (const k of ['DATABASE_URL', 'DATA_DIR', 'JWT_SECRET', 'NODE_ENV']) delete env[k];
  for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
  const script = (body) => PREAMBLE + body.replace(/\b(localhost|127\.0\.0\.1):4000\b/g, `$1:${port}`);
  process.stdout.write(`README check in ${dir}, port ${port}\n`);

  let server;
  const stopServer = async () => {
    if (!server) return;
    const { child, exited, step } = server;
    server = undefined;
    process.kill(-child.pid, 'SIGTERM');
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 30_000))]);
    if (code === 'timeout') {
      process.kill(-child.pid, 'SIGKILL');
      throw new Error(`line ${step.line}: the service did not stop within 30 s of SIGTERM`);
    }
  };

  const failures = [];
  let ran = 0;
  for (const step of steps) {
    const label = `line ${step.line} (${step.mode}): ${step.body.split('\n')[0]}`;
    if (step.mode === 'norun') {
      process.stdout.write(`- not run: ${label} — ${step.reason}\n`);
      continue;
    }
    if (step.mode === 'server' || step.mode === 'stopped') await stopServer();
    const started = Date.now();
    ran++;
    if (step.mode === 'server') {
      const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script(step.body)], {
        cwd: dir,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
      let ready = false;
      let gone = false;
      void exited.then(() => (gone = true));
      while (!ready && !gone && Date.now() - started < READY_TIMEOUT_MS) {
        ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
          (r) => r.ok,
          () => false,
        );
        if (!ready) await new Promise((r) => setTimeout(r, 500));
      }
      if (!ready) {
        if (!gone) process.kill(-child.pid, 'SIGKILL');
        failures.push(`${label}\n    never answered /readyz${gone ? ' (it exited)' : ''}\n${indent(out)}`);
        break;
      }
      server = { child, exited, step };
      process.stdout.write(`✓ ${label} — ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      continue;
    }
    const result = await new Promise((resolve) => {
      const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script(step.body)], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), BLOCK_TIMEOUT_MS);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, out });
      });
    });
    if (result.code === 0) {
      process.stdout.write(`✓ ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    } else {
      failures.push(`${label}\n    exit ${result.code ?? result.signal}\n${indent(result.out)}`);
      process.stdout.write(`✗ ${label}\n`);
    }
  }
  try {
    await stopServer();
  } catch (e) {
    failures.push(e.message);
  }
  if (failures.length) {
    process.stderr.write(`\nREADME blocks that fail:\n${failures.map((f) => `- ${f}`).join('\n')}\n(copy kept in ${dir})\n`);
    process.exit(1);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`README: ${ran} blocks ran and passed, ${steps.length - ran} not run (each with its reason)\n`);
}

const indent = (text) =>
  text
    .trim()
    .split('\n')
    .slice(-40)
    .map((l) => `      ${l}`)
    .join('\n');

await main();
