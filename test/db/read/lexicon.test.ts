// Substring filters on surnames look up the matching surnames first (src/db/read/lexicon.ts)
// and add them to the filter. The page must be exactly the page the filter alone gives, and
// the surname table must hold every surname a customer has, whoever wrote it: the import
// (new customers and changed ones), or SQL by hand.

import { randomUUID } from 'node:crypto';
import { importReferenceData } from '../../../src/import';
import { customerFields } from '../../../src/domain/customer/fields';
import { MAX_LEXICON_VALUES } from '../../../src/db/read/lexicon';
import { toPrismaWhere } from '../../support/prisma-where';
import type { FilterNode } from '../../../src/query/filter-tree';
import { createTestApp, type TestApp } from '../../support/app';
import { demo, writeFile } from '../../import/helpers';

let t: TestApp;
const sent: string[] = [];

// Several customers per surname; LIKE's special characters taken literally; case differences.
const SURNAMES = [
  'Abel',
  'Hartmann',
  'Neumann',
  'Mann',
  'mann',
  'Maßmann',
  'Ölmann',
  '100%Mann',
  '100xMann',
  'Under_score',
  'UnderXscore',
  'Back\\slash',
  'Zimmer',
];

beforeAll(async () => {
  t = await createTestApp({ demoData: false, onQuery: (sql) => sent.push(sql) });
  await t.db.prisma.customer.createMany({
    data: SURNAMES.flatMap((lastName, i) =>
      [0, 1, 2].map((j) => ({ id: randomUUID(), firstName: `F${j}`, lastName, debtorNumber: `LX-${i}-${j}` })),
    ),
  });
});
afterAll(() => t.close());

const text = (op: 'contains' | 'endswith' | 'startswith', value: string, ignoreCase = false): FilterNode => ({
  kind: 'text',
  field: 'lastName',
  op,
  value,
  ignoreCase,
});
const ORDER = [{ field: 'lastName', direction: 'asc' }] as const;

