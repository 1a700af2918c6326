import { z } from 'zod';
import { dateTime, optionalText, text, uuid } from '../common/schemas';
import { termDatesOk } from './rules';

export const academicTermRecord = z
  .strictObject({
    id: uuid(),
    code: text(20),
    startDate: dateTime(),
    endDate: dateTime(),
    statisticalSemester: optionalText(50),
    externalSystemId: optionalText(100),
  })
  .refine(termDatesOk, { path: ['endDate'], error: 'must not be before startDate' });

/** Body of POST and PUT /academic-terms: the record without its id, with the same rule. */
export const academicTermInput = z
  .strictObject(academicTermRecord.shape)
  .omit({ id: true })
  .refine(termDatesOk, { path: ['endDate'], error: 'must not be before startDate' });
export type AcademicTermInput = z.output<typeof academicTermInput>;
