import { z } from 'zod';
import { dateTime, money, uuid } from '../common/schemas';

export const articlePriceRecord = z.strictObject({
  id: uuid(),
  articleId: uuid(),
  amount: money(),
  validFrom: dateTime(),
});

/** Body of POST and PUT /article-prices: the record without its id. */
export const articlePriceInput = articlePriceRecord.omit({ id: true });
export type ArticlePriceInput = z.output<typeof articlePriceInput>;
