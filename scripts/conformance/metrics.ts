/**
 * The conformance measures of ../shared/corpus/README.md: token-level F1 and heading recall
 * against the reference outputs of the production parser.
 */

/** Lower-cased word tokens: runs of letters and digits in any script. */
export function tokens(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0);
}

/** Multiset (bag-of-tokens) F1 of `ours` against `reference`; 1 when both are empty. */
export function tokenF1(ours: readonly string[], reference: readonly string[]): number {
  if (ours.length === 0 && reference.length === 0) return 1;
  if (ours.length === 0 || reference.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const t of reference) counts.set(t, (counts.get(t) ?? 0) + 1);
  let overlap = 0;
  for (const t of ours) {
    const n = counts.get(t) ?? 0;
    if (n > 0) {
      overlap++;
      counts.set(t, n - 1);
    }
  }
  if (overlap === 0) return 0;
  const precision = overlap / ours.length;
  const recall = overlap / reference.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Share of `reference` items found in `ours` (each reference item matched once). */
export function recall(ours: readonly string[], reference: readonly string[]): number {
  if (reference.length === 0) return 1;
  const available = new Map<string, number>();
  for (const t of ours) available.set(t, (available.get(t) ?? 0) + 1);
  let found = 0;
  for (const t of reference) {
    const n = available.get(t) ?? 0;
    if (n > 0) {
      found++;
      available.set(t, n - 1);
    }
  }
  return found / reference.length;
}

export function mean(xs: readonly number[]): number {
  return xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
