/**
 * Cleaning of rendered text, the innermost step of every value the engine emits (both front doors
 * call `clean`).
 *
 * `clean` is the single-pass form of this regex chain, which states what it does:
 *
 *   text.replace(ZERO_WIDTH, '')               drop invisible format characters (see `isDropped`)
 *       .replace(/\s+/g, ' ')                  collapse whitespace runs
 *       .replace(/ ([,.;:!?%)\]])/g, '$1')      no space before closing punctuation
 *       .replace(/([(\[]) /g, '$1')             no space after an opening bracket
 *       .trim()
 *   then `dropEmptyParentheses`.
 *
 * The chain scanned each value four times and built three intermediate strings; `clean` finds
 * the few places that may change with one regex (`SPOTS`), reads only those character by
 * character and, for text that needs no change, returns its input. test/engine/clean.test.ts
 * checks the two agree on arbitrary strings.
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

/**
 * Invisible format characters that carry no text: zero-width space U+200B (a line-break hint
 * templates such as {{marriage}} print: "Anne Hathaway \u200b(m. 1582)\u200b"), word joiner
 * U+2060 ("UTC\u2060±0"), zero-width no-break space / BOM U+FEFF, soft hyphen U+00AD (a
 * hyphenation hint: "Be\u00adstimm\u00adung" is the word "Bestimmung"), and the direction marks
 * U+200E/U+200F (frwiki's citation templates put an LRM after the periodical's name; in the LTR
 * languages the corpus holds they change nothing, and in a plain-text value they only break exact
 * matching; the one thing they do, steer the display of mixed-direction text, is the consumer's
 * renderer's job). Joiners U+200C/U+200D are spelling in Persian and Indic scripts ("می\u200cخواهم")
 * and glue emoji sequences, so they are dropped only where they do not join two such characters:
 * next to ASCII, Latin, punctuation or a space ("1991\u200d–\u200d2000" from {{snd}}).
 * `i` is the position of `c` in `text` (joiners look at their neighbours).
 */
export function isDropped(text: string, i: number, c: number): boolean {
  if (c === 0xad) return true;
  if (c < 0x200b) return false;
  if (c === 0x200b || c === 0x2060 || c === 0xfeff || c === 0x200e || c === 0x200f) return true;
  if (c === 0x200c || c === 0x200d) return !(joins(text.charCodeAt(i - 1)) && joins(text.charCodeAt(i + 1)));
  return false;
}

/** A character a joiner can stand between as spelling: not ASCII/Latin-1/Latin Extended, punctuation, space or format. */
function joins(c: number): boolean {
  // charCodeAt past either end is NaN: every comparison is false, so nothing joins there.
  return c >= 0x300 && !(c >= 0x2000 && c <= 0x206f) && c !== 0xfeff && !isJsSpace(c);
}

/**
 * Neither space nor dropped: printable ASCII, Latin, Greek, Cyrillic, Hebrew, Arabic, Indic…
 * (below U+1680, the first space past Latin-1) and CJK (past U+3000); most text is. False for NaN
 * (charCodeAt past the end).
 */
