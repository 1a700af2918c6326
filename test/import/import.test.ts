import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { DEMO_DATA_FILE } from '../../src/config/paths';
import { NIL_UUID } from '../../src/domain/common/schemas';
import {
  ImportFileError,
  importReferenceData,
  IMPORT_SECTIONS,
  ImportValidationError,
  ImportWriteError,
  recordOf,
  writeRuns,
} from '../../src/import';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { demo, dump, fileCounts, positions, rejected, rowCounts, writeFile, type ImportFile } from './helpers';

// The reference-data import (docs/service.md "Reference-data import"), on a real database:
// PGlite in memory, or PostgreSQL when DATABASE_URL is set.

const USER = 'c0ffee00-0000-4000-8000-000000000001';

async function fresh(): Promise<TestDatabase> {
  return createTestDatabase();
}

describe('importing the demo dataset', () => {
  let db: TestDatabase;
  const data = demo();
  const expected = fileCounts(data);

  beforeAll(async () => {
    db = await fresh();
  });
  afterAll(async () => {
    await db.close();
  });

  it('inserts every record of the file, table by table', async () => {
    const r = await importReferenceData(db, DEMO_DATA_FILE);
    for (const s of IMPORT_SECTIONS) expect([s, r.counts[s]]).toEqual([s, { inserted: expected[s], updated: 0, unchanged: 0 }]);
    expect(await rowCounts(db)).toEqual(expected);
    expect(r.records).toBe(Object.values(expected).reduce((a, b) => a + b, 0));
  });

  it('keeps decimals exact and dates as given', async () => {
    const prices = await db.prisma.$queryRawUnsafe<{ id: string; amount: string; validFrom: string }[]>(
      `SELECT id::text, amount::text, to_json("validFrom")#>>'{}' AS "validFrom" FROM "ArticlePrice"`,
    );
    const byId = new Map(prices.map((p) => [p.id, p]));
    for (const p of data.articlePrices) {
      const row = byId.get(p.id)!;
      expect(row.amount).toBe(new Decimal(String(p.amount)).toFixed(4));
      expect(new Date(row.validFrom).toISOString()).toBe(new Date(p.validFrom as string).toISOString());
    }
    const rates = await db.prisma.$queryRawUnsafe<{ id: string; rate: string }[]>(`SELECT id::text, rate::text FROM "TaxCode"`);
    for (const t of data.taxCodes) expect(rates.find((r) => r.id === t.id)!.rate).toBe(new Decimal(String(t.rate)).toFixed(2));
  });

  it('keeps the audit fields the file gives', async () => {
    const rows = await db.prisma.paymentSource.findMany();
    for (const p of data.paymentSources) {
      const row = rows.find((r) => r.id === p.id)!;
      expect(row.createdAt.toISOString()).toBe(new Date(p.createdAt as string).toISOString());
      expect(row.createdById).toBe(p.createdById);
      expect(row.updatedAt).toBeNull();
      expect(row.updatedById).toBeNull();
    }
  });

  it('changes nothing when the same file is imported again', async () => {
    const before = await dump(db);
    const r = await importReferenceData(db, DEMO_DATA_FILE);
    for (const s of IMPORT_SECTIONS) expect([s, r.counts[s]]).toEqual([s, { inserted: 0, updated: 0, unchanged: expected[s] }]);
    // Same values and the same row versions (xmin): not one row was rewritten or locked.
    expect(await dump(db)).toEqual(before);
  });

  it('updates only the records whose values differ, and counts them', async () => {
    const d = demo();
    d.customers[0]!.lastName = 'Changed';
    d.customers[1]!.addresses![0]!.city = 'Elsewhere';
    d.articlePrices[0]!.amount = 12.3456;
    const r = await importReferenceData(db, writeFile(d));
    expect(r.counts.customers).toEqual({ inserted: 0, updated: 1, unchanged: expected.customers - 1 });
    expect(r.counts.addresses).toEqual({ inserted: 0, updated: 1, unchanged: expected.addresses - 1 });
    expect(r.counts.articlePrices).toEqual({ inserted: 0, updated: 1, unchanged: expected.articlePrices - 1 });
    expect(r.counts.accounts).toEqual({ inserted: 0, updated: 0, unchanged: expected.accounts });
    const [p] = await db.prisma.$queryRawUnsafe<{ amount: string }[]>(
      `SELECT amount::text FROM "ArticlePrice" WHERE id = $1::uuid`,
      d.articlePrices[0]!.id,
    );
    expect(p!.amount).toBe('12.3456');
  });
});

