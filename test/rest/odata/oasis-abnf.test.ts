// The OASIS ABNF test cases for OData 4.01 that fall inside the service's subset
// (test/data/oasis-odata-abnf-cases.json: which cases, from where, mapped how), each sent
// over HTTP: a case the ABNF accepts is answered 200, one it rejects 400 (404 for a path).
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createTestApp, type TestApp, bearer } from '../../support/app';

interface OasisCase {
  readonly name: string;
  readonly rule: string;
  readonly failAt?: number;
  readonly verdict: 'valid' | 'invalid';
  readonly resource: string;
  readonly params: readonly (readonly [string, string | null])[];
}

const corpus: { cases: OasisCase[] } = JSON.parse(fs.readFileSync(path.join(__dirname, '../../data/oasis-odata-abnf-cases.json'), 'utf8'));

// What a client must escape to send the text as one query parameter; `%` escapes written in
// a case are the case's own and go as they are, and so does a `+` (a plus sign in OData).
const escape = (text: string): string => text.replace(/[ &#\t]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`);
const urlOf = (c: OasisCase): string => {
  const query = c.params.map(([n, v]) => (v === null ? escape(n) : `${escape(n)}=${escape(v)}`)).join('&');
  return `/api/v1/${c.resource}${query ? `?${query}` : ''}`;
};
const expectedStatus = (c: OasisCase): number => (c.verdict === 'valid' ? 200 : c.resource.split('/').length > 2 ? 404 : 400);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

test('the selection is the stored one: over a hundred cases, both verdicts', () => {
  expect(corpus.cases.length).toBeGreaterThanOrEqual(100);
  expect(corpus.cases.filter((c) => c.verdict === 'invalid').length).toBeGreaterThan(15);
  expect(corpus.cases.every((c) => (c.failAt === undefined) === (c.verdict === 'valid'))).toBe(true);
});

test.each(corpus.cases.map((c) => [`${c.rule}: ${c.name} → ${c.verdict}`, c] as const))('%s', async (_title, c) => {
  const res = await request(t.http).get(urlOf(c)).set(bearer(t.tokens.reader));
  if (res.status !== expectedStatus(c)) throw new Error(`${urlOf(c)} answered ${res.status}: ${res.text.slice(0, 300)}`);
  if (c.verdict === 'invalid' && res.status === 400) expect(res.body.code).toBe('INVALID_QUERY');
});
