import { z } from 'zod';
import type { Prisma, PrismaClient } from '../../db/__generated__/prisma/client';
import {
  isCheckViolation,
  isExclusionViolation,
  isForeignKeyViolation,
  isRecordNotFound,
  isUniqueViolation,
  isWriteConflict,
} from '../../db/errors';
import { clientOf, executeInUnit, inTransaction } from '../../db/unit-of-work';
import { AppError, notFound, validationFailed, type FieldError } from '../../errors/catalogue';
import { arrayLiteral, arrayParam } from '../../db/sql-arrays';
import { isDecimal } from '../../query/values';
import { personalFieldsOf, type FieldCatalog } from '../../query/fields';
import { personalDataForbidden, personalFieldsWritten, personalRelation, withoutPersonal } from '../../query/personal';
import { resourceOf } from '../resources';
import {
  appendBulkChanges,
  appendChanges,
  fieldChanges,
  stageImportChanges,
  type ChangeDraft,
  type LoggedResource,
} from '../change-log/append';
import { clearFlagFirst, deleteRows, newRowId, TableWriter, tableSpec, type Raw, type Row, type TableSpec } from './table-write';
import type { Actor, ServiceDeps } from '../context';
import type { ModelName, Relation } from '../common/declaration';
import { checkIfMatch } from '../common/etag';
import { fieldErrors, parseId } from '../common/validate';
import { naturalKeyOf, type ImportSpec } from '../common/natural-key';

// The one write path of the reference data a billing office maintains (accounts, tax codes,
// articles and prices, customers with addresses, academic terms): create, full replace,
// merge and delete, each in one transaction that locks the record, checks If-Match and the
// resource's rules against the database, writes, and appends its change-log entries last.
// A resource says what differs in its folder (`writes.ts`: input schema, store, rules); the
// doors find the writers by model (src/domain/services.ts) and derive routes and mutations.

/** A transaction's client: every read and write of one write goes through it. */
export type Db = Prisma.TransactionClient;

export interface WriteOptions {
  /** The client's If-Match header (GraphQL: `ifMatch`), checked against the current record. */
  readonly ifMatch?: string | undefined;
  /** The client's If-None-Match header: `*` makes an upsert create only. */
  readonly ifNoneMatch?: string | undefined;
}

/** A column that tells a resource's records apart besides the id (a code, a debtor number): upserts find the record by it. */
export interface AlternateKey {
  readonly field: string;
  /** How a refusal names it: `code`, `debtor number`. */
  readonly label: string;
  readonly caseInsensitive: boolean;
}

/** The alternate key of a resource: its natural key when that is one column. */
export const alternateKeyOf = (resource: { readonly fields: FieldCatalog; readonly import?: ImportSpec }): AlternateKey | undefined => {
  const unique = naturalKeyOf(resource);
  return unique?.kind === 'column' ? { field: unique.field, label: unique.label, caseInsensitive: unique.caseInsensitive } : undefined;
};

/** Audit values of a write; a store puts them on resources that have the fields. */
export interface Audit {
  readonly at: Date;
  readonly by: string;
}

/** How a resource's records are read and written inside a transaction (its Prisma model). */
export interface Store<R, I> {
  find(id: string): Promise<R | null>;
  /** Records by id, in any order (bulk upserts read a request's records with it). */
  findMany?(ids: readonly string[]): Promise<R[]>;
  create(input: I, audit: Audit): Promise<R>;
  update(id: string, input: I, audit: Audit): Promise<R>;
  remove(id: string): Promise<void>;
}

export interface WriteSpec<R extends { id: string }, I extends object> {
  readonly resource: {
    readonly model: ModelName;
    readonly name: LoggedResource;
    readonly label: string;
    readonly fields: FieldCatalog;
    /** Its relations: those written inside a record (a customer's addresses) are personal when their records hold personal fields. */
    readonly relations: Readonly<Record<string, Relation>>;
    /** Its natural key, when one column: the alternate key upserts go by. */
    readonly import?: ImportSpec;
  };
  /** The body of POST and PUT (a full replacement); PATCH is the current record with the body's fields over it, checked by the same schema. */
  readonly input: z.ZodObject<z.ZodRawShape, z.core.$strict>;
  readonly parse: (body: unknown) => I;
  /** The current record as a body of `input` (PATCH starts from it); default: its fields of `input` in wire form. */
  readonly asInput?: (current: R) => Record<string, unknown>;
  readonly store: (db: Db, now: Date) => Store<R, I>;
  /**
   * The input as it applies to the current record: parts the input gives without their ids
   * (a customer's addresses) matched to the current ones they equal, so that a repeated
   * write changes nothing.
   */
  readonly settle?: (current: R, input: I) => I;
  /** The rules of a new (current undefined) or changed record, checked against the database; throws an AppError. */
  readonly check?: (db: Db, next: I, current: R | undefined, now: Date) => Promise<void>;
  /** What keeps a record from being deleted; throws an AppError (IN_USE, ALREADY_EFFECTIVE). */
  readonly checkDelete?: (db: Db, current: R, now: Date) => Promise<void>;
  /** Change-log entries of records written with this one (a customer's addresses), between two versions. */
  readonly alsoLogged?: (before: R | undefined, after: R | undefined) => ChangeDraft[];
  /** What many records' rules read, read once for a bulk upsert's records while `work` checks them (the accounts they name). */
  readonly readAhead?: <T>(db: Db, inputs: readonly I[], work: () => Promise<T>) => Promise<T>;
  /** Rows of another table a record's input holds (a customer's addresses): how a bulk upsert writes them set-based. */
  readonly nested?: NestedRows<R, I>;
}

