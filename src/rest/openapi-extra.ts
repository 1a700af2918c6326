// Paths added by later features (quotes), kept apart so openapi.ts stays the catalogue of
// the specified resources. Each entry uses the same helpers for references and errors.
type Ref = (name: string) => { $ref: string };
type ErrorResponses = (...codes: never[]) => Record<string, unknown>;

export function extraOpenApiPaths(_ref: Ref, _errors: ErrorResponses): Record<string, unknown> {
  return {};
}
