import type { AcademicTerm } from '../../db/__generated__/prisma/client';
import { parseInput } from '../common/validate';
import type { WriteSpec } from '../maintenance/write-service';
import { academicTermResource } from './resource';
import { academicTermInput, type AcademicTermInput } from './schema';

/** Academic terms: codes unique ignoring case (the write path's key rule); nothing refers to a term by id, so a delete is free. */
export const academicTermWrites: WriteSpec<AcademicTerm, AcademicTermInput> = {
  resource: academicTermResource,
  input: academicTermInput,
  parse: (body) => parseInput(academicTermInput, body),
  store: (db) => ({
    find: (id) => db.academicTerm.findUnique({ where: { id } }),
    findMany: (ids) => db.academicTerm.findMany({ where: { id: { in: [...ids] } } }),
    create: (input) => db.academicTerm.create({ data: input }),
    update: (id, input) => db.academicTerm.update({ where: { id }, data: input }),
    remove: async (id) => {
      await db.academicTerm.delete({ where: { id } });
    },
  }),
};