/** The rows of another table that a record's input holds, for the set-based write of many records. */
export interface NestedRows<R, I> {
  readonly table: TableSpec;
  /** A boolean column at most one of a record's rows may hold (a default), cleared first where it moves. */
  readonly flag?: string;
  /**
   * The rows of the settled input `next` of record `id` (new ones with new ids), the ids of
   * the current rows it drops, and of the current rows whose flag goes to another row.
   */
  rows(id: string, current: R | undefined, next: I): { rows: Raw[]; removed: string[]; flagMoves: string[] };
}

/** What one request of a bulk upsert may hold; checked before any work. */
export const BULK_LIMITS = {
  /** Records in one request: a semester's new students of a faculty, or a nightly slice. */
  records: 5000,
  /** Bytes of one request's body (after decompression): 5,000 customers with three addresses each fit. */
  bytes: 8 * 1024 * 1024,
} as const;
/** Records written by one set of statements: keeps each statement's parameters a few hundred kilobytes. */
const BULK_CHUNK = 1000;

/** One record of a bulk upsert: its body, and its key when the request addresses it apart from the body (OData `@id`). */
export interface BulkRecord {
  readonly key?: string | undefined;
  readonly body: unknown;
}

export const BULK_RESULTS = ['created', 'updated', 'unchanged', 'refused'] as const;
export type BulkResultKind = (typeof BULK_RESULTS)[number];

/** What a refused record was refused for: a catalogue code, its detail and the fields it names. */
export interface Refusal {
  readonly code: AppError['code'];
  readonly message: string;
  readonly errors: readonly FieldError[];
}

/** The outcome of one record, at its place in the request. */
export type BulkResult = { readonly index: number; readonly key: string | null } & (
  | { readonly result: 'created' | 'updated' | 'unchanged'; readonly id: string; readonly record?: WrittenView }
  | { readonly result: 'refused'; readonly error: Refusal }
);

export interface BulkOutcome {
  readonly results: readonly BulkResult[];
  readonly counts: Readonly<Record<BulkResultKind, number>>;
}

export interface BulkOptions {
  /** Keep the valid records when others are refused (OData `Prefer: odata.continue-on-error`); default: all or nothing. */
  readonly continueOnError?: boolean;
  /** Answer each written record as the caller may read it (default); false: results without records (`Prefer: return=minimal`). */
  readonly records?: boolean;
}

/** A written record as its writer may read it (without personal fields unless the actor may see them): what a write answers. */
export type WrittenView = { readonly id: string } & Readonly<Record<string, unknown>>;

/** What the doors call: the type-free face of every resource's writer. */
export interface RecordWriter {
  readonly label: string;
  create(body: unknown, actor: Actor): Promise<WrittenView>;
  replace(id: unknown, body: unknown, actor: Actor, o?: WriteOptions): Promise<WrittenView>;
  patch(id: unknown, body: unknown, actor: Actor, o?: WriteOptions): Promise<WrittenView>;
  delete(id: unknown, actor: Actor, o?: WriteOptions): Promise<void>;
  /** The alternate key a record can be addressed by, if the resource has one. */
  readonly alternateKey: AlternateKey | undefined;
  /** The id of the record with this alternate key, if there is one. */
  idByKey(key: string): Promise<string | undefined>;
  /** PUT by alternate key: replaces the record with that key, or creates it. */
  upsert(key: unknown, body: unknown, actor: Actor, o?: WriteOptions): Promise<{ record: WrittenView; created: boolean }>;
  /** Bulk upsert by alternate key: each record created, changed (the fields it gives) or left as it is, set-based, one result each. */
  upsertMany(records: readonly BulkRecord[], actor: Actor, o?: BulkOptions): Promise<BulkOutcome>;
}

export class WriteService<R extends { id: string }, I extends object> implements RecordWriter {
  readonly label: string;
  readonly alternateKey: AlternateKey | undefined;
  private readonly prisma: PrismaClient;
  private readonly now: () => Date;
  /** The input keys a caller without the personal-data scope may not write: personal fields, and relations of records holding some. */
  private readonly personalNames: readonly string[];
  /** The resource's table as bulk upserts write it. */
  private readonly table: TableSpec;

