// Small helpers that every folder may use; they depend on nothing (.dependency-cruiser.cjs:
// lib-stands-alone).

/**
 * `compute` remembered for the last `size` distinct keys, for immutable values that a read
 * path makes again and again from the same text: all are forgotten at once when the memo is
 * full, so a hit costs one Map look-up and nothing else.
 */
export function memoized<K, V>(compute: (key: K) => V, size: number): (key: K) => V {
  const values = new Map<K, V>();
  return (key) => {
    let value = values.get(key);
    if (value === undefined) {
      if (values.size >= size) values.clear();
      values.set(key, (value = compute(key)));
    }
    return value;
  };
}
