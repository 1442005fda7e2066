/**
 * The Range request header of a download (RFC 9110 §14.2), for one byte range: `bytes=0-499`,
 * `bytes=500-`, `bytes=-500` (the last 500). Enterprise clients fetch a snapshot in parallel
 * pieces this way. A server may ignore Range, and this one does for what it does not serve: a
 * header it cannot read, another unit, or several ranges (the whole file is sent, 200).
 */
export type RangeAnswer =
  /** Send the whole file (200). */
  | { kind: 'full' }
  /** Send bytes start..end inclusive (206). */
  | { kind: 'partial'; start: number; end: number }
  /** No byte of the range exists (416). */
  | { kind: 'unsatisfiable' };

const SINGLE = /^bytes=(\d*)-(\d*)$/i;

export function rangeOf(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: 'full' };
  const match = SINGLE.exec(header.replace(/[ \t]/g, ''));
  if (match === null) return { kind: 'full' };
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    // A suffix: the last N bytes (all of them when N exceeds the size).
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (last !== '' && end < start) return { kind: 'full' }; // not a valid range: ignored
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}

/**
 * Whether a Range may be honoured given If-Range (RFC 9110 §13.1.5): only when it names the
 * current representation, by strong entity tag or by its exact Last-Modified date. Otherwise the
 * client's other pieces are of another version, and it gets the whole current file instead.
 */
export function ifRangeHolds(ifRange: string | undefined, etag: string, lastModified: string): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag; // weak tags never match
  return value === lastModified;
}
