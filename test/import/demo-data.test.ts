import { isDatabaseEmpty, loadDemoDataIfEmpty } from '../../src/import';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { demo, fileCounts, rowCounts } from './helpers';

// `npm start` on an empty embedded database loads the project's demo dataset
// (prisma/demo/reference-data.json); "empty" means no record in any resource table.

describe('loadDemoDataIfEmpty', () => {
  let db: TestDatabase;
  afterEach(async () => {
    await db.close();
  });

  it('loads the demo dataset into an empty database, once', async () => {
    db = await createTestDatabase();
    expect(await isDatabaseEmpty(db)).toBe(true);
    expect(await loadDemoDataIfEmpty(db)).toBe(true);
    expect(await rowCounts(db)).toEqual(fileCounts(demo()));
    expect(await isDatabaseEmpty(db)).toBe(false);
    expect(await loadDemoDataIfEmpty(db)).toBe(false);
    expect(await rowCounts(db)).toEqual(fileCounts(demo()));
  });

  it('does nothing when any resource table has a row', async () => {
    db = await createTestDatabase();
    await db.prisma.academicTerm.create({
      data: { code: 'WS2030', startDate: new Date('2030-10-01T00:00:00Z'), endDate: new Date('2031-03-31T00:00:00Z') },
    });
    expect(await isDatabaseEmpty(db)).toBe(false);
    expect(await loadDemoDataIfEmpty(db)).toBe(false);
    const counts = await rowCounts(db);
    expect(counts.academicTerms).toBe(1);
    expect(Object.entries(counts).filter(([k, n]) => k !== 'academicTerms' && n > 0)).toEqual([]);
  });
});
