/**
 * Whitespace cleaning of rendered text, the innermost step of every value the engine emits.
 *
 * `clean` is the single-pass form of this regex chain, which states what it does:
 *
 *   text.replace(/\s+/g, ' ')                  collapse whitespace runs
 *       .replace(/ ([,.;:!?%)\]])/g, '$1')      no space before closing punctuation
 *       .replace(/([(\[]) /g, '$1')             no space after an opening bracket
 *       .trim()
 *
 * The chain scanned each value four times and built three intermediate strings; the loop scans
 * once and, for text that needs no change, returns its input. test/engine/clean.test.ts checks
 * the two agree on arbitrary strings.
 */

/** JavaScript's `\s`: ECMAScript WhiteSpace and LineTerminator code points. */
export function isJsSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** `, . ; : ! ? % ) ]`: no space before these. */
function closesSpace(c: number): boolean {
  return c === 44 || c === 46 || c === 59 || c === 58 || c === 33 || c === 63 || c === 37 || c === 41 || c === 93;
}

/** `( [`: no space after these. */
function opensSpace(c: number): boolean {
  return c === 40 || c === 91;
}

/**
 * Collapses whitespace to single spaces and removes the spaces that element boundaries leave
 * before closing and after opening punctuation ("word ." → "word.", "( x )" → "(x)"), a known
 * flaw of the reference parser; trims both ends.
 */
export function clean(text: string): string {
  const n = text.length;
  let out = '';
  /** Start of the input not yet copied to `out`. */
  let from = 0;
  /** The last character kept, -1 before the first. */
  let prev = -1;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (!isJsSpace(c)) {
      prev = c;
      i++;
      continue;
    }
    let end = i + 1;
    while (end < n && isJsSpace(text.charCodeAt(end))) end++;
    const keep = prev !== -1 && end < n && !opensSpace(prev) && !closesSpace(text.charCodeAt(end));
    // A single plain space that stays is already what the output needs: nothing to copy yet.
    if (!(keep && c === 32 && end === i + 1)) {
      out += keep ? `${text.slice(from, i)} ` : text.slice(from, i);
      from = end;
    }
    i = end;
  }
  return from === 0 ? text : out + text.slice(from);
}
