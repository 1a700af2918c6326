// The Prisma translation of the neutral filter tree and sort keys (src/db/query/to-prisma.ts,
// which the change log's reads still use) is the oracle the compiled read path is held equal
// to (test/db/query/to-prisma.db.test.ts, test/db/read/compiled.test.ts).
import type { FieldCatalog } from '../../src/query/fields';
import type { SortKey } from '../../src/query/filter-tree';
import { cursorFilter } from '../../src/db/read/keyset';
import { toPrismaWhere, type PrismaWhere } from '../../src/db/query/to-prisma';

export { escapeLike, toPrismaOrderBy, toPrismaWhere } from '../../src/db/query/to-prisma';

/** The Prisma `where` of the records after a cursor (src/db/read/keyset.ts's filter, translated as above). */
export const cursorToWhere = (cursor: string, sortKeys: readonly SortKey[], fields: FieldCatalog): PrismaWhere =>
  toPrismaWhere(cursorFilter(cursor, sortKeys, fields), fields);
