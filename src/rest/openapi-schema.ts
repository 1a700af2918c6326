import { z } from 'zod';

// JSON Schemas of the OpenAPI document, from the zod schemas that validate requests
// (OpenAPI 3.1 speaks JSON Schema 2020-12, which zod emits directly).

export type JsonSchema = Record<string, unknown>;

/**
 * A request body as clients may send it: fields with a default are optional and carry the
 * default (generated clients, e.g. openapi-typescript, must not demand them).
 */
export function inputSchema(s: z.ZodType): JsonSchema {
  return withoutDefaults(jsonSchema(s));
}

/**
 * A record as the service answers it: every field is present (null when it has no value),
 * so every property is required, at every depth.
 */
export function responseSchema(s: z.ZodType): JsonSchema {
  return allRequired(jsonSchema(s));
}

/** zod's JSON Schema of `s`, without the `$schema` line (the OpenAPI document names the dialect once). */
function jsonSchema(s: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' });
  return rest;
}

export const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

// openapi-typescript types a property with a `default` as always present, even in a request
// body; the default is kept in the description instead, where people read it.
function withoutDefaults(schema: JsonSchema): JsonSchema {
  return mapObjects(schema, (o) => {
    if (!isObject(o.properties)) return o;
    const properties = Object.fromEntries(
      Object.entries(o.properties).map(([k, p]) => {
        if (!isObject(p) || !('default' in p)) return [k, p];
        const { default: value, ...rest } = p;
        const note = `Default: ${JSON.stringify(value)}.`;
        return [k, { ...rest, description: typeof rest.description === 'string' ? `${rest.description} ${note}` : note }];
      }),
    );
    return { ...o, properties };
  });
}

function allRequired(schema: JsonSchema): JsonSchema {
  return mapObjects(schema, (o) => (isObject(o.properties) ? { ...o, required: Object.keys(o.properties) } : o));
}

/** Applies f to every object schema, innermost first. */
function mapObjects(value: JsonSchema, f: (o: JsonSchema) => JsonSchema): JsonSchema {
  const inner = (o: JsonSchema): JsonSchema => f(Object.fromEntries(Object.entries(o).map(([k, x]) => [k, walk(x)])));
  const walk = (v: unknown): unknown => (Array.isArray(v) ? v.map(walk) : isObject(v) ? inner(v) : v);
  return inner(value);
}
