import { z } from 'zod';
import { dateTime, money, uuid } from '../common/schemas';

export const articlePriceRecord = z.strictObject({
  id: uuid(),
  articleId: uuid(),
  amount: money(),
  validFrom: dateTime(),
});
