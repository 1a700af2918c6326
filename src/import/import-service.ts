import { randomUUID } from 'node:crypto';
import { appendStagedChanges, stageImportChanges } from '../domain/change-log/append';
import { NIL_UUID } from '../domain/common/schemas';
import { RESOURCES } from '../domain/resources';
import type { Database } from '../db/database';
import { fileSize, scanFile } from './read-file';
import {
  dependsOn,
  IMPORT_SECTIONS,
  isFileSection,
  perFileSection,
  perSection,
  sectionDef,
  type FileSection,
  type ImportSection,
  type Raw,
  type RecordOf,
} from './registry';
import { propOf, stringProp } from '../lib/unknown';
import {
  ImportFileError,
  ImportValidationError,
  ImportWriteError,
  type ImportOptions,
  type ImportResult,
  type SectionCounts,
} from './types';
import { validateFile, type ImportPlan, type Sql } from './validate';
import { ADDRESS, givenAudit, prepareKeys, SPEC_OF, TableWriter } from './write';

// The reference-data import (docs/service.md "Reference-data import"): two passes over the file.
// Pass 1 validates every record and checks the file against the database, keeping only
// keys; when anything is wrong it throws ImportValidationError naming every bad record,
// and nothing is written. Pass 2 reads the file again and upserts by id, in batches, in
// one transaction, in dependency order (a section is written once the sections it points
// at are; a file in another order is read again for the sections it had to skip).

const DEFAULT_TIMEOUT_MS = 60 * 60_000;
const DEFAULT_BATCH = 1000;
/** Batches in flight at once (see BatchPipeline). */
const PIPELINE = 2;

/**
 * Writers of pass 2: one per table. Addresses are split by isDefault (a customer's old
 * default is cleared before its new one is set), and the default payment source is
 * written after every other payment source of the file (the old default is cleared first).
 */
class Writers {
  private readonly tables: Record<FileSection, TableWriter>;
  private readonly addresses: TableWriter;
  private readonly defaultAddresses: TableWriter;
  private readonly defaultSource: TableWriter;

  constructor(now: string) {
    this.tables = perFileSection((s) => new TableWriter(SPEC_OF[s], now));
    this.addresses = new TableWriter(ADDRESS, now);
    this.defaultAddresses = new TableWriter(ADDRESS, now);
    this.defaultSource = new TableWriter(SPEC_OF.paymentSources, now);
  }

  /** A customer: its row, and its addresses to their own table. */
  addCustomer({ addresses, ...customer }: RecordOf<'customers'>): void {
    for (const a of addresses) (a.isDefault ? this.defaultAddresses : this.addresses).add({ record: { ...a, customerId: customer.id } });
    this.tables.customers.add({ record: customer });
  }

  /** A record of any other section (`raw`: as the file holds it, for the audit fields it gives). */
  add(section: Exclude<FileSection, 'customers'>, record: Raw, raw: unknown): void {
    const writer = section === 'paymentSources' && record.isDefault === true ? this.defaultSource : this.tables[section];
    writer.add(SPEC_OF[section].audited ? { record, given: givenAudit(raw) } : { record });
  }

  pending(section: FileSection): number {
    return this.tables[section].size;
  }

  /** Takes the rows collected for a section and returns the job that writes them, in a safe order. */
  take(section: FileSection, last: boolean): (db: Sql) => Promise<void> {
    const writer = this.tables[section];
    const rows = writer.take();
    switch (section) {
      case 'customers': {
        const plain = this.addresses.take();
        const defaults = this.defaultAddresses.take();
        return async (db) => {
          const { inserted } = await writer.write(db, rows);
          if (inserted === rows.length) {
            // New customers have no addresses yet to take a default from: one statement.
            await this.addresses.write(db, [...plain, ...defaults]);
          } else {
            await this.addresses.write(db, plain);
            await this.defaultAddresses.write(db, defaults);
          }
        };
      }
      case 'paymentSources': {
        const defaults = last ? this.defaultSource.take() : [];
        return async (db) => {
          await writer.write(db, rows);
          await this.defaultSource.write(db, defaults);
        };
      }
      default:
        return async (db) => {
          await writer.write(db, rows);
        };
    }
  }

  counts(): Record<ImportSection, SectionCounts> {
    const sum = (...w: TableWriter[]): SectionCounts => ({
      inserted: w.reduce((n, x) => n + x.counts.inserted, 0),
      updated: w.reduce((n, x) => n + x.counts.updated, 0),
      unchanged: w.reduce((n, x) => n + x.counts.unchanged, 0),
    });
    return perSection((s) =>
      s === 'addresses'
        ? sum(this.addresses, this.defaultAddresses)
        : s === 'paymentSources'
          ? sum(this.tables.paymentSources, this.defaultSource)
          : sum(this.tables[s]),
    );
  }
}