describe('a file with bad records writes nothing and names each one', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await fresh();
  });
  afterAll(async () => {
    await db.close();
  });
  afterEach(async () => {
    expect(Object.values(await rowCounts(db)).every((n) => n === 0)).toBe(true);
  });

  type Data = ReturnType<typeof demo>;
  const inactiveAsset = (d: Data) => d.accounts.find((a) => a.type === 'Asset' && a.isActive === false)!;
  const liability = (d: Data) => d.accounts.find((a) => a.type === 'Liability' && a.isActive !== false)!;
  const nonDefaultSource = (d: Data) => d.paymentSources.findIndex((p) => !p.isDefault);
  const withAddresses = (d: Data, n: number) => d.customers.findIndex((c) => (c.addresses?.length ?? 0) >= n);

  const cases: [string, (d: Data) => string, RegExp][] = [
    [
      'an unknown enum value',
      (d) => {
        d.paymentSources[2]!.sourceType = 'Bitcoin';
        return 'paymentSources[2].sourceType';
      },
      /must be one of .*Bitcoin/,
    ],
    [
      'a reference to nothing',
      (d) => {
        d.articles[3]!.defaultTaxCodeId = randomUUID();
        return 'articles[3].defaultTaxCodeId';
      },
      /no tax code with id/,
    ],
    [
      'a payment source code used by another in other case',
      (d) => {
        d.paymentSources[1]!.code = (d.paymentSources[0]!.code as string).toLowerCase();
        return 'paymentSources[1].code';
      },
      /case-insensitively/,
    ],
    [
      'a second default payment source',
      (d) => {
        const i = nonDefaultSource(d);
        d.paymentSources[i]!.isDefault = true;
        return `paymentSources[${i}].isDefault`;
      },
      /only one payment source can be the default/,
    ],
    [
      'a second default address',
      (d) => {
        const i = withAddresses(d, 2);
        for (const a of d.customers[i]!.addresses!) a.isDefault = true;
        return `customers[${i}].addresses`;
      },
      /at most one address can be the default/,
    ],
    [
      'an inactive account on a payment source',
      (d) => {
        d.paymentSources[1]!.accountId = inactiveAsset(d).id;
        return 'paymentSources[1].accountId';
      },
      /inactive/,
    ],
    [
      'a payment source on an account that is not an Asset',
      (d) => {
        d.paymentSources[1]!.accountId = liability(d).id;
        return 'paymentSources[1].accountId';
      },
      /of type Liability/,
    ],
    [
      'a duplicate account code',
      (d) => {
        d.accounts[4]!.code = d.accounts[2]!.code;
        return 'accounts[4].code';
      },
      /also used by accounts\[2\]/,
    ],
    [
      'a duplicate debtor number',
      (d) => {
        d.customers[5]!.debtorNumber = d.customers[1]!.debtorNumber;
        return 'customers[5].debtorNumber';
      },
      /also used by customers\[1\]/,
    ],
    [
      'a duplicate id',
      (d) => {
        d.academicTerms[2]!.id = d.academicTerms[0]!.id;
        return 'academicTerms[2].id';
      },
      /duplicate id/,
    ],
    [
      'two prices of one article from the same day',
      (d) => {
        const i = d.articlePrices.findIndex((p) => d.articlePrices.filter((q) => q.articleId === p.articleId).length > 1);
        const j = d.articlePrices.findIndex((q, k) => k > i && q.articleId === d.articlePrices[i]!.articleId);
        d.articlePrices[j]!.validFrom = d.articlePrices[i]!.validFrom;
        return `articlePrices[${j}].validFrom`;
      },
      /already has a price from/,
    ],
    [
      'an address too long',
      (d) => {
        d.customers[3]!.addresses![0]!.postalCode = '1'.repeat(21);
        return 'customers[3].addresses[0].postalCode';
      },
      /at most 20 characters/,
    ],
    [
      'an impossible date',
      (d) => {
        d.academicTerms[1]!.startDate = '2025-02-30T00:00:00Z';
        return 'academicTerms[1].startDate';
      },
      /not a valid date/,
    ],
    [
      'a missing field',
      (d) => {
        delete d.customers[7]!.lastName;
        return 'customers[7].lastName';
      },
      /is required/,
    ],
    [
      'an unknown field',
      (d) => {
        d.taxCodes[0]!.colour = 'blue';
        return 'taxCodes[0].colour';
      },
      /not a field/,
    ],
  ];

  it.each(cases)('%s', async (_name, spoil, message) => {
    const d = demo();
    const at = spoil(d);
    const problems = await rejected(db, writeFile(d));
    expect(problems).toContainEqual({ position: at, message: expect.stringMatching(message) });
  });

  it('reports all bad records at once, in file order', async () => {
    const d = demo();
    const expectedPositions = cases.map(([, spoil]) => spoil(d));
    const e = await importReferenceData(db, writeFile(d)).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ImportValidationError);
    const got = positions((e as ImportValidationError).problems);
    for (const p of expectedPositions) expect(got).toContain(p);
    const order = ['accounts', 'taxCodes', 'articles', 'articlePrices', 'customers', 'academicTerms', 'paymentSources'];
    const sectionIndex = got.map((p) => order.indexOf(p.split('[')[0]!));
    expect([...sectionIndex].sort((a, b) => a - b)).toEqual(sectionIndex);
    expect((e as ImportValidationError).invalidRecords).toBeGreaterThanOrEqual(new Set(expectedPositions.map(recordOf)).size);
  });

  it('refuses an unknown section and a section that is not an array', async () => {
    const d: ImportFile = demo();
    d.paymentsources = [];
    d.academicTerms = { nope: true } as never;
    const problems = await rejected(db, writeFile(d));
    expect(positions(problems)).toEqual(expect.arrayContaining(['paymentsources', 'academicTerms']));
  });
});

