import { stored } from '../../db/read/row';
import { field, type FieldCatalog } from '../../query/fields';
import { CHANGE_OPERATIONS, type LoggedResource } from '../common/change-log';
import type { ModelName } from '../common/resource';
import { academicTermFields } from '../academic-term/fields';
import { accountFields } from '../account/fields';
import { addressFields } from '../address/fields';
import { articlePriceFields } from '../article-price/fields';
import { articleFields } from '../article/fields';
import { customerFields } from '../customer/fields';
import { paymentFields } from '../payment/fields';
import { paymentSourceFields } from '../payment-source/fields';
import { taxCodeFields } from '../tax-code/fields';

/**
 * Every resource the log records, by its singular kebab name (an entry's `resource`, the
 * CloudEvents type's middle part), with the fields an entry's `changes` may name.
 */
export const LOGGED_RESOURCES = {
  'payment-source': paymentSourceFields,
  payment: paymentFields,
  customer: customerFields,
  address: addressFields,
  article: articleFields,
  'article-price': articlePriceFields,
  'tax-code': taxCodeFields,
  account: accountFields,
  'academic-term': academicTermFields,
} as const satisfies Record<LoggedResource, FieldCatalog>;

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

/** Every column of an entry as the service reads it (src/db/read): the doors' fields, the feed's cursor and the changes. */
export const changeLogColumns = { ...changeLogFields, seq: stored.bigint(), changes: stored.json() };
