// Variables that do not fit their declared types: one VALIDATION_FAILED (HTTP 400) that lists
// every fault with its place inside the variable, before anything runs (src/graphql/variables.ts).

import { createTestApp, type TestApp } from '../support/app';
import { fixture } from '../support/fixture';
import { gql } from '../support/graphql';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const QUOTE = 'query($input: QuoteInput!) { quote(input: $input) { totals { grossAmount } } }';
const article = () => fixture.articles.find((a) => a.isActive)!.id;

async function faults(query: string, variables: Record<string, unknown>) {
  const res = await gql(t, query, variables);
  expect(res.status).toBe(400);
  expect(res.data ?? null).toBeNull();
  expect(res.errors).toHaveLength(1);
  const e = res.errors![0]!;
  expect(e.extensions.code).toBe('VALIDATION_FAILED');
  expect(e.extensions.field).toBe(e.extensions.errors[0].field);
  return e.extensions.errors as Array<{ field: string; message: string }>;
}

it('names every faulty place in nested input: a bad scalar, a missing field, an unknown field, a null in a non-null list', async () => {
  const errors = await faults(QUOTE, {
    input: {
      lines: [
        { articleId: article(), quantity: 1, billingDate: '2025-11-01' },
        { articleId: 'not-a-uuid', quantity: 1, billingDate: '2025-11-01' },
        { articleId: article(), billingDate: '2025-11-01' },
        { articleId: article(), quantity: 1, billingDate: '2025-11-01', colour: 'red' },
        null,
      ],
    },
  });
  expect(errors.map((e) => e.field)).toEqual(['lines[1].articleId', 'lines[2].quantity', 'lines[3].colour', 'lines[4]']);
  expect(errors[0]!.message).toMatch(/UUID/);
  expect(errors[1]!.message).toMatch(/required/);
  expect(errors[2]!.message).toMatch(/not a field/);
  expect(errors[3]!.message).toMatch(/null/);
});

it('names a missing variable, a null for a non-null one, and a bad enum value by the variable', async () => {
  expect((await faults(QUOTE, {})).map((e) => e.field)).toEqual(['input']);
  expect((await faults(QUOTE, { input: null })).map((e) => e.field)).toEqual(['input']);
  const list = 'query($t: [TaxType!]) { taxCodes(where: { taxType: { in: $t } }) { totalCount } }';
  const errors = await faults(list, { t: ['VAT', 'BARTER'] });
  expect(errors.map((e) => e.field)).toEqual(['t[1]']);
});

it('takes what GraphQL input coercion takes: a single value for a list, defaults for absent optional fields', async () => {
  const single = await gql(t, QUOTE, { input: { lines: { articleId: article(), quantity: '2', billingDate: '2025-11-01' } } });
  expect(single.errors).toBeUndefined();
  expect(single.data?.quote.totals.grossAmount).toEqual(expect.any(Number));
  const list = await gql(t, 'query($t: [TaxType!]) { taxCodes(where: { taxType: { in: $t } }) { totalCount } }', { t: 'VAT' });
  expect(list.errors).toBeUndefined();
  expect(list.data?.taxCodes.totalCount).toBe(fixture.taxCodes.filter((c) => c.taxType === 'VAT').length);
});
