import { validationFailed } from '../../errors/catalogue';
import { decodeComponent } from './options';

/**
 * The key inside `(…)`, an OData key literal: `<id>` (a GUID), `'<text>'` (a quote inside
 * doubled), or `<name>=` one of those. Anything else (an empty key, an unclosed or missing
 * quote, a lone quote inside) is 400: nothing is read or written under a key the client did
 * not mean.
 */
export function keyOf(raw: string): { name?: string; value: string } {
  const text = decodeComponent(raw) ?? '';
  const named = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(text);
  const name = named?.[1];
  const literal = named ? (named[2] ?? '') : text;
  const quoted = /^'((?:[^']|'')*)'$/s.exec(literal);
  const value = quoted ? (quoted[1] ?? '').replaceAll("''", "'") : literal;
  // Unquoted, only a GUID (the id's literal); quoted, any text but the empty one.
  const ok = value.length > 0 && (quoted !== null || ((name === undefined || name === 'id') && /^[0-9A-Fa-f-]+$/.test(value)));
  if (!ok)
    throw validationFailed([
      {
        field: name ?? 'id',
        message: `the key ${literal === '' ? 'is empty' : `(${literal}) is not an OData literal: write a GUID, or text in single quotes with a quote inside doubled`}`,
      },
    ]);
  return { name, value };
}