describe('the file itself', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await fresh();
  });
  afterAll(async () => {
    await db.close();
  });

  it.each([
    ['not JSON', '{"accounts": [ {"id": 1,} ]}', /accounts\[0\] is not valid JSON/],
    ['cut short', '{"accounts": [', /unexpected end of file/],
    ['an array, not an object', '[]', /must hold a JSON object/],
    ['empty', '', /empty/],
    ['a section twice', '{"accounts": [], "accounts": []}', /appears twice/],
  ])('%s is a file error', async (_name, text, message) => {
    await expect(importReferenceData(db, writeFile(text))).rejects.toThrow(ImportFileError);
    await expect(importReferenceData(db, writeFile(text))).rejects.toThrow(message);
  });

  it('an unreadable path is a file error', async () => {
    await expect(importReferenceData(db, '/nonexistent/file.json')).rejects.toThrow(/no such file/);
  });

  it('accepts sections in any order and absent sections', async () => {
    const d = demo();
    const reversed = {
      paymentSources: d.paymentSources,
      academicTerms: d.academicTerms,
      customers: d.customers,
      articles: d.articles,
      taxCodes: d.taxCodes,
      accounts: d.accounts,
    };
    const r = await importReferenceData(db, writeFile(reversed));
    expect(r.counts.paymentSources.inserted).toBe(d.paymentSources.length);
    expect(r.counts.articlePrices).toEqual({ inserted: 0, updated: 0, unchanged: 0 });
    expect((await rowCounts(db)).customers).toBe(d.customers.length);
  });
});

