import fs from 'node:fs';
import path from 'node:path';

// The project root is the folder holding package.json, whether this file runs from
// src/ (tsx, jest) or from dist/src/ (npm start).
function findProjectRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'prisma'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the project root above ${start}`);
    dir = parent;
  }
}

export const PROJECT_ROOT = findProjectRoot(__dirname);
export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'prisma', 'migrations');
/** The demo dataset shipped with the project, loaded on first start into an empty embedded database. */
export const DEMO_DATA_FILE = path.join(PROJECT_ROOT, 'prisma', 'demo', 'reference-data.json');
