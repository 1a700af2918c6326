// Reading values whose type is unknown without asserting one: what `catch (e)` gives (Node's
// and the drivers' Errors carry extra properties: `code`, `syscall`, `cause`), a parsed JSON
// document, a record as an import file holds it.

/** The message of a thrown value: an Error's, or the value as text. */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A string property of a value (an error's `code` or `syscall`, a record's `id`), if it has one. */
export function stringProp(e: unknown, name: string): string | undefined {
  const value = propOf(e, name);
  return typeof value === 'string' ? value : undefined;
}

/** Node's error code of a failed system call (`ENOENT`, `EEXIST`, ...), if the value is such an error. */
export const errnoCode = (e: unknown): string | undefined => stringProp(e, 'code');

/** A property of a value (an error's `cause`, a driver's `meta`, a document's field), if it is an object. */
export const propOf = (e: unknown, name: string): unknown => (typeof e === 'object' && e !== null ? Reflect.get(e, name) : undefined);