describe('audit fields', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await fresh();
  });
  afterAll(async () => {
    await db.close();
  });

  const account = { id: randomUUID(), code: '4000', name: 'Revenue', type: 'Revenue' };
  const given = {
    id: randomUUID(),
    code: 'A-1',
    name: 'With audit fields',
    revenueAccountId: account.id,
    createdAt: '2024-01-02T03:04:05.678Z',
    createdById: USER,
    updatedAt: '2025-06-07T08:09:10.111Z',
    updatedById: USER,
  };
  const bare = { id: randomUUID(), code: 'A-2', name: 'Without audit fields' };

  it('keeps them when given, and defaults them when absent', async () => {
    const t0 = new Date();
    await importReferenceData(db, writeFile({ accounts: [account], articles: [given, bare] }));
    const t1 = new Date();
    const a = await db.prisma.article.findUniqueOrThrow({ where: { id: given.id } });
    expect(a.createdAt.toISOString()).toBe(given.createdAt);
    expect(a.createdById).toBe(USER);
    expect(a.updatedAt!.toISOString()).toBe(given.updatedAt);
    expect(a.updatedById).toBe(USER);
    const b = await db.prisma.article.findUniqueOrThrow({ where: { id: bare.id } });
    expect(b.createdAt.getTime()).toBeGreaterThanOrEqual(t0.getTime() - 1);
    expect(b.createdAt.getTime()).toBeLessThanOrEqual(t1.getTime() + 1);
    expect(b.createdById).toBe(NIL_UUID);
    expect(b.updatedAt).toBeNull();
    expect(b.updatedById).toBeNull();
  });

  it('keeps createdAt of an existing row when the file gives none, and stamps a real change', async () => {
    const before = await db.prisma.article.findUniqueOrThrow({ where: { id: bare.id } });
    // the same file: nothing changes, updatedAt stays null
    await importReferenceData(db, writeFile({ articles: [bare] }));
    expect(await db.prisma.article.findUniqueOrThrow({ where: { id: bare.id } })).toEqual(before);
    // a changed name: createdAt kept, updatedAt = import time, updatedById = the system
    const t0 = new Date();
    const r = await importReferenceData(db, writeFile({ articles: [{ ...bare, name: 'Renamed' }] }));
    expect(r.counts.articles).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
    const after = await db.prisma.article.findUniqueOrThrow({ where: { id: bare.id } });
    expect(after.name).toBe('Renamed');
    expect(after.createdAt).toEqual(before.createdAt);
    expect(after.createdById).toBe(NIL_UUID);
    expect(after.updatedAt!.getTime()).toBeGreaterThanOrEqual(t0.getTime() - 1);
    expect(after.updatedById).toBe(NIL_UUID);
    // and again unchanged: updatedAt untouched
    await importReferenceData(db, writeFile({ articles: [{ ...bare, name: 'Renamed' }] }));
    expect(await db.prisma.article.findUniqueOrThrow({ where: { id: bare.id } })).toEqual(after);
  });

  it('keeps the creator of a row the file does not name', async () => {
    const created = await db.prisma.article.create({
      data: { code: 'A-3', name: 'Made in the app', createdById: USER },
    });
    await importReferenceData(db, writeFile({ articles: [{ id: created.id, code: 'A-3', name: 'Made in the app' }] }));
    const row = await db.prisma.article.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.createdById).toBe(USER);
    expect(row.createdAt).toEqual(created.createdAt);
    expect(row.updatedAt).toBeNull();
  });
});

