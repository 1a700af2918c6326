#!/usr/bin/env node
// Brings the generated Prisma client and dist/ up to date, and does nothing when they already
// are, so `npm start`, `npm run token` and `npm run import` restart in seconds:
//  - `prisma generate` runs only when prisma/schema.prisma or the Prisma version changed
//    (a hash kept beside the generated client) or the client is missing;
//  - the registry of resources (src/domain/__generated__/) from the folders of
//    src/domain that hold a resource.ts (scripts/resource-folders.mjs), rewritten only when
//    it would change;
//  - the GraphQL resolver types (graphql-codegen, codegen.yml) when schema.graphql or
//    codegen.yml changed;
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
import { registrySources, resourceFolders } from './resource-folders.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...p) => path.join(root, ...p);

function run(label, args) {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) {
    process.stderr.write(`build: ${label} failed (exit ${r.status ?? r.signal})\n`);
    process.exit(r.status || 1);
  }
}

/** A hash of the inputs and of the generator packages' versions. */
function inputsHash(files, packages, extra = '') {
  const h = crypto.createHash('sha256');
  h.update(extra);
  for (const f of files) h.update(fs.readFileSync(at(...f)));
  for (const pkg of packages) h.update(JSON.parse(fs.readFileSync(at('node_modules', pkg, 'package.json'), 'utf8')).version);
  return h.digest('hex');
}

/** Runs a generator when its output is missing or its inputs changed since it last ran. */
function generate(label, { inputs, packages, extra, output, stamp, args }) {
  const hash = inputsHash(inputs, packages, extra);
  const current = fs.existsSync(at(...output)) && fs.existsSync(at(...stamp)) && fs.readFileSync(at(...stamp), 'utf8') === hash;
  if (current) return;
  run(label, args);
  fs.writeFileSync(at(...stamp), hash);
}

generate('prisma generate', {
  inputs: [['prisma', 'schema.prisma']],
  packages: ['prisma', '@prisma/client'],
  output: ['src', 'db', '__generated__', 'prisma', 'client.ts'],
  stamp: ['src', 'db', '__generated__', 'prisma-schema.sha256'],
  args: [at('node_modules', 'prisma', 'build', 'index.js'), 'generate'],
});
const folders = resourceFolders(root);
for (const [name, source] of Object.entries(registrySources(folders))) {
  const file = at('src', 'domain', '__generated__', name);
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === source) continue;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, source);
}

generate('graphql-codegen', {
  inputs: [['schema.graphql'], ['codegen.yml']],
  packages: ['@graphql-codegen/cli', '@graphql-codegen/typescript', '@graphql-codegen/typescript-resolvers'],
  output: ['src', 'graphql', '__generated__', 'resolvers-types.ts'],
  stamp: ['src', 'graphql', '__generated__', 'inputs.sha256'],
  args: [at('node_modules', '@graphql-codegen', 'cli', 'cjs', 'bin.js'), '--config', at('codegen.yml'), '--silent'],
});

if (!process.argv.includes('--generate-only')) {
  run('tsc', [at('node_modules', 'typescript', 'bin', 'tsc'), '--build', at('tsconfig.build.json')]);
}