  constructor(
    deps: ServiceDeps,
    private readonly spec: WriteSpec<R, I>,
  ) {
    this.label = spec.resource.label;
    this.alternateKey = alternateKeyOf(spec.resource);
    const own = personalFieldsOf(spec.resource.fields);
    const relations = (r: string) => this.relationFields(r);
    this.personalNames = Object.keys(spec.input.shape).filter(
      (k) => own.has(k) || personalRelation(spec.resource.fields, k, relations) !== undefined,
    );
    this.prisma = deps.prisma;
    this.now = deps.now ?? (() => new Date());
    this.table = tableSpec(spec.resource.model, spec.resource.fields, spec.resource.import?.enumTypes);
  }

  async create(body: unknown, actor: Actor): Promise<WrittenView> {
    const input = this.spec.parse(this.guard(body, actor));
    const created = await this.transaction(
      (db, now) => this.createIn(db, now, input, actor),
      (db, now) => this.rules(db, input, undefined, now),
    );
    return this.view(created, actor);
  }

  private async createIn(db: Db, now: Date, input: I, actor: Actor): Promise<R> {
    await this.rules(db, input, undefined, now);
    const created = await this.spec.store(db, now).create(input, { at: now, by: actor.userId });
    await this.log('created', undefined, created, actor, now);
    return created;
  }

  /**
   * PUT: a full replacement of the editable fields the caller may see (an omitted optional
   * field becomes its default; a caller without the personal-data scope keeps the personal ones).
   */
  async replace(id: unknown, body: unknown, actor: Actor, o: WriteOptions = {}): Promise<WrittenView> {
    const given = this.guard(body, actor);
    const input = actor.personalData ? this.spec.parse(given) : undefined;
    return this.view(await this.update(id, (current) => input ?? this.spec.parse({ ...this.hidden(current), ...given }), actor, o), actor);
  }

  /** PATCH and GraphQL update: the fields the body names change, the others keep their value. */
  async patch(id: unknown, body: unknown, actor: Actor, o: WriteOptions = {}): Promise<WrittenView> {
    const given = this.guard(body, actor);
    return this.view(await this.update(id, (current) => this.spec.parse({ ...this.asInput(current), ...given }), actor, o), actor);
  }

  /** A change computed from the current record (a customer's address added, changed or removed), with the same rules, lock and log. */
  change(id: unknown, next: (current: R) => I, actor: Actor, o: WriteOptions = {}): Promise<R> {
    return this.update(id, next, actor, o);
  }

  async delete(rawId: unknown, actor: Actor, o: WriteOptions = {}): Promise<void> {
    const id = parseId(rawId);
    await this.transaction(async (db, now) => {
      const current = await this.locked(db, id, o, actor);
      await this.spec.checkDelete?.(db, current, now);
      await this.spec.store(db, now).remove(id);
      await this.log('deleted', current, undefined, actor, now);
    });
  }

  private async update(rawId: unknown, next: (current: R) => I, actor: Actor, o: WriteOptions): Promise<R> {
    const id = parseId(rawId);
    let checked: { current: R; input: I } | undefined;
    const write = async (db: Db, now: Date) => {
      const current = await this.locked(db, id, o, actor);
      checked = { current, input: next(current) };
      return this.replaceIn(db, now, checked.current, checked.input, actor);
    };
    return this.transaction(write, (db, now) => (checked ? this.rules(db, checked.input, checked.current, now) : undefined));
  }

  /** The write of a locked record's new version: nothing when it equals the current one (no write, no change-log entry). */
  private async replaceIn(db: Db, now: Date, current: R, next: I, actor: Actor): Promise<R> {
    const input = this.spec.settle?.(current, next) ?? next;
    if (this.unchanged(current, input)) return current;
    // The input as it will be written, whatever path made it (a merge, a default, a sub-route).
    if (!actor.personalData && !this.sameHidden(current, input)) throw personalDataForbidden(this.personalNames);
    await this.rules(db, input, current, now);
    const updated = await this.spec.store(db, now).update(current.id, input, { at: now, by: actor.userId });
    await this.log('updated', current, updated, actor, now);
    return updated;
  }

  /** Whether the input keeps the part of the current record a caller without the personal-data scope cannot see. */
  private sameHidden(current: R, input: I): boolean {
    try {
      return sameInput(this.personalPart(this.spec.parse(this.asInput(current))), this.personalPart(input));
    } catch {
      return false;
    }
  }

  /** Whether the input says what the current record holds (a record the API could not write as it is: no). */
  private unchanged(current: R, input: I): boolean {
    try {
      return sameInput(this.spec.parse(this.asInput(current)), input);
    } catch {
      return false;
    }
  }

  async idByKey(key: string): Promise<string | undefined> {
    this.checkKey(key);
    return this.findByKey(clientOf(this.prisma), this.requireKey(), key);
  }

  /** A key about to be looked up, checked as its field first (a NUL the database cannot hold, a length): VALIDATION_FAILED. */
  private checkKey(value: string): void {
    const key = this.requireKey();
    const field = this.spec.input.shape[key.field];
    const checked = field && z.safeParse(field, value);
    if (checked && !checked.success) throw validationFailed(fieldErrors(checked.error, key.field));
  }

