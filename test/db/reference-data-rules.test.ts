// The database as the backstop of the reference-data rules (migration
// 20261127000000_reference_data_rules): what a write that slipped past the service's checks
// meets, and writers racing in parallel transactions, of which exactly one wins.

import { isCheckViolation, isExclusionViolation } from '../../src/db/errors';
import { isAppError } from '../../src/errors/catalogue';
import { importReferenceData } from '../../src/import/import-service';
import { DEMO_DATA_FILE } from '../../src/config/paths';
import { createTestDatabase, servicesOf, usingPostgres, type TestDatabase } from '../support/database';
import { fixture } from '../support/fixture';
import { ACCOUNT_USES } from '../../src/domain/account/uses';
import type { Services } from '../../src/domain/services';

let db: TestDatabase;
let s: Services;
const actor = { userId: '22222222-2222-4222-8222-222222222222', personalData: true };

beforeAll(async () => {
  db = await createTestDatabase();
  await importReferenceData(db, DEMO_DATA_FILE);
  s = servicesOf(db);
});
afterAll(async () => {
  await db.close();
});

const liability = () => fixture.accounts.find((a) => a.type === 'Liability' && a.isActive)!;
const revenue = () => fixture.accounts.find((a) => a.type === 'Revenue' && a.isActive)!;

/** Inserts a tax code by SQL, past every check of the service. */
const insertTaxCode = (code: string, from: string, to: string | null, rate = '19', type = 'VAT') =>
  db.prisma.$executeRawUnsafe(
    `INSERT INTO "TaxCode" ("id","code","name","rate","taxType","taxAccountId","revenueAccountId","validFrom","validTo","createdById")
     VALUES (gen_random_uuid(), $1, 'raw', $2::numeric, $3, $4::uuid, $5::uuid, $6::timestamptz, $7::timestamptz, '00000000-0000-0000-0000-000000000000')`,
    code,
    rate,
    type,
    liability().id,
    revenue().id,
    from,
    to,
  );

describe('the database keeps the rules', () => {
  it('refuses overlapping periods of one tax code (btree_gist exclusion), and allows adjacent ones', async () => {
    await insertTaxCode('RAW', '2090-01-01T00:00:00Z', '2090-12-31T00:00:00Z');
    const refused: unknown = await insertTaxCode('RAW', '2090-12-31T00:00:00Z', null).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isExclusionViolation(refused)).toBe(true);
    await insertTaxCode('RAW', '2091-01-01T00:00:00Z', null);
    // Codes equal ignoring case are one tax code: the exclusion compares lower(code).
    const sameIgnoringCase: unknown = await insertTaxCode('raw', '2090-06-01T00:00:00Z', null).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isExclusionViolation(sameIgnoringCase)).toBe(true);
    await insertTaxCode('raw2', '2090-06-01T00:00:00Z', null);
  });

  it('keeps every account fit for the records naming it (constraint triggers at commit), in both directions', async () => {
    const refusedWith = (p: Promise<unknown>) =>
      p.then(
        () => 'written',
        (e: unknown) => (isCheckViolation(e) ? 'check violation' : e),
      );
    // A tax code naming a Revenue account as its tax account.
    expect(
      await refusedWith(
        db.prisma.$executeRawUnsafe(
          `INSERT INTO "TaxCode" ("id","code","name","rate","taxType","taxAccountId","revenueAccountId","validFrom","createdById")
           VALUES (gen_random_uuid(), 'RAW-FIT', 'raw', 19, 'VAT', $1::uuid, $1::uuid, '2095-01-01', '00000000-0000-0000-0000-000000000000')`,
          revenue().id,
        ),
      ),
    ).toBe('check violation');
    // An account articles name turned Expense, or inactive.
    const used = fixture.accounts.find((a) => fixture.articles.some((x) => x.revenueAccountId === a.id))!;
    expect(await refusedWith(db.prisma.$executeRawUnsafe(`UPDATE "Account" SET "type" = 'Expense' WHERE "id" = $1::uuid`, used.id))).toBe(
      'check violation',
    );
    expect(await refusedWith(db.prisma.$executeRawUnsafe(`UPDATE "Account" SET "isActive" = false WHERE "id" = $1::uuid`, used.id))).toBe(
      'check violation',
    );
    // What nothing needs changes freely.
    expect(await refusedWith(db.prisma.$executeRawUnsafe(`UPDATE "Account" SET "name" = 'Renamed' WHERE "id" = $1::uuid`, used.id))).toBe(
      'written',
    );
  });

  it.each(ACCOUNT_USES.map((u) => [u.model, u.field, u.type] as const))(
    "the database's table of account uses is the code's: %s.%s needs an active %s account",
    async (model, field, type) => {
      const wrong = fixture.accounts.find((a) => a.type !== type && a.isActive)!;
      const right = fixture.accounts.find((a) => a.type === type && a.isActive)!;
      // Table and column from the table of uses; inside a transaction that is rolled back either way.
      const set = (account: string) =>
        db.prisma.$transaction(async (tx) => {
          await tx.$executeRawUnsafe(
            `UPDATE "${model}" SET "${field}" = $1::uuid WHERE "id" = (SELECT min("id"::text)::uuid FROM "${model}")`,
            account,
          );
          await tx.$executeRawUnsafe('SET CONSTRAINTS ALL IMMEDIATE');
          throw new Error('kept');
        });
      expect(isCheckViolation(await set(wrong.id).catch((e: unknown) => e))).toBe(true);
      await expect(set(right.id)).rejects.toThrow('kept');
    },
  );

  it('refuses rates above 100 and an Exempt rate above 0', async () => {
    await expect(insertTaxCode('RAW-R', '2080-01-01T00:00:00Z', null, '100.01')).rejects.toThrow();
    await expect(insertTaxCode('RAW-E', '2080-01-01T00:00:00Z', null, '1', 'Exempt')).rejects.toThrow();
  });

  it('refuses a code of another case for accounts, articles and academic terms', async () => {
    const account = fixture.accounts[0]!;
    await expect(
      db.prisma.$executeRawUnsafe(
        `INSERT INTO "Account" ("id","code","name","type") VALUES (gen_random_uuid(), $1, 'x', 'Asset')`,
        `${account.code}x`.toUpperCase(),
      ),
    ).resolves.toBe(1);
    await expect(
      db.prisma.$executeRawUnsafe(
        `INSERT INTO "Account" ("id","code","name","type") VALUES (gen_random_uuid(), $1, 'x', 'Asset')`,
        `${account.code}X`.toLowerCase(),
      ),
    ).rejects.toThrow();
    const article = fixture.articles[0]!;
    await expect(
      db.prisma.$executeRawUnsafe(
        `INSERT INTO "Article" ("id","code","name","createdById") VALUES (gen_random_uuid(), $1, 'x', gen_random_uuid())`,
        article.code.toLowerCase(),
      ),
    ).rejects.toThrow();
    const term = fixture.academicTerms[0]!;
    await expect(
      db.prisma.$executeRawUnsafe(
        `INSERT INTO "AcademicTerm" ("id","code","startDate","endDate") VALUES (gen_random_uuid(), $1, now(), now())`,
        term.code.toLowerCase(),
      ),
    ).rejects.toThrow();
  });

  it("keeps an article's prices: deleting an article with prices is refused", async () => {
    const price = fixture.articlePrices[0]!;
    await expect(db.prisma.$executeRawUnsafe(`DELETE FROM "Article" WHERE "id" = $1::uuid`, price.articleId)).rejects.toThrow();
  });
});

