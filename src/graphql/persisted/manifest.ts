// The trusted-documents manifest: the operations the service's own apps were built with, as
// their build tools write them, read once at start from GRAPHQL_TRUSTED_DOCUMENTS (a file or
// an http(s) URL). Two shapes are read:
//
//  - `{ "<id>": "<document>", ... }`: graphql-codegen's client preset (`persistedDocuments`,
//    ids `sha256:<hex>`) and Relay's persisted queries;
//  - `{ "format": "apollo-persisted-query-manifest", "version": 1, "operations": [{ "id",
//    "body", ... }] }`: Apollo's generate-persisted-query-manifest (ids are SHA-256 hex).
//
// Ids are kept without a `sha256:` prefix, so a codegen id, the APQ extension's sha256Hash
// and a `documentId` of either form name the same document.

import fs from 'node:fs/promises';
import { parse } from 'graphql';
import { z } from 'zod';
import { errnoCode, stringProp } from '../../lib/unknown';

export type Manifest = ReadonlyMap<string, string>;

/** A manifest larger than this is refused at start (a few thousand operations fit easily). */
const MAX_MANIFEST_BYTES = 10 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;

const flat = z.record(z.string().min(1), z.string().min(1));
const apollo = z.object({
  format: z.literal('apollo-persisted-query-manifest'),
  version: z.literal(1),
  operations: z.array(z.object({ id: z.string().min(1), body: z.string().min(1) })),
});

/** A document id as clients send it (`sha256:<hex>` or the bare id), as the manifest keys it. */
export const documentKey = (id: string): string => (id.startsWith('sha256:') ? id.slice('sha256:'.length) : id);

/** The manifest's JSON text as a map of id → document; throws a message naming what is wrong. */
export function parseManifest(text: string): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('is not JSON');
  }
  const a = apollo.safeParse(json);
  const f = flat.safeParse(json);
  const entries = a.success
    ? a.data.operations.map((o) => [o.id, o.body] as const)
    : f.success && !('format' in f.data)
      ? Object.entries(f.data)
      : undefined;
  if (!entries)
    throw new Error('is neither a map of id to document (graphql-codegen, Relay) nor an Apollo persisted-query manifest (version 1)');
  // A document that does not parse could never run: the manifest is not what the apps were built with.
  for (const [id, body] of entries) {
    try {
      parse(body, { noLocation: true });
    } catch {
      throw new Error(`holds a document that is not GraphQL (id ${id})`);
    }
  }
  return new Map(entries.map(([id, body]) => [documentKey(id), body]));
}

/** Where the manifest is, for messages: a URL without credentials or query, or the path. */
const describe = (source: string): string => (/^https?:\/\//.test(source) ? new URL(source).origin + new URL(source).pathname : source);

async function readSource(source: string): Promise<string> {
  if (!/^https?:\/\//.test(source)) {
    const stat = await fs.stat(source);
    if (stat.size > MAX_MANIFEST_BYTES) throw new Error(`is larger than ${MAX_MANIFEST_BYTES} bytes`);
    return fs.readFile(source, 'utf8');
  }
  const res = await fetch(source, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
  if (!res.ok) throw new Error(`answered HTTP ${res.status}`);
  const text = await res.text();
  if (Buffer.byteLength(text, 'utf8') > MAX_MANIFEST_BYTES) throw new Error(`is larger than ${MAX_MANIFEST_BYTES} bytes`);
  return text;
}

/** Reads the manifest at start; a manifest that cannot be read or understood stops start-up with the reason. */
export async function loadManifest(source: string): Promise<Manifest> {
  try {
    return parseManifest(await readSource(source));
  } catch (e) {
    // Read by their members: errors of node:fs may come from another realm than this Error.
    const reason = errnoCode(e) === 'ENOENT' ? 'does not exist' : (stringProp(e, 'message') ?? String(e));
    throw new Error(`GRAPHQL_TRUSTED_DOCUMENTS ${describe(source)} ${reason}`, { cause: e });
  }
}