  /**
   * PUT by alternate key (a campus management system syncing a student by debtor number):
   * the record with that key replaced, or created when there is none, in one transaction.
   * The body may leave the key out; given, it must be the URL's. If-Match needs a record to
   * match; `If-None-Match: *` creates only. Two syncs creating one key at once: the loser
   * finds the winner's record on its second try and replaces it.
   */
  async upsert(rawKey: unknown, body: unknown, actor: Actor, o: WriteOptions = {}): Promise<{ record: WrittenView; created: boolean }> {
    const key = this.requireKey();
    if (typeof rawKey !== 'string' || rawKey.length === 0) throw validationFailed([{ field: key.field, message: 'the key must be given' }]);
    const given = this.guard(body, actor);
    const named: unknown = given[key.field];
    if (named !== undefined && named !== rawKey)
      throw validationFailed([{ field: key.field, message: `must be ${rawKey} as the URL says, or left out` }]);
    const input = this.spec.parse({ ...given, [key.field]: rawKey });
    // A key compared ignoring case stays as stored unless the body names it (a sync that lower-cases keys changes nothing).
    const replacing = (current: R): I => {
      if (named !== undefined && actor.personalData) return input;
      const stored: unknown = Object.getOwnPropertyDescriptor(current, key.field)?.value;
      return this.spec.parse({ ...this.hidden(current), ...given, [key.field]: named ?? stored });
    };
    const attempt = () =>
      this.transaction(
        async (db, now) => {
          const id = await this.findByKey(db, key, rawKey);
          if (id === undefined) {
            if (o.ifMatch !== undefined) throw new AppError('PRECONDITION_FAILED', `No ${this.label} has ${key.field} ${rawKey} to match`);
            return { record: await this.createIn(db, now, input, actor), created: true };
          }
          if (o.ifNoneMatch?.trim() === '*')
            throw new AppError('PRECONDITION_FAILED', `A ${this.label} with ${key.field} ${rawKey} exists`);
          const current = await this.locked(db, id, o, actor);
          return { record: await this.replaceIn(db, now, current, replacing(current), actor), created: false };
        },
        (db, now) => this.rules(db, input, undefined, now),
      );
    const { record, created } = await attempt().catch((e: unknown) => {
      const lostRace = e instanceof AppError && (e.code === 'DUPLICATE_KEY' || e.code === 'DUPLICATE_CODE');
      if (lostRace && (o.ifNoneMatch ?? '').trim() !== '*') return attempt();
      throw e;
    });
    return { record: this.view(record, actor), created };
  }

  /**
   * Bulk upsert by alternate key (a campus management system's sync): each record is found by
   * its key and, like PATCH, the fields it gives change (a new record needs all required
   * fields); the same rules as every write, decided in memory over a chunk's current records
   * read in two statements, and written set-based (table-write.ts) with one change-log entry
   * per record that changed and none for one that did not. All or nothing unless
   * `continueOnError`: then the refused records are left out and the others written.
   */
  async upsertMany(records: readonly BulkRecord[], actor: Actor, o: BulkOptions = {}): Promise<BulkOutcome> {
    const key = this.requireKey();
    if (records.length > BULK_LIMITS.records)
      throw new AppError('PAYLOAD_TOO_LARGE', `A bulk upsert takes at most ${BULK_LIMITS.records} records; this one has ${records.length}`);
    // In memory first: a body naming personal data refuses the whole request before anything is read.
    const prepared = this.keyed(records.map((r, index) => this.prepare(r, index, key, actor)));
    const attempt = () =>
      this.transaction(async (db, now) => {
        const results: BulkResult[] = prepared.flatMap((p) => ('refusal' in p ? [refused(p.index, p.key, p.refusal)] : []));
        const valid = prepared.flatMap((p) => ('refusal' in p ? [] : [p]));
        const changed: Decided<R, I>['changed'] = [];
        const written: Array<{ index: number; key: string; id: string; result: Exclude<BulkResultKind, 'refused'> }> = [];
        const unchanged = new Map<string, R>();
        // Every record decided before anything is written: a refusal anywhere costs no write.
        for (let i = 0; i < valid.length; i += BULK_CHUNK) {
          const decided = await this.decide(db, valid.slice(i, i + BULK_CHUNK), key, actor, now);
          results.push(...decided.refused);
          for (const u of decided.unchanged) {
            written.push({ index: u.index, key: u.key, id: u.record.id, result: 'unchanged' });
            unchanged.set(u.record.id, u.record);
          }
          changed.push(...decided.changed);
        }
        if (results.length > 0 && o.continueOnError !== true) throw recordsRefused(results);
        await stageImportChanges(db);
        for (let i = 0; i < changed.length; i += BULK_CHUNK) await this.writeMany(db, changed.slice(i, i + BULK_CHUNK), actor, now);
        for (const c of changed) written.push({ index: c.index, key: c.key, id: c.id, result: c.current ? 'updated' : 'created' });
        // The records as the caller may read them: the unchanged ones as read, the others read again.
        const views =
          o.records === false
            ? new Map<string, WrittenView>()
            : new Map([
                ...[...unchanged].map(([id, r]) => [id, this.view(r, actor)] as const),
                ...(await this.views(
                  db,
                  changed.map((c) => c.id),
                  actor,
                )),
              ]);
        // Last: from here to the commit the feed's lock is held (appendBulkChanges).
        await appendBulkChanges(db, { userId: actor.userId, requestId: actor.requestId, occurredAt: now });
        for (const w of written) {
          const record = views.get(w.id);
          results.push({ index: w.index, key: w.key, result: w.result, id: w.id, ...(record ? { record } : {}) });
        }
        return results.sort((a, b) => a.index - b.index);
      });
    // Two syncs creating one key at once: the loser's second try finds the winner's record.
    const results = await attempt().catch((e: unknown) => {
      if (e instanceof AppError && (e.code === 'DUPLICATE_KEY' || e.code === 'DUPLICATE_CODE')) return attempt();
      throw e;
    });
    const counts = { created: 0, updated: 0, unchanged: 0, refused: 0 };
    for (const r of results) counts[r.result]++;
    return { results, counts };
  }

