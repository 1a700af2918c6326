// OASIS's CSDL XML → CSDL JSON converter ships without type declarations.
declare module 'odata-csdl' {
  export function xml2json(xml: string, options?: { strict?: boolean; annotations?: boolean }): Record<string, unknown>;
}
