import { Prisma } from '../../src/db/__generated__/prisma/client';
import { scalarColumns } from '../support/prisma-columns';
import { dependsOn, FILE_SECTIONS, IMPORT_SECTIONS, sectionDef, TABLE } from '../../src/import/registry';
import { ADDRESS, SPEC_OF } from '../../src/import/write';

// The import's one registry against the database schema: every resource table but
// payments (which are not reference data) is imported, and every column the import
// writes is a column of its Prisma model. Customer surnames are not a resource: the
// database's triggers keep them from the customers the import writes. The change log is
// written by the import, not imported, and the change relay's position and the log's waiting
// readers are the events' own.

const scalarFields = scalarColumns;

describe('the import registry', () => {
  it('imports every resource table except payments', () => {
    const notImported: readonly Prisma.ModelName[] = ['Payment', 'CustomerSurname', 'ChangeLog', 'ChangeRelayState', 'ChangeLogWaiter'];
    expect(new Set(Object.values(TABLE))).toEqual(new Set(Object.values(Prisma.ModelName).filter((m) => !notImported.includes(m))));
    const customers = FILE_SECTIONS.indexOf('customers');
    expect(IMPORT_SECTIONS).toEqual([...FILE_SECTIONS.slice(0, customers + 1), 'addresses', ...FILE_SECTIONS.slice(customers + 1)]);
  });

  it('writes each section right after the sections it references, the others by name', () => {
    // A new section may fall anywhere between these; these keep their order.
    const known = ['academicTerms', 'accounts', 'taxCodes', 'articles', 'articlePrices', 'customers', 'paymentSources'];
    expect(FILE_SECTIONS.filter((s) => known.includes(s))).toEqual(known);
  });

  it.each([...FILE_SECTIONS.map((s) => [s, SPEC_OF[s]] as const), ['addresses', ADDRESS] as const])(
    '%s: every column written is a column of the table',
    (_section, spec) => {
      const columns = scalarFields(spec.table);
      expect(columns.length).toBeGreaterThan(0);
      for (const c of spec.columns) expect(columns).toContain(c.name);
      // Audited tables get the four audit columns from the import itself.
      if (spec.audited) expect(columns).toEqual(expect.arrayContaining(['createdAt', 'createdById', 'updatedAt', 'updatedById']));
    },
  );

  it('references point at sections written earlier in the registry order', () => {
    for (const s of FILE_SECTIONS) {
      for (const r of sectionDef(s).references) expect(scalarFields(sectionDef(s).table)).toContain(r.field);
      for (const d of dependsOn(s)) expect(FILE_SECTIONS.indexOf(d)).toBeLessThan(FILE_SECTIONS.indexOf(s));
    }
  });
});
