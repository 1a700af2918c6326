import type { z } from 'zod';
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
import { AppError, notFound, validationFailed } from '../../errors/catalogue';
import { isDecimal } from '../../query/values';
import { personalFieldsOf, type FieldCatalog } from '../../query/fields';
import { personalDataForbidden, personalFieldsWritten, withoutPersonal } from '../../query/personal';
import { resourceOf } from '../resources';
import { appendChanges, fieldChanges, type ChangeDraft, type LoggedResource } from '../change-log/append';
import type { Actor, ServiceDeps } from '../context';
import type { ModelName, Relation } from '../common/declaration';
import { checkIfMatch } from '../common/etag';
import { parseId } from '../common/validate';
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
}

export class WriteService<R extends { id: string }, I extends object> implements RecordWriter {
  readonly label: string;
  readonly alternateKey: AlternateKey | undefined;
  private readonly prisma: PrismaClient;
  private readonly now: () => Date;
  /** The input keys a caller without the personal-data scope may not write: personal fields, and relations of records holding some. */
  private readonly personalNames: readonly string[];

  constructor(
    deps: ServiceDeps,
    private readonly spec: WriteSpec<R, I>,
  ) {
    this.label = spec.resource.label;
    this.alternateKey = alternateKeyOf(spec.resource);
    const own = personalFieldsOf(spec.resource.fields);
    this.personalNames = Object.keys(spec.input.shape).filter((k) => own.has(k) || personalFieldsOf(this.relationFields(k) ?? {}).size > 0);
    this.prisma = deps.prisma;
    this.now = deps.now ?? (() => new Date());
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
    return this.findByKey(clientOf(this.prisma), this.requireKey(), key);
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

/** Whether two inputs of a resource say the same (decimals and instants compared by value). */
export const sameInput = (a: unknown, b: unknown): boolean => JSON.stringify(a, inputText) === JSON.stringify(b, inputText);
function inputText(this: unknown, key: string, v: unknown): unknown {
  // The holder's own value: JSON.stringify gives a Date's or a Decimal's toJSON to the replacer.
  const own: unknown = this !== null && typeof this === 'object' ? Object.getOwnPropertyDescriptor(this, key)?.value : v;
  return own instanceof Date ? own.toISOString() : isDecimal(own) ? own.toFixed() : v;
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