  /** A record of a bulk request, checked in memory: a JSON object naming its key (once, the same in `@id` and body) and no personal field the caller may not write. */
  private prepare(r: BulkRecord, index: number, key: AlternateKey, actor: Actor): Prepared {
    const keyOf = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
    try {
      const given = this.guard(r.body, actor);
      const named: unknown = given[key.field];
      if (r.key !== undefined && named !== undefined && named !== r.key)
        throw validationFailed([{ field: key.field, message: `must be ${r.key} as its @id says, or left out` }]);
      const k = keyOf(r.key ?? named);
      if (k === null) throw validationFailed([{ field: key.field, message: "the key must be given (or the record's @id)" }]);
      this.checkKey(k);
      return { index, key: k, given, named: named !== undefined };
    } catch (e) {
      // Personal data is the caller's scope, not the record's fault: the whole request is refused.
      if (!(e instanceof AppError) || e.code === 'FORBIDDEN') throw e;
      return { index, key: keyOf(r.key ?? propOfBody(r.body, key.field)), refusal: refusalOf(e) };
    }
  }

  /** The later records of a request naming a key an earlier one names (compared as the key is) are refused: one record, one result. */
  private keyed(prepared: Prepared[]): Prepared[] {
    const key = this.requireKey();
    const seen = new Map<string, number>();
    return prepared.map((p) => {
      if ('refusal' in p) return p;
      const norm = key.caseInsensitive ? p.key.toLowerCase() : p.key;
      const first = seen.get(norm);
      if (first === undefined) {
        seen.set(norm, p.index);
        return p;
      }
      const code = key.field === 'code' ? 'DUPLICATE_CODE' : 'DUPLICATE_KEY';
      return {
        index: p.index,
        key: p.key,
        refusal: refusalOf(
          new AppError(code, `Record ${first} of the request has the ${key.label} ${p.key} too`, [
            { field: key.field, message: 'named twice in the request' },
          ]),
        ),
      };
    });
  }

  /**
   * A chunk's records against their current versions (read and locked in two statements):
   * unchanged, refused with the rule they break, or the input to write.
   */
  private async decide(db: Db, chunk: readonly Keyed[], key: AlternateKey, actor: Actor, now: Date): Promise<Decided<R, I>> {
    const ids = await this.idsByKeys(
      db,
      key,
      chunk.map((p) => p.key),
    );
    const found = await this.findMany(db, now, [...new Set(ids.values())]);
    const refusedHere: BulkResult[] = [];
    const unchanged: Decided<R, I>['unchanged'] = [];
    const candidates: Array<Keyed & { current: R | undefined; input: I }> = [];
    for (const p of chunk) {
      const id = ids.get(p.key);
      const current = id === undefined ? undefined : found.get(id);
      try {
        if (!current) {
          candidates.push({ ...p, current, input: this.spec.parse({ ...p.given, [key.field]: p.key }) });
          continue;
        }
        // A key compared ignoring case stays as stored unless the record names it.
        const stored: unknown = Object.getOwnPropertyDescriptor(current, key.field)?.value;
        const merged = this.spec.parse({ ...this.asInput(current), ...p.given, [key.field]: p.named ? p.key : stored });
        const input = this.spec.settle?.(current, merged) ?? merged;
        if (this.unchanged(current, input)) unchanged.push({ index: p.index, key: p.key, record: current });
        else if (!actor.personalData && !this.sameHidden(current, input)) throw personalDataForbidden(this.personalNames);
        else candidates.push({ ...p, current, input });
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        refusedHere.push(refused(p.index, p.key, refusalOf(e)));
      }
    }
    const changed: Decided<R, I>['changed'] = [];
    const readAhead = this.spec.readAhead ?? ((_db: Db, _inputs: readonly I[], work: () => Promise<void>) => work());
    await readAhead(
      db,
      candidates.map((c) => c.input),
      async () => {
        for (const c of candidates) {
          try {
            await this.spec.check?.(db, c.input, c.current, now);
            changed.push({ index: c.index, key: c.key, id: c.current?.id ?? newRowId(), current: c.current, input: c.input });
          } catch (e) {
            if (!(e instanceof AppError)) throw e;
            refusedHere.push(refused(c.index, c.key, refusalOf(e)));
          }
        }
      },
    );
    return { refused: refusedHere, unchanged, changed };
  }