describe('rules that count the rows already in the database', () => {
  let db: TestDatabase;
  const d = demo();
  const oldDefault = d.paymentSources.find((p) => p.isDefault)!;
  const asset = d.accounts.find((a) => a.type === 'Asset' && a.isActive !== false)!;
  const newSource = {
    id: randomUUID(),
    code: 'NEW-DEFAULT',
    name: 'New default',
    accountId: asset.id,
    sourceType: 'Cash',
    isDefault: true,
  };

  beforeAll(async () => {
    db = await fresh();
    await importReferenceData(db, DEMO_DATA_FILE);
  });
  afterAll(async () => {
    await db.close();
  });

  it('refuses a new default payment source while another default stays in the database', async () => {
    const before = await dump(db);
    const problems = await rejected(db, writeFile({ paymentSources: [newSource] }));
    expect(problems).toEqual([
      { position: 'paymentSources[0].isDefault', message: expect.stringMatching(/already the default in the database/) },
    ]);
    expect(await dump(db)).toEqual(before);
  });

  it('refuses a code that a payment source outside the file uses (in other case)', async () => {
    const problems = await rejected(
      db,
      writeFile({ paymentSources: [{ ...newSource, isDefault: false, code: (oldDefault.code as string).toLowerCase() }] }),
    );
    expect(problems).toEqual([{ position: 'paymentSources[0].code', message: expect.stringMatching(/already used by payment source/) }]);
  });

  it('moves the default when the file also clears the old one', async () => {
    const r = await importReferenceData(db, writeFile({ paymentSources: [newSource, { ...oldDefault, isDefault: false }] }));
    expect(r.counts.paymentSources).toEqual({ inserted: 1, updated: 1, unchanged: 0 });
    const defaults = await db.prisma.paymentSource.findMany({ where: { isDefault: true } });
    expect(defaults.map((p) => p.id)).toEqual([newSource.id]);
  });

  it('swaps the codes of two payment sources', async () => {
    const [a, b] = d.paymentSources.filter((p) => !p.isDefault);
    const r = await importReferenceData(
      db,
      writeFile({
        paymentSources: [
          { ...a!, code: b!.code },
          { ...b!, code: a!.code },
        ],
      }),
    );
    expect(r.counts.paymentSources.updated).toBe(2);
    expect((await db.prisma.paymentSource.findUniqueOrThrow({ where: { id: a!.id } })).code).toBe(b!.code);
    expect((await db.prisma.paymentSource.findUniqueOrThrow({ where: { id: b!.id } })).code).toBe(a!.code);
  });

  it('swaps the start dates of two prices of an article and the debtor numbers of two customers', async () => {
    const p = d.articlePrices.find((x) => d.articlePrices.filter((y) => y.articleId === x.articleId).length > 1)!;
    const q = d.articlePrices.find((y) => y.articleId === p.articleId && y.id !== p.id)!;
    const [c1, c2] = d.customers.filter((c, i) => i > 0 && c.addresses?.length === 1);
    const r = await importReferenceData(
      db,
      writeFile({
        articlePrices: [
          { ...p, validFrom: q.validFrom },
          { ...q, validFrom: p.validFrom },
        ],
        customers: [
          { ...c1!, debtorNumber: c2!.debtorNumber },
          { ...c2!, debtorNumber: c1!.debtorNumber },
        ],
      }),
    );
    expect(r.counts.articlePrices.updated).toBe(2);
    expect(r.counts.customers.updated).toBe(2);
    expect(r.counts.addresses).toEqual({ inserted: 0, updated: 0, unchanged: 2 });
    const price = await db.prisma.articlePrice.findUniqueOrThrow({ where: { id: p.id } });
    expect(price.validFrom.toISOString()).toBe(new Date(q.validFrom as string).toISOString());
    expect((await db.prisma.customer.findUniqueOrThrow({ where: { id: c1!.id } })).debtorNumber).toBe(c2!.debtorNumber);
  });

  it("moves a customer's default address to another of its addresses", async () => {
    const customer = d.customers.find((c) => (c.addresses?.length ?? 0) >= 2)!;
    const newDefault = customer.addresses!.find((a) => !a.isDefault)!.id;
    // the new default first, so a row-by-row write would meet the old default still set
    const addresses = [
      { ...customer.addresses!.find((a) => a.id === newDefault)!, isDefault: true },
      ...customer.addresses!.filter((a) => a.id !== newDefault).map((a) => ({ ...a, isDefault: false })),
    ];
    const r = await importReferenceData(db, writeFile({ customers: [{ ...customer, addresses }] }));
    expect(r.counts.addresses.updated).toBe(2);
    const rows = await db.prisma.address.findMany({ where: { customerId: customer.id, isDefault: true } });
    expect(rows.map((a) => a.id)).toEqual([newDefault]);
  });

  it('moves a default address to another customer', async () => {
    const [x, y] = d.customers.filter((c) => (c.addresses?.length ?? 0) >= 2);
    const moving = (await db.prisma.address.findFirstOrThrow({ where: { customerId: x!.id, isDefault: true } })).id;
    const xRest = x!.addresses!.filter((a) => a.id !== moving).map((a, i) => ({ ...a, isDefault: i === 0 }));
    const yAddresses = [
      ...y!.addresses!.map((a) => ({ ...a, isDefault: false })),
      { ...x!.addresses!.find((a) => a.id === moving)!, customerId: y!.id, isDefault: true },
    ];
    // x first: its new default is written while the moving address is still x's default
    await importReferenceData(
      db,
      writeFile({
        customers: [
          { ...x!, addresses: xRest },
          { ...y!, addresses: yAddresses },
        ],
      }),
    );
    const moved = await db.prisma.address.findUniqueOrThrow({ where: { id: moving } });
    expect(moved).toMatchObject({ customerId: y!.id, isDefault: true });
    expect(await db.prisma.address.count({ where: { customerId: x!.id, isDefault: true } })).toBe(1);
  });

  it('refuses a second default address when the database keeps the first one', async () => {
    const customer = d.customers[0]!;
    const extra = {
      id: randomUUID(),
      addressType: 'Correspondence',
      street: 'Neue Straße 1',
      city: 'Ulm',
      postalCode: '89073',
      country: 'DE',
      isDefault: true,
    };
    const problems = await rejected(db, writeFile({ customers: [{ ...customer, addresses: [extra] }] }));
    expect(problems).toEqual([
      { position: 'customers[0].addresses[0].isDefault', message: expect.stringMatching(/already has the default address/) },
    ]);
  });

  describe('periods of a tax code', () => {
    const open = d.taxCodes.find((t) => t.validTo === null || t.validTo === undefined)!;
    const successor = { ...open, id: randomUUID(), validFrom: '2099-01-01T00:00:00.000Z', validTo: null };
    const ended = { ...open, validTo: '2098-12-31T23:59:59.999Z' };

    it('refuses two overlapping periods of one code in the file, naming both', async () => {
      const before = await dump(db);
      const problems = await rejected(db, writeFile({ taxCodes: [open, successor] }));
      expect(problems).toEqual([
        {
          position: 'taxCodes[1].validFrom',
          message: `the period of ${String(open.code)} overlaps its period from ${String(open.validFrom)} without end at taxCodes[0]`,
        },
      ]);
      expect(await dump(db)).toEqual(before);
    });

    it('refuses a period that overlaps a row of the database the file leaves alone', async () => {
      const before = await dump(db);
      const problems = await rejected(db, writeFile({ taxCodes: [successor] }));
      expect(problems).toEqual([
        { position: 'taxCodes[0].validFrom', message: expect.stringContaining(`overlaps tax code ${open.id} in the database`) },
      ]);
      expect(await dump(db)).toEqual(before);
    });

    it('adds a successor before it ends the period it follows, in one file (checked at the commit)', async () => {
      // one record per statement: the successor is written while the old period is still open
      const r = await importReferenceData(db, writeFile({ taxCodes: [successor, ended] }), { batchSize: 1 });
      expect(r.counts.taxCodes).toEqual({ inserted: 1, updated: 1, unchanged: 0 });
      const rows = await db.prisma.taxCode.findMany({ where: { code: open.code as string }, orderBy: { validFrom: 'asc' } });
      expect(rows.map((t) => [t.id, t.validTo?.toISOString() ?? null])).toEqual([
        [open.id, ended.validTo],
        [successor.id, null],
      ]);
    });

    it("then refuses the demo's tax codes again, whose open period would overlap the successor: nothing written", async () => {
      const before = await dump(db);
      const problems = await rejected(db, writeFile({ taxCodes: d.taxCodes }));
      expect(problems).toEqual([
        {
          position: `taxCodes[${d.taxCodes.indexOf(open)}].validFrom`,
          message: expect.stringContaining(`overlaps tax code ${successor.id} in the database`),
        },
      ]);
      expect(await dump(db)).toEqual(before);
    });
  });

  it('refuses to make an account unusable under a payment source the file leaves alone', async () => {
    const used = d.accounts.find((a) => a.id === oldDefault.accountId)!;
    const problems = await rejected(db, writeFile({ accounts: [{ ...used, isActive: false }] }));
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems)
      expect(p).toEqual({ position: 'accounts[0].isActive', message: expect.stringMatching(/must stay an active Asset account/) });
  });

  it("holds every record's account to its use, as the API's writes do: tax codes, articles, customers, and the accounts they name", async () => {
    const before = await dump(db);
    const revenue = d.accounts.find((a) => a.type === 'Revenue' && a.isActive)!;
    const tax = d.taxCodes[0]!;
    const article = d.articles.find((a) => a.revenueAccountId)!;
    const customer = d.customers[0]!;
    const problems = await rejected(
      db,
      writeFile({
        taxCodes: [{ ...tax, taxAccountId: revenue.id }],
        articles: [{ ...article, revenueAccountId: asset.id }],
        customers: [{ ...customer, prepaymentAccountId: asset.id }],
      }),
    );
    // (The tax code's period may also clash with a successor an earlier case made: not this case's point.)
    expect(
      problems
        .map((p) => p.position)
        .filter((p) => p.endsWith('AccountId'))
        .sort(),
    ).toEqual(['articles[0].revenueAccountId', 'customers[0].prepaymentAccountId', 'taxCodes[0].taxAccountId']);
    const used = d.accounts.find((a) => a.id === article.revenueAccountId)!;
    const turned = await rejected(db, writeFile({ accounts: [{ ...used, type: 'Expense' }] }));
    expect(turned[0]).toEqual({ position: 'accounts[0].type', message: expect.stringMatching(/must stay an active Revenue account/) });
    expect(await dump(db)).toEqual(before);
  });
});

