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