  /** The records' rows written set-based: the resource's table, then the rows its records hold (dropped ones first, a moving flag cleared first). */
  private async writeMany(
    db: Db,
    changed: ReadonlyArray<{ id: string; current: R | undefined; input: I }>,
    actor: Actor,
    now: Date,
  ): Promise<void> {
    if (changed.length === 0) return;
    const at = now.toISOString();
    const audited = this.table.audited;
    const rows: Row[] = changed.map(({ id, current, input }) => {
      const record = { ...input, id };
      if (!audited) return { record };
      return current
        ? {
            record: { ...record, updatedAt: now, updatedById: actor.userId },
            given: { createdById: false, updatedAt: true, updatedById: true },
          }
        : {
            record: { ...record, createdAt: now, createdById: actor.userId, updatedAt: null, updatedById: null },
            given: { createdById: true, updatedAt: true, updatedById: true },
          };
    });
    await new TableWriter(this.table, at).write(db, rows);
    const nested = this.spec.nested;
    if (!nested) return;
    const parts = changed.map(({ id, current, input }) => nested.rows(id, current, input));
    await deleteRows(
      db,
      nested.table,
      parts.flatMap((p) => p.removed),
    );
    if (nested.flag)
      await clearFlagFirst(
        db,
        nested.table.table,
        nested.flag,
        parts.flatMap((p) => p.flagMoves),
      );
    await new TableWriter(nested.table, at).write(
      db,
      parts.flatMap((p) => p.rows.map((record) => ({ record }))),
    );
  }

  /** The ids of the records with these keys (codes compared ignoring case), their rows locked: key as given → id. */
  private async idsByKeys(db: Db, key: AlternateKey, keys: readonly string[]): Promise<Map<string, string>> {
    // Table and column are the declaration's names, never input; the keys are one array parameter.
    // Locked in id order: two bulk requests naming the same records wait for each other, never deadlock.
    const [col, given] = key.caseInsensitive ? [`lower(t."${key.field}")`, 'lower(k.key)'] : [`t."${key.field}"`, 'k.key'];
    const rows = await db.$queryRawUnsafe<Array<{ key: string; id: string }>>(
      `SELECT k.key, t."id"::text AS id FROM unnest(${arrayParam(1, 'text')}) AS k(key) JOIN "${this.spec.resource.model}" t ON ${col} = ${given} ORDER BY t."id" FOR UPDATE OF t`,
      arrayLiteral(keys),
    );
    return new Map(rows.map((r) => [r.key, r.id]));
  }

  private async findMany(db: Db, now: Date, ids: readonly string[]): Promise<Map<string, R>> {
    if (ids.length === 0) return new Map();
    const store = this.spec.store(db, now);
    const records = store.findMany
      ? await store.findMany(ids)
      : (await Promise.all(ids.map((id) => store.find(id)))).flatMap((r) => (r ? [r] : []));
    return new Map(records.map((r) => [r.id, r]));
  }

  /** The written records as the actor may read them, by id. */
  private async views(db: Db, ids: readonly string[], actor: Actor): Promise<Map<string, WrittenView>> {
    const records = await this.findMany(db, this.now(), ids);
    return new Map([...records].map(([id, r]) => [id, this.view(r, actor)]));
  }

  /**
   * The body of a write as a caller sends it, checked before anything is read: a JSON object,
   * naming no personal field (nor a relation of records holding them, such as a customer's
   * addresses) unless the caller has the personal-data scope.
   */
  private guard(body: unknown, actor: Actor): Record<string, unknown> {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw validationFailed([{ field: '', message: 'the body must be a JSON object' }]);
    if (!actor.personalData) {
      const named = personalFieldsWritten(this.spec.resource.fields, body, (r) => this.relationFields(r));
      if (named.length > 0) throw personalDataForbidden(named);
    }
    return { ...body };
  }

  /** The catalogue of a relation's records, for a key of a write that is one of the resource's relations. */
  private relationFields(name: string): FieldCatalog | undefined {
    const relation = Object.hasOwn(this.spec.resource.relations, name) ? this.spec.resource.relations[name] : undefined;
    return relation && resourceOf(relation.target)?.fields;
  }

  /** The part of an input (or of a record as one) named by personalNames. */
  private personalPart(input: object): Record<string, unknown> {
    return Object.fromEntries(this.personalNames.map((k) => [k, Object.getOwnPropertyDescriptor(input, k)?.value]));
  }

