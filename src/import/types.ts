import type { TableCounts } from '../domain/maintenance/table-write';
import type { FileSection, ImportSection } from './registry';

/** One bad record: where it is (`customers[1234].addresses[0].postalCode`) and what is wrong. */
export interface ImportProblem {
  readonly position: string;
  readonly message: string;
}

/** Rows of one section the import inserted, updated and left as they were. */
export type SectionCounts = TableCounts;

export interface ImportResult {
  /** Rows per section: inserted, updated (a value changed), unchanged (the same values). */
  readonly counts: Record<ImportSection, SectionCounts>;
  /** Records in the file (addresses included). */
  readonly records: number;
  readonly durationMs: number;
  /** The change-log entries of this run carry it as importRunId. */
  readonly importRunId: string;
}

export type ImportPhase = 'validate' | 'check' | 'write';

export interface ImportProgress {
  /** validate: first pass over the file; check: lookups in the database; write: second pass. */
  readonly phase: ImportPhase;
  /** The section being read, null between sections. */
  readonly section: FileSection | null;
  /** Records read of that section so far in this phase. */
  readonly sectionRecords: number;
  /** Records read in this phase so far (addresses not counted separately). */
  readonly totalRecords: number;
  readonly bytes: number;
  readonly totalBytes: number;
}

export interface ImportOptions {
  readonly onProgress?: (p: ImportProgress) => void;
  /** Limit of the one write transaction; default one hour. */
  readonly transactionTimeoutMs?: number;
  /** Records per write statement; default 1000. */
  readonly batchSize?: number;
}

/** The file cannot be read, is not JSON, or is not an object of sections (CLI exit 2). */
export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFileError';
  }
}

/** Some records are invalid; nothing was written. `problems` names every one (CLI exit 1). */
export class ImportValidationError extends Error {
  /** Distinct records (a customer and each of its addresses count separately) with a problem. */
  readonly invalidRecords: number;

  constructor(readonly problems: readonly ImportProblem[]) {
    const records = new Set(problems.map((p) => recordOf(p.position))).size;
    super(
      `${records} invalid record${records === 1 ? '' : 's'} (${problems.length} problem${problems.length === 1 ? '' : 's'}); nothing was imported`,
    );
    this.name = 'ImportValidationError';
    this.invalidRecords = records;
  }
}

/** `customers[3].addresses[1].city` → `customers[3].addresses[1]`; `accounts[2].code` → `accounts[2]`. */
export function recordOf(position: string): string {
  const m = /^[^.[]+(\[\d+\](\.addresses\[\d+\])?)?/.exec(position);
  return m ? m[0] : position;
}

/** Writing failed after validation (e.g. the database changed meanwhile); nothing was written. */
export class ImportWriteError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ImportWriteError';
  }
}
