// What src/db/pooler.ts assumes of node-postgres (pg 8) and of how @prisma/adapter-pg 7 calls
// it, beyond their documented API, in one place. test/tooling/library-internals.test.ts holds
// each assumption to the installed packages, so an upgrade that breaks one fails that test;
// the versions are pinned exactly in package.json.

import type { QueryConfig } from 'pg';
import { propOf } from '../lib/unknown';

/** A statement as a QueryConfig: `text` and maybe values and a name. */
export const isQueryConfig = (v: unknown): v is QueryConfig => typeof propOf(v, 'text') === 'string';

/** The text of query()'s first argument, in any of its forms (a string, a QueryConfig, a Submittable). */
export const statementText = (arg: unknown): string | undefined =>
  typeof arg === 'string' ? arg : isQueryConfig(arg) ? arg.text : undefined;

/**
 * 1. The adapter opens an interactive transaction with a bare `BEGIN` through the client's
 *    query(), as text or as a QueryConfig without values, and sends the transaction's
 *    statements through the same client.
 */
export const isBareBegin = (text: string): boolean => /^\s*BEGIN\s*;?\s*$/i.test(text);

/**
 * 2. The adapter sends a statement outside a transaction as pool.query(config): one
 *    QueryConfig, a promise back. The pool's own callers and other libraries use the other
 *    forms (a callback, a Submittable, values apart), which pass through untouched.
 */
export const isAdapterStatement = (args: readonly unknown[]): args is [QueryConfig] =>
  args.length === 1 && isQueryConfig(args[0]) && typeof propOf(args[0], 'submit') !== 'function';

/**
 * 3. A Pool makes its clients with the `Client` class of its config, which may be a subclass
 *    overriding query(); query() has a dozen overloads, so an override passes its arguments
 *    on as they came (`passOn`, to the bound query() it overrides), whatever they are.
 */
export const passOn = (query: (...args: never[]) => unknown, args: readonly unknown[]): unknown => Reflect.apply(query, undefined, args);
