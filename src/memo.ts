/**
 * A get-or-build cache for pure results reused across requests (key names, sending plans, Paris
 * days): past `max` entries it starts again, so memory stays bounded without bookkeeping per entry.
 * Not for state: what it holds can always be built again from its key.
 */
export function boundedMemo<K, V>(max: number): (key: K, build: () => V) => V {
  const cache = new Map<K, V>();
  return (key, build) => {
    let value = cache.get(key);
    if (value === undefined) {
      if (cache.size >= max) cache.clear();
      value = build();
      cache.set(key, value);
    }
    return value;
  };
}
