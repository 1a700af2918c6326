import { getIntrospectionQuery } from 'graphql';
import request from 'supertest';
import type { TestApp } from '../support/app';

export interface GqlResponse<T = Record<string, any>> {
  status: number;
  data: T | null | undefined;
  errors: Array<{ message: string; path?: (string | number)[]; extensions: Record<string, any> }> | undefined;
  text: string;
}

/** POST /graphql with a token (writer by default; `null` sends none). */
export async function gql<T = Record<string, any>>(
  t: TestApp,
  query: string,
  variables?: Record<string, unknown>,
  token: string | null = t.tokens.writer,
): Promise<GqlResponse<T>> {
  let req = request(t.http).post('/graphql').set('Content-Type', 'application/json');
  if (token !== null) req = req.set('Authorization', `Bearer ${token}`);
  const res = await req.send(JSON.stringify({ query, variables }));
  const body = res.body as { data?: T | null; errors?: GqlResponse['errors'] };
  return { status: res.status, data: body.data, errors: body.errors, text: res.text };
}

/** The data of a response that must have no errors. */
export async function gqlOk<T = Record<string, any>>(t: TestApp, query: string, variables?: Record<string, unknown>, token?: string): Promise<T> {
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
  query: getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true }),
  operationName: 'IntrospectionQuery',
} as const;
