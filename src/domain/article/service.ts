import type { Prisma } from '../../generated/prisma/client';
import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import { articleFields, articleRelations } from './fields';

export type Article = Prisma.ArticleGetPayload<object>;

export class ArticleService extends ReadService<Article> {
  constructor(deps: ServiceDeps) {
    super(deps.prisma.article, articleFields, 'article', undefined, articleRelations);
  }
}
