/**
 * A memo whose keys come from page content (template names, link bases, languages): emptied when
 * it reaches `limit`, so a stream of made-up keys costs recomputation, never memory. `compute`
 * should be a module-level function: a fresh arrow per call would allocate on the hot path the
 * memo is there to spare.
 */
export function memoized<K, V>(memo: Map<K, V>, limit: number, key: K, compute: (key: K) => V): V {
  const known = memo.get(key);
  // One lookup on a hit; `has` only for a value that is itself undefined.
  if (known !== undefined || memo.has(key)) return known as V;
  const value = compute(key);
  if (memo.size >= limit) memo.clear();
  memo.set(key, value);
  return value;
}
