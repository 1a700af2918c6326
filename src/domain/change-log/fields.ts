import { stored } from '../../db/read/row';
import { field, type FieldCatalog } from '../../query/fields';
import { CHANGE_OPERATIONS, type LoggedResource } from './append';
import { ALL_RESOURCES } from '../resources';
import { recordOf } from '../../lib/collections';
import type { ModelName } from '../common/declaration';

/**
 * Every resource the log records, by its singular kebab name (an entry's `resource`, the
 * CloudEvents type's middle part), with the fields an entry's `changes` may name: every
 * declared resource (src/domain/resources.ts), as every one is written through a service or
 * the import, which log their writes.
 */
export const LOGGED_RESOURCES: Readonly<Record<LoggedResource, FieldCatalog>> = recordOf(
  ALL_RESOURCES.map((r) => r.name),
  (name) => ALL_RESOURCES.find((r) => r.name === name)!.fields,
);

/** Whether a name is a logged resource's. */
export const isLoggedResource = (name: string): name is LoggedResource => Object.hasOwn(LOGGED_RESOURCES, name);

/** Where a resource's records belong (its declaration's `belongsTo`): the owner's resource, and the column naming the owner. */
export interface Ownership {
  readonly owner: LoggedResource;
  readonly foreignKey: string;
}

/**
 * Each resource whose records belong under another's: an entry of theirs names the owning
 * record (ChangeLog.ownerId), and the owner's history shows it (./service.ts historyFilter).
 */
export const OWNERSHIP: ReadonlyMap<LoggedResource, Ownership> = new Map(
  ALL_RESOURCES.flatMap((r) => {
    if (r.belongsTo === undefined) return [];
    const relation = r.relations[r.belongsTo];
    const owner = relation?.kind === 'one' ? ALL_RESOURCES.find((o) => o.model === relation.target) : undefined;
    if (!relation || !owner) throw new Error(`${r.model}.belongsTo: '${r.belongsTo}' is not a to-one relation to a declared resource`);
    return [[r.name, { owner: owner.name, foreignKey: relation.foreignKey }] as const];
  }),
);

/** The resources whose entries a record of `owner` holds in its history besides its own. */
export const ownedResources = (owner: LoggedResource): LoggedResource[] =>
  [...OWNERSHIP].flatMap(([resource, o]) => (o.owner === owner ? [resource] : []));

/**
 * The filterable, sortable and selectable fields of a log entry (both doors). `seq` and
 * `changes` are in every entry but not here: `seq` is the feed's cursor (REST's skip and
 * delta tokens, GraphQL's `after`), and `changes` is an object no filter compares.
 */
export const changeLogFields = {
  id: field.uuid(),
  resource: field.string(),
  recordId: field.uuid(),
  operation: field.enum(CHANGE_OPERATIONS),
  userId: field.uuid(),
  occurredAt: field.datetime(),
  requestId: field.string(true),
  importRunId: field.uuid(true),
} satisfies FieldCatalog;

/** The log's table (prisma/schema.prisma). */
export const CHANGE_LOG_TABLE = 'ChangeLog' satisfies ModelName;

/**
 * Every column of an entry as the service reads it (src/db/read): the doors' fields, the
 * feed's cursor, the changes, and the owner (OWNERSHIP), which only the history filters by:
 * an entry as the doors give it does not show it.
 */
export const changeLogColumns = {
  ...changeLogFields,
  seq: stored.bigint({ unique: true }),
  changes: stored.json(),
  ownerId: field.uuid(true),
};