function isPlain(c: number): boolean {
  return (c > 32 && c < 0x1680 && c !== 0xa0 && c !== 0xad) || (c > 0x3000 && c < 0xfeff);
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
 * Drops invisible format characters, collapses whitespace to single spaces and removes the spaces
 * that element boundaries leave before closing and after opening punctuation ("word ." → "word.",
 * "( x )" → "(x)"), a known flaw of the reference parser; trims both ends; then drops the empty
 * parentheses removed widgets leave (`dropEmptyParentheses`).
 */
export function clean(text: string): string {
  // Four values in five have no spot (the corpus's 150,000 per pass): the regex engine says so at
  // a fifth of the cost of the loop below, which reads every character through charCodeAt.
  SPOTS.lastIndex = 0;
  if (!SPOTS.test(text)) return text.includes('()') ? dropEmptyParentheses(text) : text;
  let spotEnd = SPOTS.lastIndex;
  const n = text.length;
  let out = '';
  /** Start of the input not yet copied to `out`. */
  let from = 0;
  /** The last character kept, -1 before the first. */
  let prev = -1;
  let i = 0;
  for (;;) {
    // The characters before the spot stay as they are: the regex engine passes over them about
    // five times faster than this loop reads them, and paragraphs hold few spots. A spot is one
    // or two characters long, so the loop may start early, never late; a run of spaces before a
    // spot is read from its first space.
    let start = Math.max(i, spotEnd - 2);
    while (start > i && text.charCodeAt(start - 1) === 32) start--;
    if (start > i) {
      prev = text.charCodeAt(start - 1);
      i = start;
    }
    while (i < spotEnd) {
      const c = text.charCodeAt(i);
      // Most text stays here.
      if (isPlain(c)) {
        prev = c;
        i++;
        continue;
      }
      // One plain space between words, the next character plain too: it stays as it is. The
      // common case of the slow path below, taken with both characters at once.
      if (c === 32 && prev !== -1 && !opensSpace(prev)) {
        const d = text.charCodeAt(i + 1);
        if (isPlain(d) && !closesSpace(d)) {
          prev = d;
          i += 2;
          continue;
        }
      }
      // U+FEFF is JavaScript whitespace but a format character in text: dropped, not a space.
      const space = c !== 0xfeff && isJsSpace(c);
      if (!space && !isDropped(text, i, c)) {
        prev = c;
        i++;
        continue;
      }
      // A run of whitespace and dropped characters: one space if it holds whitespace, else nothing.
      let sawSpace = space;
      let end = i + 1;
      while (end < n) {
        const d = text.charCodeAt(end);
        if (d !== 0xfeff && isJsSpace(d)) sawSpace = true;
        else if (!isDropped(text, end, d)) break;
        end++;
      }
      const keep = sawSpace && prev !== -1 && end < n && !opensSpace(prev) && !closesSpace(text.charCodeAt(end));
      // A single plain space that stays is already what the output needs: nothing to copy yet.
      if (!(keep && c === 32 && end === i + 1)) {
        out += keep ? `${text.slice(from, i)} ` : text.slice(from, i);
        from = end;
      }
      i = end;
    }
    if (i >= n) break;
    // A spot can start at the bracket before `i` ("( x"): the loop read the bracket, not the space.
    SPOTS.lastIndex = opensSpace(text.charCodeAt(i - 1)) ? i - 1 : i;
    if (!SPOTS.test(text)) break;
    spotEnd = SPOTS.lastIndex;
  }
  const cleaned = from === 0 ? text : out + text.slice(from);
  return cleaned.includes('()') ? dropEmptyParentheses(cleaned) : cleaned;
}

/**
 * Where `clean` has work, but for "()" (`dropEmptyParentheses`, looked for apart): whitespace other
 * than U+0020 and the dropped format characters (`isDropped`, with the other bidi controls
 * U+202A–U+202E among them), a space at either end, before another space or closing punctuation,
 * or after an opening bracket. Between two spots every character is kept as it is.
 */
const SPOTS = /[\t-\r\u00a0\u00ad\u1680\u2000-\u200f\u2028-\u202f\u205f\u2060\u3000\ufeff]|^ | $| [ ,.;:!?%)\]]|[(\[] /g;

/** What `clean` may change, over-approximated: text without any of it is returned as it is. */
export const MAY_CHANGE = new RegExp(`${SPOTS.source}|\\(\\)`);

/**
 * Empty parentheses after a space are what is left of a removed widget: an audio link
 * ("[esˈpaɲa] (listen)" is markup `(<span class="haudio">…</span>)`, and the span is noise) or a
 * template with nothing to print ("Freedom ({{lang|de|…}})" on the wikitext path). They go with
 * the space before them. Glued parentheses stay ("iconv()"), as do ones followed by a word
 * character, with or without a superscript caret between: the caret must not decide, so "()^0"
 * stays as "()0" does, and "()^−a" goes with its caret as "()−a" goes. Known loss: an article
 * that writes the literal "()" after a space (a programming language's unit value) loses it; no
 * article of the corpus does.
 */
function dropEmptyParentheses(text: string): string {
  const out = text.replace(EMPTY_PARENTHESES, '');
  return out.length === text.length ? text : out.trim();
}
const EMPTY_PARENTHESES = /(?:^| )\(\)(?:\^(?![\p{L}\p{N}])|(?![\p{L}\p{N}^]))/gu;

/**
 * A text built by appending pieces (a rope, as V8 builds it from `+=`), with its last two UTF-16
 * code units kept apart (-1 when there is none). Reading the end of a rope flattens it, copying
 * the whole text: asked once per superscript or reference marker, that made long paragraphs
 * quadratic (80,000 `<sup>`s in one paragraph of wikitext: 15 s). Both doors' inline text write
 * through one (inline.ts, wikitext/render.ts).
 */
export class TextRope {
  text = '';
  last = -1;
  beforeLast = -1;
  /**
   * The rope as it was before the last piece, and that piece ('' when unknown): `dropLast` cuts
   * its last code unit from the piece alone, where slicing the text would flatten all of it.
   */
  private before = '';
  private beforeEnd = -1;
  private beforeEndLast = -1;
  private piece = '';

  append(piece: string): void {
    const n = piece.length;
    if (n === 0) return;
    this.before = this.text;
    this.beforeEnd = this.last;
    this.beforeEndLast = this.beforeLast;
    this.piece = piece;
    this.text += piece;
    this.beforeLast = n > 1 ? piece.charCodeAt(n - 2) : this.last;
    this.last = piece.charCodeAt(n - 1);
  }

  /**
   * Takes back the last code unit (a "[" whose pair held only dropped content, inline.ts). From
   * the last piece when it is known, so that a paragraph of 20,000 "[<dropped/>]" stays linear
   * (slicing the text flattened the whole paragraph each time: 4.7 s); from the text otherwise.
   */
  dropLast(): void {
    const piece = this.piece;
    if (piece === '') {
      this.replaceText(this.text.slice(0, -1));
      return;
    }
    this.text = this.before;
    this.last = this.beforeEnd;
    this.beforeLast = this.beforeEndLast;
    this.piece = '';
    this.append(piece.slice(0, -1));
  }

  /** Rare (a piece taken back): reads the new end from the text itself. */
  replaceText(text: string): void {
    const n = text.length;
    this.text = text;
    this.last = n > 0 ? text.charCodeAt(n - 1) : -1;
    this.beforeLast = n > 1 ? text.charCodeAt(n - 2) : -1;
    this.piece = '';
  }

  /**
   * What `write` appends, as a text of its own, the rope left as it was: the caller appends it or
   * not. Slicing it back out of the rope instead flattens the whole text every time (quadratic in
   * the links of a paragraph), and each slice keeps its flat copy alive: 4,000 links in 0.5 MB held
   * 1.9 GB of heap (fuzz finding).
   */
  apart(write: () => void): string {
    const { text, last, beforeLast } = this;
    this.replaceText('');
    write();
    const inner = this.text;
    this.text = text;
    this.last = last;
    this.beforeLast = beforeLast;
    this.piece = '';
    return inner;
  }

  /** The last two code units: the last character even when it is astral. */
  end(): string {
    return (this.beforeLast < 0 ? '' : String.fromCharCode(this.beforeLast)) + (this.last < 0 ? '' : String.fromCharCode(this.last));
  }
}

/** A superscript that reads as an exponent: it starts with a digit or a sign. */
const NUMERIC_START = /^[0-9+\-−]/;
/** What an exponent is written after: a letter, a digit, or a closing bracket ("(a+b)^2"). */
const EXPONENT_BASE = /[\p{L}\p{N})\]]$/u;

/**
 * Whether a superscript starting with `sup` after the text `before` is written with a caret
 * ("km^2", "10^3", "6:7^7"): glued on it would read as another number ("km2", "6:77"); ordinals
 * ("1<sup>er</sup>") stay glued. One rule for both doors (docs/conformance.md).
 */
export function readsAsExponent(before: string, sup: string): boolean {
  // The last two code units hold the last character even when it is astral; testing the whole
  // text would scan it from the start for each superscript.
  return EXPONENT_BASE.test(before.slice(-2)) && NUMERIC_START.test(sup.trimStart());
}
