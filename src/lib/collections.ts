// Small helpers over arrays, maps and records that every folder may use; they depend on
// nothing (.dependency-cruiser.cjs: lib-stands-alone).

/** Values by a key, each group in the order given. */
export function groupBy<T>(values: Iterable<T>, key: (value: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const v of values) {
    const k = key(v);
    const list = groups.get(k);
    if (list) list.push(v);
    else groups.set(k, [v]);
  }
  return groups;
}

/**
 * A record with an entry per item, under the key `key` gives it, typed by those keys.
 * Object.fromEntries types its result by `string`; here every key the type names comes from
 * an item, which is what the one assertion says.
 */
export function recordBy<T, const K extends string, V>(items: Iterable<T>, key: (item: T) => K, value: (item: T) => V): Record<K, V> {
  const out: Partial<Record<K, V>> = {};
  for (const item of items) out[key(item)] = value(item);
  return out as Record<K, V>;
}

/** A record with one entry per key, typed by the keys. */
export const recordOf = <const K extends string, V>(keys: Iterable<K>, value: (key: K) => V): Record<K, V> =>
  recordBy(keys, (k) => k, value);

/** Whether `value` is one of `list` (a type guard over a list of literals). */
export const isOneOf = <const T extends string>(list: readonly T[], value: string): value is T => list.some((item) => item === value);