/** Sections to write per reading of the file: each in file order once what it points at is written. */
export function writeRuns(sections: readonly FileSection[]): FileSection[][] {
  const present = new Set(sections);
  const done = new Set<FileSection>();
  const runs: FileSection[][] = [];
  while (done.size < present.size) {
    const run = new Set<FileSection>();
    for (const s of sections) if (!done.has(s) && dependsOn(s).every((d) => !present.has(d) || done.has(d) || run.has(d))) run.add(s);
    runs.push([...run]);
    for (const s of run) done.add(s);
  }
  return runs;
}

/** The driver's error under Prisma's (`meta.driverAdapterError.cause`): PostgreSQL's message, detail and code. */
const driverCause = (e: unknown): unknown => propOf(propOf(propOf(e, 'meta'), 'driverAdapterError'), 'cause');

/** PostgreSQL's "current transaction is aborted" (25P02): a consequence, not a cause. */
function isAbortedTransaction(e: unknown): boolean {
  return stringProp(driverCause(e), 'code') === '25P02';
}

function databaseMessage(e: unknown): string {
  const cause = driverCause(e);
  const message = stringProp(cause, 'message');
  if (message !== undefined) {
    const detail = stringProp(cause, 'detail');
    return `${message}${detail === undefined ? '' : ` (${detail})`}`;
  }
  const m = stringProp(e, 'message') ?? String(e);
  return (
    m
      .split('\n')
      .filter((l) => l.trim() !== '')
      .pop() ?? m
  );
}

/** The second pass found a record the first pass had not checked. */
const changedFile = (file: string): ImportFileError => new ImportFileError(`${file} changed while it was being imported`);

/**
 * The write jobs in flight on the import's transaction, at most PIPELINE at once. Batches
 * are written while the next ones are read and parsed, two at a time: the connection runs
 * one batch's statement while Prisma prepares the other's, so the database does not wait
 * for JavaScript between statements. Two batches of one section touch different rows (keys
 * that move between rows were moved aside first), and the statements of one batch run in
 * order.
 */
class BatchPipeline {
  private readonly inflight: Promise<void>[] = [];
  // The first failure is the one to report; the statements after it only say that the
  // transaction is aborted, and one of them may belong to an older batch.
  private cause: unknown;

  constructor(private readonly tx: Sql) {}

  async submit(job: (db: Sql) => Promise<void>): Promise<void> {
    while (this.inflight.length >= PIPELINE) await this.settleOldest();
    const p = job(this.tx);
    void p.catch((e: unknown) => {
      if (this.cause === undefined && !isAbortedTransaction(e)) this.cause = e;
    });
    this.inflight.push(p);
  }

  /** Waits for every job; throws the first failure. */
  async drain(): Promise<void> {
    while (this.inflight.length > 0) await this.settleOldest();
  }

  private async settleOldest(): Promise<void> {
    try {
      await this.inflight.shift();
    } catch (e) {
      await Promise.allSettled(this.inflight);
      throw this.cause ?? e;
    }
  }
}

/** What every reading of the file in pass 2 shares. */
interface WritePass {
  readonly file: string;
  readonly writers: Writers;
  readonly pipeline: BatchPipeline;
  readonly batchSize: number;
  readonly totalBytes: number;
  readonly onProgress: ImportOptions['onProgress'];
  /** Records written so far, over every reading. */
  totalRecords: number;
}

type QueuedItem = { section: FileSection; value: unknown } | { section: FileSection; end: true };

/**
 * One reading of the file, writing the sections of `run`. A section's last batch runs
 * alone, after all others: it holds the default payment source, and the next section may
 * point at this one's rows.
 */
