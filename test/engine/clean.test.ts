/** text.ts: the single-pass `clean` against the regex chain it replaces. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clean, isJsSpace } from '../../src/engine/text.js';

/** A character a joiner (U+200C/U+200D) may stand between and stay: the written rule of text.ts. */
const JOINS = /^[^\s\u0000-\u02ff\u2000-\u206f\ufeff]$/;
const joins = (ch: string | undefined): boolean => ch !== undefined && JOINS.test(ch);

/** The specification: the regex chain `clean` used to be, with the format characters dropped first. */
const reference = (text: string): string =>
  text
    .replace(/[\u00ad\u200b-\u200f\u2060\ufeff]/g, (m, at: number) =>
      (m === '\u200c' || m === '\u200d') && joins(text[at - 1]) && joins(text[at + 1]) ? m : '',
    )
    .replace(/\s+/g, ' ')
    .replace(/ ([,.;:!?%)\]])/g, '$1')
    .replace(/([(\[]) /g, '$1')
    .trim()
    .replace(/(^| )\(\)(?![\p{L}\p{N}])/gu, '')
    .trim();

/** Every JavaScript whitespace character, and the punctuation the rules look at, dense. */
const WHITESPACE = [...'\t\n\v\f\r \u00a0\u1680\u2000\u2005\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'];
/** The format characters `clean` drops or keeps, and letters joiners may join (Persian, emoji halves). */
const FORMAT = [...'\u00ad\u200b\u200c\u200d\u200e\u200f\u2060', 'ب', '\ud83d', '\udc68', '\ufe0f'];
const tricky = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...WHITESPACE, ...',.;:!?%)](['),
    fc.constantFrom(...FORMAT),
    fc.constantFrom('a', 'é', '1', '()', '\u0085', '\u180e'),
  ),
  maxLength: 40,
});

describe('clean()', () => {
  it('agrees with the regex chain on whitespace-, punctuation- and format-dense strings', () => {
    fc.assert(fc.property(tricky, (s) => clean(s) === reference(s)), { numRuns: 20_000 });
  });

  // fast-check's generator of arbitrary code points is slow (5 s for these runs on a loaded
  // machine, clean() itself takes 30 ms): the limit is raised, nothing is timed.
  it('agrees with the regex chain on arbitrary Unicode', { timeout: 60_000 }, () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (s) => clean(s) === reference(s)), { numRuns: 2_000 });
  });

  it('isJsSpace is exactly /\\s/ on the whole Basic Multilingual Plane', () => {
    for (let c = 0; c <= 0xffff; c++) {
      if (isJsSpace(c) !== /\s/.test(String.fromCharCode(c))) expect.fail(`U+${c.toString(16)}`);
    }
  });

  it('returns the very string when it needs no change', () => {
    const s = 'already clean (text), with one space.';
    expect(clean(s)).toBe(s);
    expect(clean('( a , b )  [ c ] \n')).toBe('(a, b) [c]');
  });
});

/** Each case is a value the corpus produced before the rule, written out from the HTML it came from. */
describe('clean(): invisible format characters', () => {
  it('drops the zero-width spaces {{marriage}} prints around its parenthesis (William_Shakespeare infobox)', () => {
    expect(clean('Anne Hathaway \u200b(m. 1582)\u200b')).toBe('Anne Hathaway (m. 1582)');
    expect(clean('Tatiana Kukanova \u200b \u200b(m. 1966; div. 1980)\u200b')).toBe('Tatiana Kukanova (m. 1966; div. 1980)');
  });

  it('drops soft hyphens inside words (Albert_Einstein: "Eine neue Be­stimm­ung")', () => {
    expect(clean('Eine neue Be\u00adstimm\u00adung der Mol\u00ade\u00adkül\u00addi\u00admen\u00adsi\u00adone')).toBe(
      'Eine neue Bestimmung der Moleküldimensione',
    );
  });

  it('drops the word joiner and a BOM, which is not a space here', () => {
    expect(clean('UTC\u2060±0')).toBe('UTC±0');
    expect(clean('a\ufeffb')).toBe('ab');
    expect(clean('\ufeffa \ufeff b')).toBe('a b');
  });

  it('drops direction marks (David_Cameron frwiki citations: "The Telegraph,\u200e 12 mars 2014")', () => {
    expect(clean('The Telegraph,\u200e 12 mars 2014')).toBe('The Telegraph, 12 mars 2014');
    expect(clean('a\u200fb')).toBe('ab');
  });

  it('drops joiners next to Latin text or punctuation ({{snd}} in Angela_Merkel: "1991‍–‍2000")', () => {
    expect(clean('state politics 1991\u200d–\u200d2000')).toBe('state politics 1991–2000');
    expect(clean('a\u200cb')).toBe('ab');
  });

  it('keeps joiners that are spelling (Persian ZWNJ) or glue an emoji sequence', () => {
    expect(clean('می\u200cخواهم')).toBe('می\u200cخواهم');
    const family = '\u{1F468}\u200d\u{1F469}\u200d\u{1F467}';
    expect(clean(family)).toBe(family);
  });
});

describe('clean(): empty parentheses a removed widget leaves', () => {
  it('drops them with the space before them', () => {
    expect(clean('[esˈpaɲa] ()), or the Kingdom of Spain')).toBe('[esˈpaɲa]), or the Kingdom of Spain');
    expect(clean('a memoir called Freedom ( ), with')).toBe('a memoir called Freedom, with');
    expect(clean('referred to as Merkelkinder ().')).toBe('referred to as Merkelkinder.');
    expect(clean('() text')).toBe('text');
  });

  it('keeps glued parentheses and ones a word follows', () => {
    expect(clean('C/370 iconv() Support')).toBe('C/370 iconv() Support');
    expect(clean('call ()x')).toBe('call ()x');
    expect(clean('(a)')).toBe('(a)');
  });
});
