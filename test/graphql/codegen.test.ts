// The generated resolver types are committed; this fails when they are stale (someone
// changed schema.graphql or codegen.yml without running `npm run codegen`).
//
// The codegen runs through @graphql-codegen/cli's generate() with codegen.yml, output to
// memory. It runs in a child Node process: the CLI package requires ESM-only packages
// (yargs, listr2, log-symbols) that Node 20 loads but Jest's CommonJS runtime cannot.

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../src/config/paths';

const GENERATED = 'src/graphql/__generated__/resolvers-types.ts';

const SCRIPT = `
const { generate, loadContext } = require('@graphql-codegen/cli');
(async () => {
  const context = await loadContext(process.argv[1]);
  const outputs = await generate(context, false);
  process.stdout.write(JSON.stringify(outputs.map((o) => ({ filename: o.filename, content: o.content }))));
})().catch((e) => { console.error(e); process.exit(1); });
`;

test(`${GENERATED} is what \`npm run codegen\` makes of schema.graphql`, async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', SCRIPT, path.join(PROJECT_ROOT, 'codegen.yml')], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, NODE_OPTIONS: '' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const outputs = JSON.parse(stdout) as { filename: string; content: string }[];
  expect(outputs.map((o) => path.relative(PROJECT_ROOT, path.resolve(PROJECT_ROOT, o.filename)))).toEqual([GENERATED]);
  const committed = fs.readFileSync(path.join(PROJECT_ROOT, GENERATED), 'utf8');
  // A difference means: run `npm run codegen` and commit the result.
  expect(outputs[0]!.content).toBe(committed);
});
