#!/usr/bin/env node
// Brings the generated Prisma client and dist/ up to date, and does nothing when they already
// are, so `npm start`, `npm run token` and `npm run import` restart in seconds:
//  - `prisma generate` runs only when prisma/schema.prisma or the Prisma version changed
//    (a hash kept beside the generated client) or the client is missing;
//  - `tsc --build` compiles only what changed since the last build (tsBuildInfo in dist/).
// Everything goes to stderr: stdout stays free for what the command itself prints
// (`TOKEN=$(npm run --silent token)` captures the token alone).
//
// usage: node scripts/build.mjs [--generate-only]
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...p) => path.join(root, ...p);

function run(label, args) {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) {
    process.stderr.write(`build: ${label} failed (exit ${r.status ?? r.signal})\n`);
    process.exit(r.status || 1);
  }
}

function schemaHash() {
  const h = crypto.createHash('sha256');
  h.update(fs.readFileSync(at('prisma', 'schema.prisma')));
  for (const pkg of ['prisma', '@prisma/client']) {
    h.update(JSON.parse(fs.readFileSync(at('node_modules', pkg, 'package.json'), 'utf8')).version);
  }
  return h.digest('hex');
}

const stamp = at('src', 'generated', 'prisma-schema.sha256');
const hash = schemaHash();
const current = fs.existsSync(at('src', 'generated', 'prisma', 'client.ts')) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash;
if (!current) {
  run('prisma generate', [at('node_modules', 'prisma', 'build', 'index.js'), 'generate']);
  fs.writeFileSync(stamp, hash);
}

if (!process.argv.includes('--generate-only')) {
  run('tsc', [at('node_modules', 'typescript', 'bin', 'tsc'), '--build', at('tsconfig.build.json')]);
}
