import { arrayLiteral, arrayParam } from '../../src/db/sql-arrays';
import { createTestDatabase, type TestDatabase } from '../support/database';

// Column arrays travel as one text parameter in PostgreSQL's array syntax: every value
// must come back exactly as it went in.

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

describe('arrayLiteral', () => {
  it('round-trips awkward text exactly', async () => {
    const values = [
      'plain',
      '',
      'NULL',
      'null',
      'Null',
      'NULLx',
      'a,b',
      '{braces}',
      '[1:2]',
      '"quoted"',
      'back\\slash',
      'a\\"b',
      '\\',
      '"',
      ' lead',
      'trail ',
      'in side',
      'tab\there',
      'line\nbreak',
      'ümlaut – ß',
      '😀',
      "it's",
      '\u00a0nbsp',
      '\u000b',
    ];
    const rows = await db.prisma.$queryRawUnsafe<{ v: string | null; n: number }[]>(
      `SELECT v, n::int FROM unnest(${arrayParam(1, 'text')}) WITH ORDINALITY AS t(v, n) ORDER BY n`,
      arrayLiteral([...values, null]),
    );
    expect(rows.map((r) => r.v)).toEqual([...values, null]);
  });

  it('carries booleans, ids, decimals and timestamps', async () => {
    const [row] = await db.prisma.$queryRawUnsafe<{ b: string; u: string; d: string; t: string }[]>(
      `SELECT array_to_string(${arrayParam(1, 'boolean')}, ',', '-') AS b,
              array_to_string(${arrayParam(2, 'uuid')}, ',') AS u,
              array_to_string(${arrayParam(3, 'numeric')}, ',') AS d,
              array_to_string(ARRAY(SELECT to_char(x AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') FROM unnest(${arrayParam(4, 'timestamptz')}) x), ',') AS t`,
      arrayLiteral([true, false, null]),
      arrayLiteral(['3FA85F64-5717-4562-B3FC-2C963F66AFA6']),
      arrayLiteral(['12.3456', '0', '-1.5']),
      arrayLiteral(['2026-01-02T03:04:05.678Z']),
    );
    expect(row).toEqual({ b: 't,f,-', u: '3fa85f64-5717-4562-b3fc-2c963f66afa6', d: '12.3456,0,-1.5', t: '2026-01-02T03:04:05.678' });
  });
});