/** The page's ids as the filter alone gives them (Prisma, without the surname lookup). */
async function reference(filter: FilterNode): Promise<string[]> {
  const rows = await t.db.prisma.customer.findMany({
    where: toPrismaWhere(filter, customerFields),
    orderBy: [{ lastName: 'asc' }, { id: 'asc' }],
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/** Every page of the list, two records at a time, through the service (cursor after cursor), and the count. */
async function listed(filter: FilterNode): Promise<{ ids: string[]; count: number | undefined; lookedUp: boolean }> {
  sent.length = 0;
  const ids: string[] = [];
  let after: string | undefined;
  let count: number | undefined;
  for (;;) {
    const page = await t.services.customers.list({ filter, orderBy: ORDER, limit: 2, after, count: true });
    count = page.totalCount;
    ids.push(...page.items.map((c) => c.id));
    if (!page.hasMore) break;
    after = page.cursorOf(page.items[page.items.length - 1]!);
  }
  return { ids, count, lookedUp: sent.some((s) => s.includes('"CustomerSurname"')) };
}

const FILTERS: ReadonlyArray<readonly [string, FilterNode, boolean]> = [
  ['contains', text('contains', 'mann'), true],
  ['endswith', text('endswith', 'Mann'), true],
  ['contains ignoring case', text('contains', 'mann', true), true],
  ['endswith ignoring case', text('endswith', 'MANN', true), true],
  ['a literal %', text('contains', '%M'), true],
  ['a literal _', text('contains', 'r_s'), true],
  ['a literal backslash', text('contains', 'k\\s'), true],
  ['no surname', text('contains', 'qqq'), true],
  [
    'with another condition',
    {
      kind: 'and',
      nodes: [text('contains', 'mann'), { kind: 'compare', field: 'firstName', op: 'ne', value: { type: 'string', value: 'F1' } }],
    },
    true,
  ],
  ['two on the same field', { kind: 'and', nodes: [text('contains', 'ann'), text('endswith', 'mann')] }, true],
  [
    'under or (left as it is)',
    {
      kind: 'or',
      nodes: [text('contains', 'mann'), { kind: 'compare', field: 'lastName', op: 'eq', value: { type: 'string', value: 'Abel' } }],
    },
    false,
  ],
  ['under not (left as it is)', { kind: 'not', node: text('contains', 'mann') }, false],
  ['a prefix (an index range already)', text('startswith', 'Ma'), false],
];

it.each(FILTERS)('%s: the same records, order and count as the filter alone', async (_name, filter, lookedUp) => {
  const expected = await reference(filter);
  const got = await listed(filter);
  expect(got.ids).toEqual(expected);
  expect(got.count).toBe(expected.length);
  expect(got.lookedUp).toBe(lookedUp);
});

it('the filters above are not all trivial', async () => {
  const sizes = await Promise.all(FILTERS.map(([, f]) => reference(f).then((ids) => ids.length)));
  expect(sizes.filter((n) => n > 0).length).toBeGreaterThanOrEqual(FILTERS.length - 1);
  expect(await reference(text('contains', '%M'))).toHaveLength(3); // 100%Mann, not 100xMann
  expect(await reference(text('contains', 'r_s'))).toHaveLength(3); // Under_score, not UnderXscore
});

it(`more than ${MAX_LEXICON_VALUES} matching surnames leave the filter as it is`, async () => {
  await t.db.session.exec(`
    INSERT INTO "Customer" (id, "firstName", "lastName", "debtorNumber")
    SELECT gen_random_uuid(), 'F', 'Wqv' || i, 'WQV' || i FROM generate_series(1, ${MAX_LEXICON_VALUES + 1}) AS i`);
  const filter = text('contains', 'Wqv');
  const got = await listed(filter);
  expect(got.lookedUp).toBe(true);
  expect(sent.filter((s) => s.includes('FROM "public"."Customer"') && / IN \(/.test(s))).toEqual([]);
  expect(got.ids).toEqual(await reference(filter));
  expect(got.ids).toHaveLength(MAX_LEXICON_VALUES + 1);
});

describe('the surname table holds every surname a customer has', () => {
  const surnames = async (): Promise<string[]> =>
    (await t.db.session.query<{ name: string }>('SELECT name FROM "CustomerSurname" ORDER BY name')).map((r) => r.name);
  const found = async (value: string): Promise<string[]> =>
    (await t.services.customers.list({ filter: text('contains', value), orderBy: ORDER, limit: 100 })).items.map((c) => c.lastName);

  it('the surnames of customers imported, then changed by the import', async () => {
    const d = demo();
    d.customers[0]!.lastName = 'Quirrelmann';
    await importReferenceData(t.db, writeFile(d));
    expect(await surnames()).toEqual(expect.arrayContaining([...new Set(d.customers.map((c) => c.lastName))]));
    expect(await found('uirrel')).toEqual(['Quirrelmann']);

    d.customers[0]!.lastName = 'Quokkamann';
    const r = await importReferenceData(t.db, writeFile(d));
    expect(r.counts.customers.updated).toBe(1);
    expect(await found('uokka')).toEqual(['Quokkamann']);
    // A surname nobody has any more stays in the table, and finds nobody.
    expect(await surnames()).toContain('Quirrelmann');
    expect(await found('uirrel')).toEqual([]);
  });

  it('a surname written by hand in SQL, inserted or updated', async () => {
    await t.db.session.exec(
      `INSERT INTO "Customer" (id, "firstName", "lastName", "debtorNumber") VALUES (gen_random_uuid(), 'F', 'Handwritten', 'HW-1')`,
    );
    expect(await found('ndwri')).toEqual(['Handwritten']);
    await t.db.session.exec(`UPDATE "Customer" SET "lastName" = 'Rewritten' WHERE "debtorNumber" = 'HW-1'`);
    expect(await found('ewri')).toEqual(['Rewritten']);
  });

  it('no surname without a customer that had it: a rolled-back write leaves none behind', async () => {
    await expect(
      t.db.prisma.$transaction(async (tx) => {
        await tx.customer.create({ data: { id: randomUUID(), firstName: 'F', lastName: 'Rolledback', debtorNumber: 'RB-1' } });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await surnames()).not.toContain('Rolledback');
  });
});
