#!/usr/bin/env node
// Prints the statement a migration needs to (re)define a PL/pgSQL function from its readable
// source, prisma/functions/<name>.sql: the body on one line as an E'' string, each `;`
// written as \x3B, since the Prisma CLI cuts migration scripts at every `;`, even inside
// quotes and dollar quotes (prisma/README.md). test/db/functions.test.ts holds every
// function of a migrated database to its readable source.
//
// usage: node scripts/migration-function.mjs <name>   (then paste the line into the migration)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const name = process.argv[2];
if (!name) {
  process.stderr.write('usage: node scripts/migration-function.mjs <name of prisma/functions/<name>.sql>\n');
  process.exit(2);
}
const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'prisma', 'functions', `${name}.sql`);
const sql = fs.readFileSync(file, 'utf8');
const m = /^(CREATE OR REPLACE FUNCTION [^\n]*? AS )\$\$\n([\s\S]*?)\n\$\$;\s*$/m.exec(sql);
if (!m) {
  process.stderr.write(`${file}: expected CREATE OR REPLACE FUNCTION ... AS $$ <body> $$;\n`);
  process.exit(1);
}
const body = m[2].replace(/\s+/g, ' ').trim();
const escaped = body.replace(/\\/g, '\\\\').replace(/'/g, "''").replace(/;/g, '\\x3B');
process.stdout.write(`${m[1]}E'${escaped}';\n`);
