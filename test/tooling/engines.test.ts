import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { PROJECT_ROOT } from '../../src/config/paths';

// package.json `engines` says which Node.js lines the project supports; it must be true:
// every installed package accepts the lowest version of each supported line (no EBADENGINE
// on install), and .ci/run runs the suite on each of those lines.

const read = (f: string) => fs.readFileSync(path.join(PROJECT_ROOT, f), 'utf8');
const range = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
/** The lowest version of each supported line, e.g. 22.15.0 and 24.0.0. */
const lowest = new semver.Range(range).set.map(
  (comparators) => semver.minVersion(new semver.Range(comparators.map((c) => c.value).join(' ')))!.version,
);

it('names whole LTS lines from their first version a dependency accepts', () => {
  expect(lowest.length).toBeGreaterThanOrEqual(2);
  for (const v of lowest) expect(semver.major(v) % 2).toBe(0); // even majors are the LTS lines
});

it('every package in the lock file accepts the lowest version of each supported line', () => {
  const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: { node?: string } | string[] }> };
  const refused: string[] = [];
  for (const [where, p] of Object.entries(lock.packages)) {
    const node = Array.isArray(p.engines) ? undefined : p.engines?.node;
    if (!where || !node) continue;
    for (const v of lowest)
      if (!semver.satisfies(v, node)) refused.push(`${where.replace(/^.*node_modules\//, '')} needs node ${node}, not ${v}`);
  }
  expect(refused).toEqual([]);
});

it('.ci/run runs the suite on every supported line', () => {
  const majors = /^SUPPORTED_MAJORS=\(([\d ]+)\)$/m.exec(read('.ci/run'))?.[1]?.split(' ').map(Number);
  expect(majors?.sort()).toEqual(lowest.map((v) => semver.major(v)).sort());
});