  /** What a full replacement by a caller without the personal-data scope keeps of the current record: the part it cannot see. */
  private hidden(current: R): Record<string, unknown> {
    return this.personalPart(this.asInput(current));
  }

  /** A record as the actor may read it: the answer of its write, and what its If-Match is compared with. */
  private view(record: R, actor: Actor): WrittenView {
    return actor.personalData
      ? record
      : { ...withoutPersonal(this.spec.resource.fields, record, (r) => this.relationFields(r)), id: record.id };
  }

  /**
   * The rules of a write: its alternate key belongs to no other record (codes compared
   * ignoring case; the refusal names the other record), then the resource's own.
   */
  private async rules(db: Db, input: I, current: R | undefined, now: Date): Promise<void> {
    const key = this.alternateKey;
    const value: unknown = key && Object.getOwnPropertyDescriptor(input, key.field)?.value;
    if (key && typeof value === 'string') {
      const other = await this.findByKey(db, key, value);
      if (other !== undefined && other !== current?.id)
        throw new AppError(
          key.field === 'code' ? 'DUPLICATE_CODE' : 'DUPLICATE_KEY',
          `The ${key.label} ${value} is already used by ${this.label} ${other}`,
          [{ field: key.field, message: 'already used' }],
        );
    }
    await this.spec.check?.(db, input, current, now);
  }

  private requireKey(): AlternateKey {
    if (!this.alternateKey) throw new Error(`${this.label} has no alternate key`);
    return this.alternateKey;
  }

  /** The id of the record with this key (codes compared ignoring case, as their unique index does). */
  private async findByKey(db: Db | PrismaClient, key: AlternateKey, value: string): Promise<string | undefined> {
    // Table and column are the declaration's names, never input; the value is a parameter.
    const column = key.caseInsensitive ? `lower("${key.field}")` : `"${key.field}"`;
    const rows = await db.$queryRawUnsafe<{ id: string }[]>(
      `SELECT "id"::text AS id FROM "${this.spec.resource.model}" WHERE ${column} = ${key.caseInsensitive ? 'lower($1)' : '$1'}`,
      value,
    );
    return rows[0]?.id;
  }

  /** The current record, its row locked to the end of the transaction (a concurrent write waits), its ETag (as the actor sees it) checked. */
  private async locked(db: Db, id: string, o: WriteOptions, actor: Actor): Promise<R> {
    // The table's name is the declaration's model, never input.
    await executeInUnit(`SELECT 1 FROM "${this.spec.resource.model}" WHERE "id" = $1::uuid FOR UPDATE`, [id]);
    const current = await this.spec.store(db, this.now()).find(id);
    if (!current) throw notFound(this.spec.resource.label, id);
    checkIfMatch(o.ifMatch, this.view(current, actor));
    return current;
  }

  private asInput(current: R): Record<string, unknown> {
    if (this.spec.asInput) return this.spec.asInput(current);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(this.spec.input.shape)) out[key] = wireValue(Object.getOwnPropertyDescriptor(current, key)?.value);
    return out;
  }

  /** The entries of one write, last in its transaction; an update that changed nothing appends none. */
  private async log(
    operation: 'created' | 'updated' | 'deleted',
    before: R | undefined,
    after: R | undefined,
    actor: Actor,
    now: Date,
  ): Promise<void> {
    const recordId = (after ?? before)?.id ?? '';
    const changes = fieldChanges(this.spec.resource.fields, before, after);
    const drafts: ChangeDraft[] = [];
    if (operation !== 'updated' || Object.keys(changes).length > 0)
      drafts.push({ resource: this.spec.resource.name, recordId, operation, changes });
    drafts.push(...(this.spec.alsoLogged?.(before, after) ?? []));
    await appendChanges(drafts, { ...actor, occurredAt: now });
  }

  /**
   * One transaction. What the database refuses (a concurrent request won a rule) becomes the
   * rule's catalogue code: the rules are checked again against what committed since, which
   * names the other record; failing that, the constraint's code. Inside a unit of work
   * (src/db/unit-of-work.ts) the write is a savepoint of the unit's transaction, and the
   * check runs again in it, seeing the unit's earlier writes.
   */
  private async transaction<T>(
    work: (db: Db, now: Date) => Promise<T>,
    recheck?: (db: Db, now: Date) => Promise<void> | undefined,
  ): Promise<T> {
    const run = () => inTransaction(this.prisma, (db) => work(db, this.now()));
    try {
      // PostgreSQL ends one transaction of a deadlock after deadlock_timeout (1 s). Two writes
      // whose rows clash through an exclusion constraint (overlapping periods) run into one
      // when each finds the other's row before either commits. Run once more, the loser waits
      // for the winner's end and is refused by the constraint (or goes through).
      return await run().catch((e: unknown) => {
        if (isWriteConflict(e)) return run();
        throw e;
      });
    } catch (e) {
      if (recheck && !(e instanceof AppError) && (isExclusionViolation(e) || isUniqueViolation(e) || isCheckViolation(e))) {
        const rule = await inTransaction(this.prisma, async (db) => recheck(db, this.now())).then(
          () => undefined,
          (r: unknown) => r,
        );
        if (rule instanceof AppError) throw rule;
      }
      throw this.explain(e);
    }
  }

  private explain(e: unknown): unknown {
    if (e instanceof AppError) return e;
    const what = this.spec.resource.label;
    if (isExclusionViolation(e))
      return new AppError('PERIOD_OVERLAP', `The validity period overlaps another period of the same ${what} (a concurrent write)`);
    if (isUniqueViolation(e)) return new AppError('DUPLICATE_CODE', `Another ${what} has the same key (a concurrent write)`);
    if (isForeignKeyViolation(e)) return new AppError('IN_USE', `The ${what} refers to a record that is gone, or is still referred to`);
    if (isCheckViolation(e)) return new AppError('VALIDATION_FAILED', `The ${what} breaks a rule of the database`);
    if (isRecordNotFound(e)) return new AppError('PRECONDITION_FAILED', `The ${what} was changed by another request; read it again`);
    return e;
  }
}

