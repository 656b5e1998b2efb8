/**
 * Keeps `value` under `key` in a map an instance keeps between requests,
 * emptied first when it holds `limit` other keys already: what an instance
 * remembers (ADR 0020) stays bounded however many sessions, users or
 * connections pass through it, and is simply read again after.
 */
export const remember = <K, V>(map: Map<K, V>, key: K, value: V, limit: number): V => {
  if (map.size >= limit && !map.has(key)) map.clear();
  map.set(key, value);
  return value;
};
