// The one table of every error code (docs/service.md, "Errors") is the one the catalogue
// writes (src/errors/table.ts, `npm run docs:errors`): a code added to the catalogue, or an
// Apollo code the GraphQL door lets through, fails here until the table lists it.

import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/paths';
import { ERRORS, GRAPHQL_PROTOCOL_ERRORS } from '../../src/errors/catalogue';
import { TABLE_END, TABLE_START, withErrorTable } from '../../src/errors/table';

const read = (file: string): string => fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8');

/** The codes of the rows between the markers. */
function listedCodes(markdown: string): string[] {
  const block = markdown.slice(markdown.indexOf(TABLE_START), markdown.indexOf(TABLE_END));
  return [...block.matchAll(/^\| ([A-Z_]+) \|/gm)].map((m) => m[1]!);
}

it('docs/service.md lists every code of the catalogue and every Apollo code the door answers', () => {
  const listed = listedCodes(read('docs/service.md'));
  const missing = [...Object.keys(ERRORS), ...Object.keys(GRAPHQL_PROTOCOL_ERRORS)].filter((c) => !listed.includes(c));
  expect(missing).toEqual([]);
  expect(listed).toContain('PERSISTED_QUERY_HASH_MISMATCH');
  expect(listed).toContain('GRAPHQL_VALIDATION_FAILED');
});

it('the table is the generated one (run `npm run docs:errors` after changing the catalogue)', () => {
  const doc = read('docs/service.md');
  expect(withErrorTable(doc)).toBe(doc);
});

it('the README keeps no second, hand-written table of codes: it points to the one', () => {
  const readme = read('README.md');
  expect(readme).not.toMatch(/^\| (VALIDATION_FAILED|UNAUTHENTICATED|INTERNAL) \|/m);
  expect(readme).toContain('docs/service.md#errors');
});
