// What a caught value says, read without assuming its type: `catch (e)` gives `unknown`, and
// code of ours, Node's and the drivers' throws Errors with extra properties (`code`, `syscall`).

/** The message of a thrown value: an Error's, or the value as text. */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A string property of a thrown value (Node's `code` and `syscall`, a driver's `code`), if it has one. */
export function stringProp(e: unknown, name: string): string | undefined {
  const value = propOf(e, name);
  return typeof value === 'string' ? value : undefined;
}

/** Node's error code of a failed system call (`ENOENT`, `EEXIST`, ...), if the value is such an error. */
export const errnoCode = (e: unknown): string | undefined => stringProp(e, 'code');

/** A property of a thrown value (an error's `cause`, a driver's `meta`), if it is an object. */
export const propOf = (e: unknown, name: string): unknown => (typeof e === 'object' && e !== null ? Reflect.get(e, name) : undefined);