describe('small batches (several statements in flight)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await fresh();
  });
  afterAll(async () => {
    await db.close();
  });

  it('imports, then moves every default and swaps codes, two records per statement', async () => {
    const d = demo();
    const first = await importReferenceData(db, writeFile(d), { batchSize: 2 });
    expect(first.counts.addresses.inserted).toBe(fileCounts(d).addresses);

    const e = demo();
    const expectedDefault = new Map<string, string>();
    for (const c of e.customers) {
      const addresses = c.addresses!;
      if (addresses.length < 2) continue;
      const next = addresses.find((a) => !a.isDefault)!;
      c.addresses = [{ ...next, isDefault: true }, ...addresses.filter((a) => a !== next).map((a) => ({ ...a, isDefault: false }))];
      expectedDefault.set(c.id, next.id);
    }
    const oldDefault = e.paymentSources.findIndex((p) => p.isDefault);
    const newDefault = e.paymentSources.findIndex((p) => !p.isDefault && p.isActive !== false);
    e.paymentSources[oldDefault]!.isDefault = false;
    e.paymentSources[newDefault]!.isDefault = true;
    const [a, b] = [e.paymentSources[1]!, e.paymentSources[e.paymentSources.length - 1]!];
    [a.code, b.code] = [b.code, a.code];
    [e.customers[0]!.debtorNumber, e.customers[e.customers.length - 1]!.debtorNumber] = [
      e.customers[e.customers.length - 1]!.debtorNumber,
      e.customers[0]!.debtorNumber,
    ];

    const r = await importReferenceData(db, writeFile(e), { batchSize: 2 });
    expect(r.counts.addresses.updated).toBe(expectedDefault.size * 2);
    for (const [customerId, addressId] of expectedDefault) {
      const defaults = await db.prisma.address.findMany({ where: { customerId, isDefault: true } });
      expect(defaults.map((x) => x.id)).toEqual([addressId]);
    }
    const sources = await db.prisma.paymentSource.findMany({ where: { isDefault: true } });
    expect(sources.map((p) => p.id)).toEqual([e.paymentSources[newDefault]!.id]);
    expect((await db.prisma.paymentSource.findUniqueOrThrow({ where: { id: a.id } })).code).toBe(a.code);

    const again = await importReferenceData(db, writeFile(e), { batchSize: 2 });
    expect(again.counts.addresses).toEqual({ inserted: 0, updated: 0, unchanged: fileCounts(e).addresses });
    expect(again.counts.customers.updated).toBe(0);
  });
});

