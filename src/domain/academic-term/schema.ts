import { z } from 'zod';
import { dateTime, optionalText, text, uuid } from '../common/schemas';

export const academicTermRecord = z
  .strictObject({
    id: uuid(),
    code: text(20),
    startDate: dateTime(),
    endDate: dateTime(),
    statisticalSemester: optionalText(50),
    externalSystemId: optionalText(100),
  })
  .refine((t) => t.endDate >= t.startDate, { path: ['endDate'], error: 'must not be before startDate' });
