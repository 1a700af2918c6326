import type { BulkRecord } from '../../domain/maintenance/write-service';
import { validationFailed } from '../../errors/catalogue';
import { keyOf } from './key';
import { entitySetOf } from './model';

// The body of a bulk upsert: an OData 4.01 delta payload (Part 1, "Update a Collection of
// Entities"), `{"@context":"#$delta","value":[…]}`. Each record names its natural key in
// its body or by its `@id` (`customers(debtorNumber='…')`, relative or a full URL). Control
// information other than `@id` is not data: `@odata.type` and the like are dropped; a
// deleted entry (`@removed`) and a per-record ETag are refused, since a bulk upsert neither
// deletes nor checks versions (DELETE each; If-Match on the single upsert).

const ID = /(?:^|\/)([^/()]+)\(([^)]*)\)$/;

/** The records of a delta payload sent to the collection at `path` (`customers`), whose records have the alternate key `field`. */
export function deltaRecords(body: unknown, path: string, field: string): BulkRecord[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw validationFailed([{ field: '', message: 'the body must be a delta payload: {"@context":"#$delta","value":[…]}' }]);
  const context: unknown = prop(body, '@context') ?? prop(body, '@odata.context');
  if (context !== undefined && !(typeof context === 'string' && context.endsWith('$delta')))
    throw validationFailed([{ field: '@context', message: 'must be #$delta (a delta payload)' }]);
  const value: unknown = prop(body, 'value');
  if (!Array.isArray(value)) throw validationFailed([{ field: 'value', message: 'must be the array of records' }]);
  const extra = Object.keys(body).filter((k) => k !== 'value' && !k.startsWith('@'));
  if (extra.length > 0) throw validationFailed(extra.map((k) => ({ field: k, message: 'is not part of a delta payload' })));
  return value.map((v: unknown, i) => recordOf(v, i, path, field));
}

function recordOf(v: unknown, i: number, path: string, field: string): BulkRecord {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { body: v };
  const at = (name: string) => `value[${i}].${name}`;
  const body: Record<string, unknown> = {};
  let id: unknown;
  for (const [k, x] of Object.entries(v)) {
    if (k === '@id' || k === '@odata.id') id = x;
    else if (k === '@removed' || k === '@odata.removed')
      throw validationFailed([{ field: at(k), message: 'a bulk upsert does not delete: DELETE each record' }]);
    else if (k === '@etag' || k === '@odata.etag')
      throw validationFailed([{ field: at(k), message: 'a bulk upsert does not check versions: use If-Match on the single upsert' }]);
    else if (!k.startsWith('@')) body[k] = x;
  }
  if (id === undefined) return { body };
  const m = typeof id === 'string' ? ID.exec(id) : null;
  if (!m || entitySetOf(m[1] ?? '')?.path !== path)
    throw validationFailed([{ field: at('@id'), message: `must address a record of ${path} by its ${field}: ${path}(${field}='…')` }]);
  const key = keyOf(m[2] ?? '');
  if (key.name !== undefined && key.name !== field) throw validationFailed([{ field: at('@id'), message: `must name the ${field}` }]);
  if (key.name === undefined && !/^('|%27)/i.test(m[2] ?? ''))
    throw validationFailed([{ field: at('@id'), message: `must name the ${field} in quotes: ${path}(${field}='…')` }]);
  return { key: key.value, body };
}

const prop = (o: object, k: string): unknown => Object.getOwnPropertyDescriptor(o, k)?.value;
