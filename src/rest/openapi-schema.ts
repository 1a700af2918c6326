import { z } from 'zod';

// JSON Schemas of the OpenAPI document, from the zod schemas that validate requests
// (OpenAPI 3.1 speaks JSON Schema 2020-12, which zod emits directly).

export type JsonSchema = Record<string, unknown>;

/**
 * A request body as clients may send it: fields with a default are optional and carry the
 * default (generated clients, e.g. openapi-typescript, must not demand them).
 */
export function inputSchema(s: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return withoutDefaults(rest);
}

/**
 * A record as the service answers it: every field is present (null when it has no value),
 * so every property is required, at every depth.
 */
export function responseSchema(s: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return allRequired(rest);
}

// openapi-typescript types a property with a `default` as always present, even in a request
// body; the default is kept in the description instead, where people read it.
function withoutDefaults(schema: JsonSchema): JsonSchema {
  return mapObjects(schema, (o) => {
    if (!o.properties) return o;
    const properties = Object.fromEntries(
      Object.entries(o.properties as Record<string, JsonSchema>).map(([k, p]) => {
        if (!('default' in p)) return [k, p];
        const { default: value, ...rest } = p;
        const note = `Default: ${JSON.stringify(value)}.`;
        return [k, { ...rest, description: rest.description ? `${rest.description as string} ${note}` : note }];
      }),
    );
    return { ...o, properties };
  });
}

function allRequired(schema: JsonSchema): JsonSchema {
  return mapObjects(schema, (o) => (o.properties ? { ...o, required: Object.keys(o.properties) } : o));
}

/** Applies f to every object schema, innermost first. */
function mapObjects(value: JsonSchema, f: (o: JsonSchema) => JsonSchema): JsonSchema {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const o = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return f(o);
  };
  return walk(value) as JsonSchema;
}