describe(`writers racing (${usingPostgres() ? 'PostgreSQL' : 'PGlite'})`, () => {
  const taxCode = (code: string, validFrom: string) => ({
    code,
    name: 'race',
    rate: 19,
    taxType: 'VAT',
    taxAccountId: liability().id,
    revenueAccountId: revenue().id,
    validFrom,
  });

  /** Runs the writes in parallel transactions; exactly one wins, the others get `code`, and only the winner is logged. */
  async function exactlyOneWins(writes: Array<() => Promise<{ id: string }>>, code: string): Promise<void> {
    const results = await Promise.allSettled(writes.map((w) => w()));
    const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(won).toHaveLength(1);
    expect(lost.map((e: unknown) => (isAppError(e) ? e.code : String(e)))).toEqual(Array(writes.length - 1).fill(code));
    expect(await db.prisma.changeLog.count({ where: { recordId: won[0]!.id } })).toBe(1);
    // The refusal names the record that won (the rules are checked again after the database refused).
    if (code === 'PERIOD_OVERLAP')
      expect(lost.map((e: unknown) => (e instanceof Error ? e.message : ''))).toEqual([expect.stringContaining(won[0]!.id)]);
  }

  it('two writers creating overlapping periods of one tax code: exactly one wins, the other is PERIOD_OVERLAP', async () => {
    const writer = s.writers.TaxCode!;
    for (let round = 0; round < 5; round++) {
      const code = `RACE-${round}`;
      await exactlyOneWins(
        [
          () => writer.create(taxCode(code, '2095-01-01T00:00:00Z'), actor),
          () => writer.create(taxCode(code, '2096-01-01T00:00:00Z'), actor),
        ],
        'PERIOD_OVERLAP',
      );
      expect(await db.prisma.taxCode.count({ where: { code } })).toBe(1);
    }
  });

  it('two writers creating accounts whose codes differ only in case: exactly one wins, the other is DUPLICATE_CODE', async () => {
    const writer = s.writers.Account!;
    for (let round = 0; round < 5; round++) {
      const code = `race-${round}`;
      await exactlyOneWins(
        [
          () => writer.create({ code, name: 'a', type: 'Asset' }, actor),
          () => writer.create({ code: code.toUpperCase(), name: 'b', type: 'Asset' }, actor),
        ],
        'DUPLICATE_CODE',
      );
    }
  });
});
