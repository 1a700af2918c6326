import { codeKey } from '../../domain/common/natural-key';
import { periodsOverlap, type PeriodLike } from '../../domain/tax-code/rules';
import type { RecordOf } from '../registry';
import { arrayLiteral, arrayParam } from '../../db/sql-arrays';
import { inChunks, type Sql } from './database';
import type { FileKeys } from './file-keys';
import { loc, locText, type Loc, type Problems } from './problems';

// Tax codes: the periods of one code never overlap (the rule of the API's writes, and the
// database's exclusion constraint). The file's periods are checked against each other as
// they come, then against the rows of the database the file leaves as they are: a row the
// file holds is compared with its new period only. The write pass defers the constraint to
// the commit, so the order in which the file ends a period and adds its successor does not
// matter once this check passed.

interface Period extends PeriodLike {
  readonly index: number;
}

const periodText = (p: PeriodLike): string =>
  `from ${p.validFrom.toISOString()}${p.validTo ? ` to ${p.validTo.toISOString()}` : ' without end'}`;

export class TaxCodePeriods {
  private readonly byCode = new Map<string, Period[]>();

  constructor(
    private readonly keys: FileKeys,
    private readonly problems: Problems,
  ) {}

  accept(at: Loc, r: RecordOf<'taxCodes'>): void {
    // Codes equal ignoring case are one tax code's periods (the database's exclusion on lower(code)).
    const periods = this.byCode.get(codeKey(r.code)) ?? [];
    const other = periods.find((p) => periodsOverlap(p, r));
    if (other)
      this.problems.add(
        at,
        'validFrom',
        `the period of ${r.code} overlaps its period ${periodText(other)} at ${locText(loc('taxCodes', other.index))}`,
      );
    periods.push({ index: at.index, validFrom: r.validFrom, validTo: r.validTo ?? null });
    this.byCode.set(codeKey(r.code), periods);
  }

  async checkDatabase(sql: Sql): Promise<void> {
    await inChunks(this.byCode.keys(), async (codes) => {
      const rows = await sql.$queryRawUnsafe<{ id: string; code: string; validFrom: Date; validTo: Date | null }[]>(
        `SELECT "id"::text AS id, "code", "validFrom", "validTo" FROM "TaxCode" WHERE lower("code") = ANY(${arrayParam(1, 'text')})`,
        arrayLiteral(codes),
      );
      for (const row of rows) {
        if (this.keys.ids.taxCodes.index.has(row.id)) continue; // the file gives it its period
        const clash = this.byCode.get(codeKey(row.code))?.find((p) => periodsOverlap(p, row));
        if (clash)
          this.problems.add(
            loc('taxCodes', clash.index),
            'validFrom',
            `the period of ${row.code} overlaps tax code ${row.id} in the database (${periodText(row)}), which this file does not change`,
          );
      }
    });
  }
}
