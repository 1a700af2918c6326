import type { Article } from '../../db/__generated__/prisma/client';
import { validationFailed } from '../../errors/catalogue';
import { requireUsableAccount } from '../account/writes';
import { accountUse } from '../account/uses';
import { parseInput } from '../common/validate';
import { NAMED_REFERRERS, refuseIfReferenced, type WriteSpec } from '../maintenance/write-service';
import { articleResource } from './resource';
import { articleInput, type ArticleInput } from './schema';

export const articleWrites: WriteSpec<Article, ArticleInput> = {
  resource: articleResource,
  input: articleInput,
  parse: (body) => parseInput(articleInput, body),
  store: (db) => ({
    find: (id) => db.article.findUnique({ where: { id } }),
    findMany: (ids) => db.article.findMany({ where: { id: { in: [...ids] } } }),
    create: (input, a) => db.article.create({ data: { ...input, createdAt: a.at, createdById: a.by, updatedAt: null, updatedById: null } }),
    update: (id, input, a) => db.article.update({ where: { id }, data: { ...input, updatedAt: a.at, updatedById: a.by } }),
    remove: async (id) => {
      await db.article.delete({ where: { id } });
    },
  }),
  async check(db, next, current) {
    if (next.revenueAccountId !== null && next.revenueAccountId !== current?.revenueAccountId)
      await requireUsableAccount(db, next.revenueAccountId, accountUse('Article', 'revenueAccountId'));
    if (next.defaultTaxCodeId !== null && !(await db.taxCode.findUnique({ where: { id: next.defaultTaxCodeId }, select: { id: true } })))
      throw validationFailed([{ field: 'defaultTaxCodeId', message: 'unknown tax code' }]);
  },
  async checkDelete(db, current) {
    const prices = await db.articlePrice.findMany({
      where: { articleId: current.id },
      select: { validFrom: true },
      orderBy: { validFrom: 'asc' },
      take: NAMED_REFERRERS,
    });
    refuseIfReferenced(
      `Article ${current.code}`,
      [['its prices from', prices.map((p) => p.validFrom.toISOString())]],
      '; deactivate it instead (isActive: false)',
    );
  },
};
