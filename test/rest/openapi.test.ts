import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/paths';
import { openApiDocument } from '../../src/rest/openapi';

// The OpenAPI document served at /api/v1/openapi.json: clean under Redocly's recommended
// rules (every warning an error), and a client generated from it by openapi-typescript
// types a small call the way the service behaves.

const bin = (name: string) => path.join(PROJECT_ROOT, 'node_modules', '.bin', name);
let dir: string;
let file: string;
const doc = openApiDocument() as {
  info: { license?: unknown };
  paths: Record<string, Record<string, { operationId?: string; responses: Record<string, { headers?: Record<string, unknown> }> }>>;
};

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
  file = path.join(dir, 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(doc));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const operations = () =>
  Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).map(([m, op]) => ({ where: `${m} ${p}`, op })));

it('has an operationId on every operation, each used once, and a license', () => {
  const ids = operations().map(({ op }) => op.operationId);
  expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
  expect(doc.info.license).toBeDefined();
});

it('documents Location on every 201 and Retry-After on every 429', () => {
  for (const { where, op } of operations()) {
    if (op.responses['201'])
      expect([where, op.responses['201'].headers]).toEqual([where, expect.objectContaining({ Location: expect.anything() })]);
    expect([where, op.responses['429']?.headers]).toEqual([where, expect.objectContaining({ 'Retry-After': expect.anything() })]);
  }
});

it('passes redocly lint with the recommended rules: 0 errors, 0 warnings', () => {
  const r = spawnSync(bin('redocly'), ['lint', '--format=stylish', '--config', path.join(PROJECT_ROOT, 'redocly.yaml'), file], {
    cwd: dir,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    encoding: 'utf8',
  });
  const out = `${r.stdout}\n${r.stderr}`;
  expect(out).not.toMatch(/^\s*\d+:\d+\s+(warning|error)\s/m); // a problem line of the stylish format
  expect(out).not.toMatch(/You have \d+ (warning|error)/);
  expect(out).toContain('Your API description is valid');
  expect(r.status).toBe(0);
}, 60_000);

it('gives openapi-typescript clients the right optional and required fields', () => {
  const gen = spawnSync(bin('openapi-typescript'), [file, '-o', path.join(dir, 'api.d.ts')], { cwd: dir, encoding: 'utf8' });
  expect(gen.status).toBe(0);
  fs.writeFileSync(
    path.join(dir, 'call.ts'),
    `import type { paths } from './api';

type Create = paths['/payment-sources']['post'];
type Body = Create['requestBody']['content']['application/json'];
type Created = Create['responses'][201];

// Defaulted fields (isActive, isDefault) and the optional description may be left out.
export const body: Body = { code: 'BANK-1', name: 'Bank', accountId: '3fa85f64-5717-4562-b3fc-2c963f66afa6', sourceType: 'BankTransfer' };
// @ts-expect-error code is required
export const noCode: Body = { name: 'Bank', accountId: '3fa85f64-5717-4562-b3fc-2c963f66afa6', sourceType: 'BankTransfer' };
// @ts-expect-error sourceType is one of the listed values
export const badType: Body = { code: 'X', name: 'Bank', accountId: '3fa85f64-5717-4562-b3fc-2c963f66afa6', sourceType: 'Barter' };

// Every field of a record is there (null when empty); headers the service always sends are typed as present.
export function read(created: Created['content']['application/json'], headers: Created['headers'], limited: Create['responses'][429]['headers']) {
  const description: string | null = created.description;
  const updatedAt: string | null = created.updatedAt;
  const isActive: boolean = created.isActive;
  const location: string = headers.Location;
  const etag: string = headers.ETag;
  const retryAfter: number = limited['Retry-After'];
  return [description, updatedAt, isActive, location, etag, retryAfter];
}

type Customer = paths['/customers/{id}']['get']['responses'][200]['content']['application/json'];
export const addressOwners = (c: Customer): string[] => c.addresses.map((a) => a.customerId);
type Quote = paths['/quotes']['post']['responses'][200]['content']['application/json'];
export const gross = (q: Quote): number => q.totals.grossAmount;
`,
  );
  const tsc = spawnSync(
    process.execPath,
    [
      path.join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
      '--noEmit',
      '--strict',
      '--target',
      'es2022',
      '--module',
      'commonjs',
      'call.ts',
    ],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
  expect(tsc.stdout).toBe('');
  expect(tsc.status).toBe(0);
}, 60_000);
