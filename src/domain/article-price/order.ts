import type { Prisma } from '../../generated/prisma/client';
import { RESOURCES, relationOrderBy } from '../resources';

/** The order of an article's prices everywhere (Article.prices in the declaration): newest validFrom first, ties by id. */
export const NEWEST_FIRST = relationOrderBy<Prisma.ArticlePriceOrderByWithRelationInput>(RESOURCES.Article.relations.prices);