async function writeRun(pass: WritePass, run: readonly FileSection[]): Promise<void> {
  const { file, writers, pipeline } = pass;
  const wanted = new Set<string>(run);
  let queue: QueuedItem[] = [];
  let current: FileSection | null = null;
  let sectionRecords = 0;
  await scanFile(
    file,
    {
      wants: (s) => wanted.has(s),
      record(name, _index, value) {
        if (isFileSection(name)) queue.push({ section: name, value });
      },
      sectionEnd(name) {
        if (wanted.has(name) && isFileSection(name)) queue.push({ section: name, end: true });
      },
    },
    async (bytes) => {
      const items = queue;
      queue = [];
      for (const item of items) {
        if ('end' in item) {
          await pipeline.drain();
          await pipeline.submit(writers.take(item.section, true));
          await pipeline.drain();
          continue;
        }
        if (item.section === 'customers') {
          const parsed = RESOURCES.Customer.record.safeParse(item.value);
          if (!parsed.success) throw changedFile(file);
          writers.addCustomer(parsed.data);
        } else {
          const parsed = sectionDef(item.section).schema.safeParse(item.value);
          if (!parsed.success) throw changedFile(file);
          writers.add(item.section, parsed.data, item.value);
        }
        if (item.section !== current) {
          current = item.section;
          sectionRecords = 0;
        }
        sectionRecords++;
        pass.totalRecords++;
        if (writers.pending(item.section) >= pass.batchSize) await pipeline.submit(writers.take(item.section, false));
      }
      pass.onProgress?.({
        phase: 'write',
        section: current,
        sectionRecords,
        totalRecords: pass.totalRecords,
        bytes,
        totalBytes: pass.totalBytes,
      });
    },
  );
  await pipeline.drain();
}

/** Pass 2: in one transaction, keys moved aside first, then one reading of the file per run of sections (writeRuns). */
async function writeFile(
  db: Database,
  file: string,
  plan: ImportPlan,
  totalBytes: number,
  opts: ImportOptions,
  runId: string,
): Promise<Record<ImportSection, SectionCounts>> {
  const started = new Date();
  const writers = new Writers(started.toISOString());
  try {
    await db.prisma.$transaction(
      async (tx) => {
        await stageImportChanges(tx);
        // The rules across rows the validation checked on the file's final state (the periods of
        // a tax code) hold at the commit, whatever order the file writes its rows in.
        await tx.$executeRawUnsafe('SET CONSTRAINTS ALL DEFERRED');
        await prepareKeys(tx, plan.moveKeyFirst, plan.clearDefaultFirst);
        const pass: WritePass = {
          file,
          writers,
          pipeline: new BatchPipeline(tx),
          batchSize: opts.batchSize ?? DEFAULT_BATCH,
          totalBytes,
          onProgress: opts.onProgress,
          totalRecords: 0,
        };
        for (const run of writeRuns(plan.sections)) await writeRun(pass, run);
        // The deferred checks now, as a statement: a refusal at COMMIT itself is not reported by
        // every driver adapter (PGlite's), which would report an import that was rolled back.
        await pass.pipeline.drain();
        await tx.$executeRawUnsafe('SET CONSTRAINTS ALL IMMEDIATE');
        // Last: the feed's lock is held from here to the commit (src/domain/change-log/append.ts).
        await appendStagedChanges(tx, { userId: NIL_UUID, importRunId: runId, occurredAt: started });
      },
      { timeout: opts.transactionTimeoutMs ?? DEFAULT_TIMEOUT_MS, maxWait: 60_000 },
    );
  } catch (e) {
    if (e instanceof ImportFileError || e instanceof ImportWriteError) throw e;
    throw new ImportWriteError(`writing to the database failed, nothing was imported: ${databaseMessage(e)}`, { cause: e });
  }
  return writers.counts();
}

/**
 * Imports a reference-data file: validates all of it (throwing ImportValidationError with
 * every bad record, or ImportFileError when the file cannot be read or is not JSON), then
 * upserts it by id in one transaction. Returns the counts per section.
 */
export async function importReferenceData(db: Database, file: string, opts: ImportOptions = {}): Promise<ImportResult> {
  const started = Date.now();
  const before = await fileSize(file);
  const { problems, plan } = await validateFile(db.prisma, file, before.size, opts.onProgress);
  if (problems.length > 0) throw new ImportValidationError(problems);
  const after = await fileSize(file);
  if (after.size !== before.size || after.mtimeMs !== before.mtimeMs)
    throw new ImportFileError(`${file} changed while it was being imported`);
  const importRunId = randomUUID();
  const counts = await writeFile(db, file, plan, before.size, opts, importRunId);
  // After a bulk load the planner's statistics are stale until autovacuum gets to them,
  // and the first queries would plan as for empty tables (seen: 3x slower list queries).
  const written = Object.values(counts).reduce((n, c) => n + c.inserted + c.updated, 0);
  if (written >= 1000) await db.prisma.$executeRawUnsafe('ANALYZE');
  const records = IMPORT_SECTIONS.reduce((n, s) => n + plan.records[s], 0);
  return { counts, records, durationMs: Date.now() - started, importRunId };
}
