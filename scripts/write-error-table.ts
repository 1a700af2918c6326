// Writes the table of every error code (src/errors/table.ts) into docs/service.md.
// usage: npm run docs:errors
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/config/paths';
import { withErrorTable } from '../src/errors/table';

const file = path.join(PROJECT_ROOT, 'docs', 'service.md');
fs.writeFileSync(file, withErrorTable(fs.readFileSync(file, 'utf8')));
