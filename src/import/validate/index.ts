import { scanFile } from '../read-file';
import type { z } from 'zod';
import { RESOURCES } from '../../domain/resources';
import {
  FILE_SECTIONS,
  isFileSection,
  perFileSection,
  perSection,
  SECTIONS,
  sectionDef,
  type FileSection,
  type Identified,
  type ImportSection,
} from '../registry';
import type { ImportProblem, ImportProgress } from '../types';
import { AccountRules } from './accounts';
import { CustomerAddresses } from './customers';
import { checkReferences, checkUniqueKeys, type Sql } from './database';
import { FileKeys } from './file-keys';
import { PaymentSourceRules } from './payment-sources';
import { TaxCodePeriods } from './tax-codes';
import { loc, preview, Problems, type Loc } from './problems';

export type { Sql } from '../../domain/maintenance/table-write';

// Pass 1 of the import: stream the file, validate every record with its zod schema, and
// keep only the keys the rules across records need (ids, unique keys, a few flags), not
// the records. Then check what the file cannot settle alone against the database:
// references to rows not in the file, keys used by rows the file does not change, the
// rules of accounts, payment sources, tax-code periods and addresses. Every problem is collected with its
// position; nothing is written here.

export interface ImportPlan {
  /** The sections present in the file, in file order. */
  readonly sections: readonly FileSection[];
  /** Records per section in the file; addresses separately. */
  readonly records: Readonly<Record<ImportSection, number>>;
  /**
   * Rows of the database whose unique key another record of the file takes while the file
   * gives them a new key themselves (codes swapped, say): the write pass moves their key
   * aside first, since PostgreSQL checks unique indexes row by row.
   */
  readonly moveKeyFirst: Readonly<Record<FileSection, readonly string[]>>;
  /** Default addresses the file moves to another customer: un-defaulted before any address is written. */
  readonly clearDefaultFirst: readonly string[];
}

export interface ValidationOutcome {
  readonly problems: readonly ImportProblem[];
  readonly plan: ImportPlan;
}

const NOT_A_SECTION = `is not a section of an import file (expected ${FILE_SECTIONS.join(', ')})`;

class FileValidator {
  readonly problems = new Problems();
  readonly keys = new FileKeys(this.problems);
  readonly accounts = new AccountRules(this.keys, this.problems);
  readonly paymentSources = new PaymentSourceRules(this.keys, this.accounts, this.problems);
  readonly addresses = new CustomerAddresses(this.keys, this.problems);
  readonly taxCodes = new TaxCodePeriods(this.keys, this.problems);
  readonly sections: FileSection[] = [];
  readonly records = perSection(() => 0);

  section(name: string, seq: number): void {
    this.problems.section(name, seq);
    if (isFileSection(name)) this.sections.push(name);
    else this.problems.addTop(name, NOT_A_SECTION);
  }

  notArray(name: string, seq: number, value: unknown): void {
    this.problems.section(name, seq);
    if (!isFileSection(name)) this.problems.addTop(name, NOT_A_SECTION);
    else this.problems.addTop(name, `must be an array of ${SECTIONS[name].noun} records, not ${preview(value)}`);
  }

  record(name: string, index: number, value: unknown): void {
    if (!isFileSection(name)) return; // reported once for the section
    this.records[name]++;
    const at = loc(name, index);
    // The rules of a section beyond ids, keys and references, on the record its schema gives.
    switch (name) {
      case 'accounts':
        return this.check(at, value, RESOURCES.Account.record, (r) => this.accounts.accept(at, r));
      case 'customers':
        return this.check(at, value, RESOURCES.Customer.record, (r) => {
          this.addresses.accept(at, r);
          this.accounts.acceptUser(name, at, r);
        });
      case 'paymentSources':
        return this.check(at, value, RESOURCES.PaymentSource.record, (r) => this.paymentSources.accept(at, r));
      case 'taxCodes':
        return this.check(at, value, RESOURCES.TaxCode.record, (r) => {
          this.taxCodes.accept(at, r);
          this.accounts.acceptUser(name, at, r);
        });
      default:
        return this.check(at, value, sectionDef(name).schema, (r) => this.accounts.acceptUser(name, at, r));
    }
  }

  /** A record checked by its section's schema: its problems, or its ids and keys (and `rules`). */
  private check<T extends Identified>(at: Loc, value: unknown, schema: z.ZodType<T>, rules?: (record: T) => void): void {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      this.problems.addSchemaIssues(at, parsed.error.issues, value);
      this.keys.acceptInvalid(at, value);
      return;
    }
    this.keys.accept(at, parsed.data);
    rules?.(parsed.data);
  }

  async checkDatabase(sql: Sql): Promise<ImportPlan> {
    await checkReferences(sql, this.keys, this.problems);
    await this.paymentSources.checkDatabase(sql);
    await this.accounts.checkDatabase(sql);
    await this.taxCodes.checkDatabase(sql);
    const moveKeyFirst = perFileSection((): string[] => []);
    for (const s of FILE_SECTIONS) moveKeyFirst[s] = await checkUniqueKeys(sql, s, this.keys, this.problems);
    await this.addresses.checkDatabase(sql);
    this.records.addresses = this.addresses.count;
    return { sections: this.sections, records: this.records, moveKeyFirst, clearDefaultFirst: this.addresses.clearDefaultFirst };
  }
}

/** Pass 1: validates the whole file and checks it against the database; writes nothing. */
export async function validateFile(
  sql: Sql,
  file: string,
  totalBytes: number,
  onProgress?: (p: ImportProgress) => void,
): Promise<ValidationOutcome> {
  const v = new FileValidator();
  let section: FileSection | null = null;
  let sectionRecords = 0;
  let totalRecords = 0;
  await scanFile(
    file,
    {
      section(name, seq) {
        v.section(name, seq);
        section = isFileSection(name) ? name : null;
        sectionRecords = 0;
      },
      notArray(name, seq, value) {
        v.notArray(name, seq, value);
      },
      record(name, index, value) {
        v.record(name, index, value);
        sectionRecords++;
        totalRecords++;
      },
      sectionEnd() {
        section = null;
      },
    },
    (bytes) => onProgress?.({ phase: 'validate', section, sectionRecords, totalRecords, bytes, totalBytes }),
  );
  onProgress?.({ phase: 'check', section: null, sectionRecords: 0, totalRecords, bytes: totalBytes, totalBytes });
  const plan = await v.checkDatabase(sql);
  return { problems: v.problems.list(), plan };
}
