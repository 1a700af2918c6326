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
 * A record with one entry per key, typed by the keys. Object.fromEntries types its result by
 * `string`; here the entries are exactly one per key of `keys`, which is what the type says.
 */
export function recordOf<const K extends string, V>(keys: Iterable<K>, value: (key: K) => V): Record<K, V> {
  const out: Partial<Record<K, V>> = {};
  for (const k of keys) out[k] = value(k);
  return out as Record<K, V>;
}

/** Whether `value` is one of `list` (a type guard over a list of literals). */
export const isOneOf = <const T extends string>(list: readonly T[], value: string): value is T => list.some((item) => item === value);
