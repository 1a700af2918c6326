import { z } from 'zod';
import { validationFailed, type FieldError } from '../../errors/catalogue';
import { isUuid } from '../../query/values';

/** `['lines', 0, 'quantity']` → `lines[0].quantity`. */
export function fieldPath(path: readonly PropertyKey[], prefix = ''): string {
  let out = prefix;
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out === '' ? String(p) : `.${String(p)}`;
  }
  return out;
}

/** zod issues → the catalogue's field errors (missing, wrong type, unknown property, ...). */
export function fieldErrors(error: z.ZodError, prefix = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ field: fieldPath([...issue.path, key], prefix), message: 'is not a known property' });
      continue;
    }
    const missing = issue.code === 'invalid_type' && issue.input === undefined;
    out.push({ field: fieldPath(issue.path, prefix), message: missing ? 'is required' : issue.message });
  }
  return out;
}

/** Parses input with a schema, or throws VALIDATION_FAILED naming every bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, prefix = ''): z.output<S> {
  if (prefix === '' && (input === null || typeof input !== 'object' || Array.isArray(input)) && isObjectSchema(schema))
    throw validationFailed([{ field: '', message: 'the body must be a JSON object' }]);
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw validationFailed(fieldErrors(result.error, prefix));
}

const isObjectSchema = (schema: z.ZodType): boolean => schema instanceof z.ZodObject;

/** A path or argument id: a UUID (lower-cased), else VALIDATION_FAILED naming the field. */
export function parseId(id: unknown, field = 'id'): string {
  if (typeof id !== 'string' || !isUuid(id)) throw validationFailed([{ field, message: 'must be a UUID' }]);
  return id.toLowerCase();
}
