import { createHash } from 'node:crypto';
import { getIntrospectionQuery } from 'graphql';
import request from 'supertest';
import { bearer, type TestApp } from './app';

// The one way tests send GraphQL to an app in this process: gqlRequest for the raw HTTP
// exchange (status, headers), gql / gqlOk / gqlCode for the parsed answer of a TestApp.

export interface GqlBody {
  readonly query: string;
  readonly variables?: unknown;
  readonly operationName?: string;
}

/** POST /graphql to an Express app, with a token (`null` sends none). */
export function gqlRequest(http: Parameters<typeof request>[0], body: GqlBody, token: string | null): request.Test {
  let req = request(http).post('/graphql').set('Content-Type', 'application/json');
  if (token !== null) req = req.set(bearer(token));
  return req.send(JSON.stringify(body));
}

/**
 * A value of a GraphQL answer as the tests read it: walked into freely (data.customers.nodes[0].id),
 * its shape checked by the expectations, not by a type restating schema.graphql for every query.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above; test code only
export type Json = any;

export interface GqlResponse<T = Record<string, Json>> {
  status: number;
  data: T | null | undefined;
  errors: Array<{ message: string; path?: (string | number)[]; extensions: Record<string, Json> }> | undefined;
  text: string;
}

/** POST /graphql with a token (writer by default; `null` sends none). */
export async function gql<T = Record<string, Json>>(
  t: TestApp,
  query: string,
  variables?: Record<string, unknown>,
  token: string | null = t.tokens.writer,
): Promise<GqlResponse<T>> {
  const res = await gqlRequest(t.http, { query, variables }, token);
  const body = res.body as { data?: T | null; errors?: GqlResponse['errors'] };
  return { status: res.status, data: body.data, errors: body.errors, text: res.text };
}

/** The data of a response that must have no errors. */
export async function gqlOk<T = Record<string, Json>>(
  t: TestApp,
  query: string,
  variables?: Record<string, unknown>,
  token?: string,
): Promise<T> {
  const res = await gql<T>(t, query, variables, token);
  if (res.errors || res.status !== 200) throw new Error(`GraphQL errors (HTTP ${res.status}): ${JSON.stringify(res.errors)}`);
  return res.data as T;
}

/** The first error's code of a response that must fail. */
export async function gqlCode(t: TestApp, query: string, variables?: Record<string, unknown>, token?: string | null): Promise<string> {
  const res = await gql(t, query, variables, token === undefined ? t.tokens.writer : token);
  if (!res.errors?.length) throw new Error(`expected an error, got ${res.text}`);
  return res.errors[0]!.extensions.code as string;
}

/**
 * The fullest introspection request graphql-js writes (every stable option on), as an IDE such
 * as Apollo Sandbox sends it to load the schema and to poll it.
 */
export const IDE_INTROSPECTION = {
  query: getIntrospectionQuery({
    descriptions: true,
    specifiedByUrl: true,
    directiveIsRepeatable: true,
    schemaDescription: true,
    inputValueDeprecation: true,
    oneOf: true,
  }),
  operationName: 'IntrospectionQuery',
} as const;

/** An answer over real HTTP (an app listening on a port, as front-end clients reach it). */
export interface HttpAnswer {
  readonly status: number;
  readonly json: Json;
  readonly headers: Headers;
}

/** POST of one operation, or a batch (an array), to a GraphQL URL with a token. */
export async function postGraphql(url: string, body: unknown, token: string): Promise<HttpAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json(), headers: res.headers };
}

/** GET of a GraphQL URL with these parameters (objects as JSON) and a token. */
export async function getGraphql(url: string, params: Readonly<Record<string, unknown>>, token: string): Promise<HttpAnswer> {
  const search = new URLSearchParams(
    Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
  const res = await fetch(`${url}?${search.toString()}`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, json: await res.json(), headers: res.headers };
}

/** The automatic-persisted-query extension naming a document by its SHA-256 (hex). */
/** The hex SHA-256 of a document, as the APQ protocol names it (and Apollo Client's link asks for). */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export const apqExtension = (sha256Hash: string) => ({ persistedQuery: { version: 1, sha256Hash } });

/** The first error's code of a parsed answer. */
export const firstCode = (json: Json): unknown => json?.errors?.[0]?.extensions?.code;
