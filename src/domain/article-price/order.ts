import type { Prisma } from '../../generated/prisma/client';

/** The order of an article's prices everywhere: newest validFrom first, ties by id. */
export const NEWEST_FIRST = [{ validFrom: 'desc' }, { id: 'asc' }] as const satisfies Prisma.ArticlePriceOrderByWithRelationInput[];
