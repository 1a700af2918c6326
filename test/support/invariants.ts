import { ACCOUNT_USES } from '../../src/domain/account/uses';
import type { TestDatabase } from './database';

// The reference-data rules as checks over the stored rows: each returns the rows that break
// it (none, when the rules held). What a write may do is the service's; what must be true
// afterwards, whatever the writes were, is here. Table and column names are the declarations'.

export interface Violation {
  readonly rule: string;
  readonly detail: string;
}

const CODED = ['Account', 'Article', 'AcademicTerm', 'PaymentSource'] as const;

const CHECKS: ReadonlyArray<readonly [rule: string, sql: string]> = [
  [
    'tax-code periods overlap (codes equal ignoring case)',
    `SELECT a."code" || ' ' || a."id" || ' / ' || b."code" || ' ' || b."id" FROM "TaxCode" a JOIN "TaxCode" b
       ON a."id" < b."id" AND lower(a."code") = lower(b."code")
      AND tstzrange(a."validFrom", a."validTo", '[]') && tstzrange(b."validFrom", b."validTo", '[]')`,
  ],
  ...ACCOUNT_USES.map(
    (u) =>
      [
        `${u.model}.${u.field} names a missing, inactive or non-${u.type} account`,
        `SELECT r."id"::text || ' -> ' || coalesce(a."code" || ' ' || a."type"::text || ' active=' || a."isActive", 'none')
           FROM "${u.model}" r LEFT JOIN "Account" a ON a."id" = r."${u.field}"
          WHERE r."${u.field}" IS NOT NULL AND (a."id" IS NULL OR NOT a."isActive" OR a."type"::text <> '${u.type}')`,
      ] as const,
  ),
  ...CODED.map(
    (table) =>
      [`${table} codes equal ignoring case`, `SELECT lower("code") FROM "${table}" GROUP BY lower("code") HAVING count(*) > 1`] as const,
  ),
  ['two default payment sources', `SELECT count(*)::text FROM "PaymentSource" WHERE "isDefault" HAVING count(*) > 1`],
  [
    'a customer with two default addresses',
    `SELECT "customerId"::text FROM "Address" WHERE "isDefault" GROUP BY "customerId" HAVING count(*) > 1`,
  ],
  [
    'an address without its customer',
    `SELECT a."id"::text FROM "Address" a LEFT JOIN "Customer" c ON c."id" = a."customerId" WHERE c."id" IS NULL`,
  ],
];

/** Every stored row that breaks a rule, in one statement. */
const STATEMENT = CHECKS.map(([, sql], i) => `SELECT ${i} AS rule, detail FROM (${sql}) AS c${i}(detail)`).join('\nUNION ALL\n');

export async function violations(db: TestDatabase): Promise<Violation[]> {
  const rows = await db.prisma.$queryRawUnsafe<Array<{ rule: number; detail: string }>>(STATEMENT);
  return rows.map((r) => ({ rule: CHECKS[r.rule]![0], detail: r.detail }));
}

/**
 * What took effect and must stay as it is: tax codes in effect (their rate, type and start;
 * all of one whose period has ended) and prices in effect, keyed by id.
 */
export async function effective(db: TestDatabase, now: Date): Promise<Map<string, string>> {
  const rows = await db.prisma.$queryRawUnsafe<Array<{ id: string; kept: string }>>(
    `SELECT "id"::text AS id, CASE WHEN "validTo" < date_trunc('day', $1::timestamptz) THEN row("code", "name", "description", "rate", "taxType", "validFrom", "validTo", "taxAccountId", "revenueAccountId", "isActive")::text
              ELSE row("rate", "taxType", "validFrom")::text END AS kept
       FROM "TaxCode" WHERE "validFrom" <= $1::timestamptz
     UNION ALL
     SELECT "id"::text, row("articleId", "amount", "validFrom")::text FROM "ArticlePrice" WHERE "validFrom" <= $1::timestamptz`,
    now,
  );
  return new Map(rows.map((r) => [r.id, r.kept]));
}

/** What took effect before and is changed or gone after. */
export function changedSinceEffective(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): Violation[] {
  const out: Violation[] = [];
  for (const [id, kept] of before) {
    const now = after.get(id);
    if (now === undefined) out.push({ rule: 'a tax code or price in effect was deleted', detail: id });
    else if (now !== kept) out.push({ rule: 'a tax code or price in effect was changed', detail: `${id}: ${kept} -> ${now}` });
  }
  return out;
}