describe('a failure while writing', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await fresh();
  });
  afterAll(async () => {
    await db.close();
  });

  it('rolls back everything written before it: one transaction', async () => {
    const d = demo();
    const victim = d.customers[d.customers.length - 5]!;
    // A trigger the checks cannot know about makes one late row fail.
    await db.prisma.$executeRawUnsafe(`
      CREATE FUNCTION refuse_customer() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW."debtorNumber" = '${String(victim.debtorNumber)}' THEN RAISE EXCEPTION 'refused by a test trigger'; END IF;
        RETURN NEW;
      END $$`);
    await db.prisma.$executeRawUnsafe(
      `CREATE TRIGGER refuse_customer BEFORE INSERT ON "Customer" FOR EACH ROW EXECUTE FUNCTION refuse_customer()`,
    );
    const e = await importReferenceData(db, writeFile(d), { batchSize: 2 }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ImportWriteError);
    expect((e as Error).message).toMatch(/nothing was imported: .*refused by a test trigger/);
    expect(Object.values(await rowCounts(db)).every((n) => n === 0)).toBe(true);
  });
});

describe('write order', () => {
  it('writes each section after the sections it points at, reading the file again when needed', () => {
    expect(writeRuns(['accounts', 'taxCodes', 'articles', 'articlePrices', 'customers', 'academicTerms', 'paymentSources'])).toEqual([
      ['accounts', 'taxCodes', 'articles', 'articlePrices', 'customers', 'academicTerms', 'paymentSources'],
    ]);
    expect(writeRuns(['paymentSources', 'articlePrices', 'articles', 'accounts'])).toEqual([
      ['accounts'],
      ['paymentSources', 'articles'],
      ['articlePrices'],
    ]);
    expect(writeRuns(['customers'])).toEqual([['customers']]);
  });
});
