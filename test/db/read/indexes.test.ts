// The sort indexes the read path knows (src/db/read/indexes.ts): read from the database's own
// catalogue after the migrations, on PGlite by default and on PostgreSQL with DATABASE_URL; and
// which orders they give a page, the rule that picks a page's statement shape.

import { indexGivesOrder, loadSortIndexes, type IndexColumn, type SortIndexes } from '../../../src/db/read/indexes';
import type { ColumnCatalog } from '../../../src/db/read/row';
import type { FilterNode, SortKey } from '../../../src/query/filter-tree';
import { createTestDatabase, type TestDatabase } from '../../support/database';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

const asc = (column: string, nullsFirst = false): IndexColumn => ({ column, descending: false, nullsFirst });
const desc = (column: string, nullsFirst = true): IndexColumn => ({ column, descending: true, nullsFirst });

describe('read from the catalogue', () => {
  it("the migrations' indexes: plain key columns in order, the primary key among them", () => {
    const address = db.rows.sortIndexes.get('Address') ?? [];
    expect(address).toContainEqual([asc('city'), asc('postalCode'), asc('id')]);
    expect(address).toContainEqual([asc('id')]);
    expect(db.rows.sortIndexes.get('Article')).toContainEqual([asc('name')]);
  });

  it('only what orders as the read path does: no partial, expression, pattern-ops, other-collation, non-btree index; INCLUDE columns left out', async () => {
    await db.session.exec(`
      CREATE TABLE "SortIndexProbe" (a text, b int4, c text, d text);
      CREATE INDEX ON "SortIndexProbe" (a DESC NULLS LAST, b);
      CREATE INDEX ON "SortIndexProbe" (b) INCLUDE (c);
      CREATE INDEX ON "SortIndexProbe" (c) WHERE b > 0;
      CREATE INDEX ON "SortIndexProbe" (lower(a), b);
      CREATE INDEX ON "SortIndexProbe" (b, lower(c), a);
      CREATE INDEX ON "SortIndexProbe" (c text_pattern_ops);
      CREATE INDEX ON "SortIndexProbe" (d COLLATE "C");
      CREATE INDEX ON "SortIndexProbe" USING hash (d);`);
    try {
      const probe = (await loadSortIndexes(db.session)).get('SortIndexProbe') ?? [];
      expect([...probe].sort((x, y) => x.length - y.length)).toEqual([[asc('b')], [asc('b')], [desc('a', false), asc('b')]]);
    } finally {
      await db.session.exec('DROP TABLE "SortIndexProbe"');
    }
  });
});

describe('which orders an index gives', () => {
  const fields: ColumnCatalog = {
    id: { type: 'uuid', nullable: false },
    city: { type: 'string', nullable: false },
    postalCode: { type: 'string', nullable: false },
    street: { type: 'string', nullable: false },
    email: { type: 'string', nullable: true },
    note: { type: 'string', nullable: true },
  };
  const indexes: SortIndexes = new Map([
    [
      'T',
      [
        [asc('id')],
        [asc('city'), asc('postalCode'), asc('id')],
        // Nulls last ascending, so first descending: the read path's nulls come the other way.
        [asc('email')],
        [asc('note', true)],
      ],
    ],
  ]);
  const eq = (field: string, value: string | null, ignoreCase = false): FilterNode => ({
    kind: 'compare',
    field,
    op: 'eq',
    value: value === null ? null : { type: 'string', value },
    ...(ignoreCase ? { ignoreCase } : {}),
  });
  const gives = (orderBy: SortKey[], filter?: FilterNode, table = 'T') => indexGivesOrder(indexes, table, fields, filter, orderBy);
  const by = (field: string, direction: 'asc' | 'desc' = 'asc'): SortKey => ({ field, direction });

  it('its leading column, scanned either way; no order is the id', () => {
    expect(gives([by('city')])).toBe(true);
    expect(gives([by('city', 'desc'), by('street')])).toBe(true);
    expect(gives([])).toBe(true);
    expect(gives([by('street')])).toBe(false);
    expect(gives([by('postalCode')])).toBe(false);
    expect(gives([by('city')], undefined, 'Other')).toBe(false);
  });

  it('a later column once the filter pins the ones before it to one value (eq at the top, or inside an and)', () => {
    expect(gives([by('postalCode')], eq('city', 'Stuttgart'))).toBe(true);
    expect(gives([by('postalCode', 'desc')], { kind: 'and', nodes: [eq('street', 'x'), eq('city', 'Ulm')] })).toBe(true);
    // A pinned sort key orders nothing: the next one is the one to give.
    expect(gives([by('city'), by('postalCode')], eq('city', 'Ulm'))).toBe(true);
    // Not pinned: inside an or, ignoring case, another operator, is null.
    expect(gives([by('postalCode')], { kind: 'or', nodes: [eq('city', 'Ulm'), eq('city', 'Bonn')] })).toBe(false);
    expect(gives([by('postalCode')], eq('city', 'ulm', true))).toBe(false);
    expect(gives([by('postalCode')], { kind: 'compare', field: 'city', op: 'gt', value: { type: 'string', value: 'A' } })).toBe(false);
    expect(gives([by('postalCode')], eq('city', null))).toBe(false);
  });

  it("a nullable key's nulls where the read path puts them: first ascending, last descending", () => {
    expect(gives([by('email')])).toBe(false);
    expect(gives([by('email', 'desc')])).toBe(false);
    expect(gives([by('note')])).toBe(true);
    expect(gives([by('note', 'desc')])).toBe(true);
  });
});
