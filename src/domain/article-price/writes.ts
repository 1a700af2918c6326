import type { ArticlePrice } from '../../db/__generated__/prisma/client';
import { AppError, validationFailed } from '../../errors/catalogue';
import { parseInput } from '../common/validate';
import type { WriteSpec } from '../maintenance/write-service';
import { articlePriceResource } from './resource';
import { hasTakenEffect } from './rules';
import { articlePriceInput, type ArticlePriceInput } from './schema';

const tookEffect = (p: ArticlePrice) =>
  new AppError(
    'ALREADY_EFFECTIVE',
    `The price from ${p.validFrom.toISOString()} has taken effect and is kept as invoices saw it; add a new price instead`,
  );

/** Prices: one per article and start; never one that took effect changed, deleted or started in the past. */
export const articlePriceWrites: WriteSpec<ArticlePrice, ArticlePriceInput> = {
  resource: articlePriceResource,
  input: articlePriceInput,
  parse: (body) => parseInput(articlePriceInput, body),
  store: (db) => ({
    find: (id) => db.articlePrice.findUnique({ where: { id } }),
    create: (input) => db.articlePrice.create({ data: input }),
    update: (id, input) => db.articlePrice.update({ where: { id }, data: input }),
    remove: async (id) => {
      await db.articlePrice.delete({ where: { id } });
    },
  }),
  async check(db, next, current, now) {
    if (current && hasTakenEffect(current.validFrom, now)) throw tookEffect(current);
    if (hasTakenEffect(next.validFrom, now))
      throw new AppError('ALREADY_EFFECTIVE', 'A price written through the API starts in the future', [
        { field: 'validFrom', message: 'must be in the future' },
      ]);
    if (!(await db.article.findUnique({ where: { id: next.articleId }, select: { id: true } })))
      throw validationFailed([{ field: 'articleId', message: 'unknown article' }]);
    const same = await db.articlePrice.findFirst({
      where: { articleId: next.articleId, validFrom: next.validFrom, ...(current ? { NOT: { id: current.id } } : {}) },
      select: { id: true },
    });
    if (same)
      throw new AppError('DUPLICATE_KEY', `The article already has a price from ${next.validFrom.toISOString()} (${same.id})`, [
        { field: 'validFrom', message: 'already used' },
      ]);
  },
  checkDelete(_db, current, now) {
    return hasTakenEffect(current.validFrom, now) ? Promise.reject(tookEffect(current)) : Promise.resolve();
  },
};
