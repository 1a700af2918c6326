import type { TaxCode } from '../../db/__generated__/prisma/client';
import { AppError } from '../../errors/catalogue';
import { requireUsableAccount } from '../account/writes';
import { accountUse } from '../account/uses';
import { hasTakenEffect } from '../article-price/rules';
import { startOfUtcDay } from '../common/days';
import { parseInput } from '../common/validate';
import { NAMED_REFERRERS, refuseIfReferenced, type WriteSpec } from '../maintenance/write-service';
import { taxCodeResource } from './resource';
import { periodsOverlap } from './rules';
import { taxCodeInput, type TaxCodeInput } from './schema';

/**
 * Tax codes: a code may recur, its periods never overlap; once a tax code took effect its
 * rate, type and start stay (ending it with validTo, renaming and deactivating stay possible).
 */
export const taxCodeWrites: WriteSpec<TaxCode, TaxCodeInput> = {
  resource: taxCodeResource,
  input: taxCodeInput,
  parse: (body) => parseInput(taxCodeInput, body),
  store: (db) => ({
    find: (id) => db.taxCode.findUnique({ where: { id } }),
    create: (input, a) => db.taxCode.create({ data: { ...input, createdAt: a.at, createdById: a.by, updatedAt: null, updatedById: null } }),
    update: (id, input, a) => db.taxCode.update({ where: { id }, data: { ...input, updatedAt: a.at, updatedById: a.by } }),
    remove: async (id) => {
      await db.taxCode.delete({ where: { id } });
    },
  }),
  async check(db, next, current, now) {
    const today = startOfUtcDay(now);
    // A period that has ended is history: nothing of it changes, its end included (re-opening it too).
    if (current?.validTo && current.validTo < today)
      throw new AppError(
        'ALREADY_EFFECTIVE',
        `Tax code ${current.code} ended on ${current.validTo.toISOString()}: an ended period is kept as invoices saw it`,
        [{ field: 'validTo', message: 'the period has ended' }],
      );
    // An end is set or moved only to today or later: invoices already made under the period stay right.
    if (next.validTo !== null && next.validTo.getTime() !== current?.validTo?.getTime() && next.validTo < today)
      throw new AppError('ALREADY_EFFECTIVE', `A tax code's end (validTo) can be set only to today or a later day`, [
        { field: 'validTo', message: 'must not be before today' },
      ]);
    if (current && hasTakenEffect(current.validFrom, now)) {
      const kept = [
        ...(current.rate.equals(next.rate) ? [] : ['rate']),
        ...(current.taxType === next.taxType ? [] : ['taxType']),
        ...(current.validFrom.getTime() === next.validFrom.getTime() ? [] : ['validFrom']),
      ];
      if (kept.length > 0)
        throw new AppError(
          'ALREADY_EFFECTIVE',
          `Tax code ${current.code} took effect on ${current.validFrom.toISOString()}: its ${kept.join(', ')} stay; end it (validTo) and add a successor instead`,
          kept.map((field) => ({ field, message: 'cannot change once the tax code took effect' })),
        );
    } else if (hasTakenEffect(next.validFrom, now)) {
      throw new AppError('ALREADY_EFFECTIVE', 'A tax code written through the API starts in the future', [
        { field: 'validFrom', message: 'must be in the future' },
      ]);
    }
    if (next.taxAccountId !== current?.taxAccountId)
      await requireUsableAccount(db, next.taxAccountId, accountUse('TaxCode', 'taxAccountId'));
    if (next.revenueAccountId !== current?.revenueAccountId)
      await requireUsableAccount(db, next.revenueAccountId, accountUse('TaxCode', 'revenueAccountId'));
    const sameCode = await db.taxCode.findMany({
      // Codes equal ignoring case are one tax code, as for every other code (and the database's exclusion).
      where: { code: { equals: next.code, mode: 'insensitive' }, ...(current ? { NOT: { id: current.id } } : {}) },
      select: { id: true, validFrom: true, validTo: true },
    });
    const other = sameCode.find((o) => periodsOverlap(o, next));
    if (other)
      throw new AppError(
        'PERIOD_OVERLAP',
        `The period overlaps tax code ${next.code} ${other.id}, valid from ${other.validFrom.toISOString()}${other.validTo ? ` to ${other.validTo.toISOString()}` : ' without end'}`,
        [{ field: 'validFrom', message: `overlaps tax code ${other.id}` }],
      );
  },
  async checkDelete(db, current, now) {
    if (hasTakenEffect(current.validFrom, now))
      throw new AppError(
        'ALREADY_EFFECTIVE',
        `Tax code ${current.code} took effect on ${current.validFrom.toISOString()} and is kept as invoices saw it; end it (validTo) or deactivate it instead`,
      );
    const articles = await db.article.findMany({
      where: { defaultTaxCodeId: current.id },
      select: { code: true },
      orderBy: { code: 'asc' },
      take: NAMED_REFERRERS,
    });
    refuseIfReferenced(`Tax code ${current.code}`, [['articles', articles.map((a) => a.code)]]);
  },
};
