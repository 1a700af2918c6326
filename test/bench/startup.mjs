#!/usr/bin/env node
// npm run bench:startup — time from process start to /readyz 200 on an existing embedded
// database (the first start, which creates, migrates and loads the demo data, is not counted).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
const runs = Number(process.env.BENCH_RUNS ?? 5);
const port = 4520;

async function startOnce() {
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(root, 'dist/src/main.js')], {
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
    } catch {}
    if (performance.now() - t0 > 60_000) throw new Error('not ready within 60 s');
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - t0;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  return ms;
}

const first = await startOnce();
console.log(`first start (create, migrate, load demo data): ${first.toFixed(0)} ms`);
const times = [];
for (let i = 0; i < runs; i++) times.push(await startOnce());
times.sort((a, b) => a - b);
console.log(
  `start on the existing embedded database → /readyz 200, ${runs} runs: median ${times[Math.floor(runs / 2)].toFixed(0)} ms, max ${times[runs - 1].toFixed(0)} ms (target < 5000 ms)`,
);
fs.rmSync(dataDir, { recursive: true, force: true });