/**
 * Whether two inputs of a resource say the same, as their JSON would: decimals and instants
 * compared by value, keys in any order (an address matched to its id gets the id last), a key
 * whose value is undefined as no key. A walk, not JSON text: a bulk upsert compares thousands.
 */
export function sameInput(a: unknown, b: unknown): boolean {
  const x = wireValue(a);
  const y = wireValue(b);
  if (x === y) return true;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  if (Array.isArray(x) || Array.isArray(y))
    return Array.isArray(x) && Array.isArray(y) && x.length === y.length && x.every((v, i) => sameInput(v, y[i]));
  const keys = (o: object) => Object.keys(o).filter((k) => Object.getOwnPropertyDescriptor(o, k)?.value !== undefined);
  const xs = keys(x);
  return (
    xs.length === keys(y).length &&
    xs.every(
      (k) => Object.hasOwn(y, k) && sameInput(Object.getOwnPropertyDescriptor(x, k)?.value, Object.getOwnPropertyDescriptor(y, k)?.value),
    )
  );
}

/** A value as a client would send it: decimals and instants as their text. */
function wireValue(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  if (isDecimal(v)) return v.toFixed();
  return v;
}

/** Refuses the delete of a record that others still refer to, naming them (`[what, their keys]`). */
export function refuseIfReferenced(record: string, refs: ReadonlyArray<readonly [string, readonly string[]]>, way = ''): void {
  const named = refs.filter(([, keys]) => keys.length > 0).map(([what, keys]) => `${what} ${keys.join(', ')}`);
  if (named.length > 0) throw new AppError('IN_USE', `${record} is still referred to by ${named.join(' and ')}${way}`);
}

/** At most this many referring records are named in a refusal. */
export const NAMED_REFERRERS = 5;

/** A bulk record checked in memory: refused, or keyed with the fields it gives. */
interface Keyed {
  readonly index: number;
  readonly key: string;
  readonly given: Record<string, unknown>;
  /** Whether the body names the key (else the stored one's case stays). */
  readonly named: boolean;
}
type Prepared = Keyed | { readonly index: number; readonly key: string | null; readonly refusal: Refusal };

/** A chunk of a bulk request decided against the current records. */
interface Decided<R = unknown, I = unknown> {
  readonly refused: BulkResult[];
  readonly unchanged: Array<{ index: number; key: string; record: R }>;
  readonly changed: Array<{ index: number; key: string; id: string; current: R | undefined; input: I }>;
}

const refusalOf = (e: AppError): Refusal => ({ code: e.code, message: e.detail, errors: e.errors ?? [] });
const refused = (index: number, key: string | null, error: Refusal): BulkResult => ({ index, key, result: 'refused', error });
const propOfBody = (body: unknown, field: string): unknown =>
  typeof body === 'object' && body !== null ? Object.getOwnPropertyDescriptor(body, field)?.value : undefined;

/** All or nothing: the refusal of the whole request, naming each refused record's fields (`value[3].email`) with its own code. */
function recordsRefused(results: readonly BulkResult[]): AppError {
  const refusals = results.flatMap((r) => (r.result === 'refused' ? [{ index: r.index, key: r.key, error: r.error }] : []));
  refusals.sort((a, b) => a.index - b.index);
  const errors = refusals.flatMap(({ index, error }) =>
    error.errors.length > 0
      ? error.errors.map((f) => ({ field: `value[${index}]${f.field ? `.${f.field}` : ''}`, message: `${error.code}: ${f.message}` }))
      : [{ field: `value[${index}]`, message: `${error.code}: ${error.message}` }],
  );
  const first = refusals[0];
  return new AppError(
    'RECORDS_REFUSED',
    `${refusals.length} record${refusals.length === 1 ? ' was' : 's were'} refused, nothing was written${first ? ` (first: record ${first.index}${first.key === null ? '' : ` ${first.key}`}, ${first.error.code}: ${first.error.message})` : ''}`,
    errors,
  );
}
