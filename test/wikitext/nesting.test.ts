/**
 * The wikitext parser's guard (src/engine/wikitext/nesting.ts): every construct that nests, or
 * repeats, costs time linear in the input, measured as the HTML side does (test/engine/nesting
 * .test.ts): CPU(4n) / CPU(n) under 8, where quadratic is 16. Before the guard, unclosed `<ref>`,
 * unclosed external links and headings were quadratic (500 KB of `<ref>` took 9 s); many tables in
 * one section were too (their identifiers were numbered from 1 each time, table/build.ts), and a
 * row of many `||` cells (wikiparser-node computed a cell's kind from the cell before it at every
 * read: 4,000 cells took 22 s; our syntax tree computes it once, syntax/tokens/table.ts).
 */
import { parseWikitextTree } from '../../src/engine/wikitext/syntax/parse.js';
import { parserConfig } from '../../src/engine/wikitext/tree.js';
import { wikiProfile } from '../../src/engine/wiki/profile.js';
import { describe, expect, it } from 'vitest';
import { parseWikitext } from '../../src/index.js';
import { GUARD_LIMITS, guardedParse, parserWork, topLevelHeadings } from '../../src/engine/wikitext/nesting.js';
import { parseTree } from '../../src/engine/wikitext/tree.js';
import { cpuRatio } from '../support/cpu-ratio.js';

/**
 * Each construct, `k` times: wide (siblings), deep (nested) or long (one unclosed run). Those the
 * library parses slowly even when linear (tables, headings, nested elements: 10–20 µs a byte) are
 * timed at 10 and 40 KB rather than 25 and 100 KB, to keep the suite short.
 */
/**
 * Quadratic only where the text is long (flattening a rope of a few KB is cheap): these are timed
 * at the sizes given and 4× them, where the quadratic code measured 40× (at 25 KB it passed too).
 */
const LONG = new Map([['superscripts in one paragraph', 250_000], ['list markers in a template parameter', 100_000], ['templates each on its own line', 100_000], ['items of a list template', 100_000], ['empty text templates between words', 100_000]]);
const SLOW = new Set(['sections', 'headings in one long line of text', 'nested <div>', 'nested templates', 'nested links', 'many tables', 'many table rows and cells', 'one row of many cells', 'many named references', 'nested -{']);
const CONSTRUCTS: Record<string, (k: number) => string> = {
  'unclosed <ref>': (k) => '<ref>a '.repeat(k),
  'unclosed <ref with attributes': (k) => '<ref name=a '.repeat(k),
  'nested <ref>': (k) => `${'<ref>'.repeat(k)}a${'</ref>'.repeat(k)}`,
  'unclosed <nowiki>, <pre>, <poem>, <math>, <gallery>': (k) => '<nowiki>a<pre>b<poem>c<math>d<gallery>e'.repeat(k),
  'unclosed <includeonly>/<noinclude> attributes': (k) => '<noinclude a <includeonly b '.repeat(k),
  'unclosed external links': (k) => '[http://example.org/a text '.repeat(k),
  'headings': (k) => '= a =\n'.repeat(k),
  'sections': (k) => '== a ==\nb\n'.repeat(k),
  'headings in one long line of text': (k) => `${'x'.repeat(k)}\n${'= a =\n'.repeat(k)}`,
  'triple braces': (k) => '{{{a}}}\n'.repeat(k),
  'quadruple braces': (k) => '{{{{a}}}}'.repeat(k),
  'nested -{': (k) => `${'-{'.repeat(k)}a${'}-'.repeat(k)}`,
  'nested <div>': (k) => `${'<div>'.repeat(k)}a${'</div>'.repeat(k)}`,
  'unclosed <span>': (k) => '<span>a'.repeat(k),
  'deep list markers': (k) => `${'*#:'.repeat(k)} a\n`,
  'nested templates': (k) => `${'{{a|'.repeat(k)}x${'}}'.repeat(k)}`,
  'nested links': (k) => `${'[[a|'.repeat(k)}x${']]'.repeat(k)}`,
  'many tables': (k) => '{|\n|a\n|}\n'.repeat(k),
  'many table rows and cells': (k) => `{|\n${'|-\n|a||b\n'.repeat(k)}|}\n`,
  'one row of many cells': (k) => `{|\n|-\n| a${' || b'.repeat(k)}\n|}\n`,
  'unclosed comments and quotes': (k) => "<!--a ''b'''c ".repeat(k),
  'many named references': (k) => `a<ref name="r">body</ref>${'<ref name="r"/>'.repeat(k)}\n<references/>`,
  'paragraphs': (k) => 'a\n\n'.repeat(k),
  // Rendered text: each question about its end (a superscript's caret, a list marker's separator)
  // once read the whole text of the paragraph, flattening its rope: 80,000 <sup>s took 15 s.
  'superscripts in one paragraph': (k) => `a${' <sup>2</sup>'.repeat(k)}`,
  'list markers in a template parameter': (k) => `a {{nowrap|${'\n* item'.repeat(k)}}}`,
  // A node's siblings come from its place in its parent, not a search of the parent's children.
  'templates each on its own line': (k) => '{{x}}\n'.repeat(k),
  // A text rule's empty item or empty template was taken back by slicing the text, flattening it.
  'items of a list template': (k) => `a {{ubl${'|item'.repeat(k)}}}`,
  'empty text templates between words': (k) => `a${' two words {{nowrap}}'.repeat(k)}`,
};

/** `k` such that the construct makes about `bytes` of text. */
function sized(make: (k: number) => string, bytes: number): string {
  const per = make(64).length / 64;
  return make(Math.max(1, Math.round(bytes / per)));
}

describe('parseWikitext time is linear in the input, whatever nests or repeats', () => {
  it.each(Object.entries(CONSTRUCTS))('%s', { timeout: 120_000, retry: 2 }, (name, make) => {
    const bytes = SLOW.has(name) ? 10_000 : (LONG.get(name) ?? 25_000);
    const ratio = cpuRatio((text: string) => parseWikitext(text), sized(make, bytes), sized(make, 4 * bytes));
    expect(ratio, `time(${(4 * bytes) / 1000} KB) / time(${bytes / 1000} KB) = ${ratio.toFixed(2)}`).toBeLessThan(8);
  });
});

describe('the guard (nesting.ts)', () => {
  it('reads 500 KB of unclosed <ref> as plain text, text kept, instead of scanning it 80,000 times', () => {
    const text = 'a <ref>b '.repeat(60_000);
    expect(parserWork(text).scanned).toBeGreaterThan(GUARD_LIMITS.scanPerByte * text.length);
    expect(parseTree(text), 'not handed to the parser').toBeUndefined();
    const article = parseWikitext(text);
    expect(article.abstract, 'the plain-text fallback (wikitext/index.ts): markup characters become spaces').toMatch(/^a ref b a ref b /);
  });

  it('leaves a page with a few stray tags and links to the parser', () => {
    const text = `Lead <ref>never closed\n\n== One ==\nText [http://example.org unclosed\n\n${'Body [[link]] text.\n\n'.repeat(2000)}`;
    expect(parserWork(text).scanned).toBeLessThan(GUARD_LIMITS.scanPerByte * text.length);
    const article = parseWikitext(text);
    expect(article.sections.map((s) => s.name)).toEqual(['abstract', 'One']);
  });

  it('counts what the library would scan, not what it would not', () => {
    expect(parserWork('<ref name="a"/>'.repeat(1000)).scanned, 'self-closing tags end at their own >').toBeLessThan(20_000);
    expect(parserWork('<ref>a</ref>'.repeat(1000)).scanned, 'closed tags end at their closing tag').toBeLessThan(20_000);
    expect(parserWork('<refx>a'.repeat(1000)).scanned, 'not an extension tag').toBe(0);
    expect(parserWork('[http://a.b text]'.repeat(1000)).scanned, 'closed links').toBeLessThan(20_000);
    expect(parserWork('[http://a.b text\n'.repeat(1000)).scanned, 'a link ends at its line').toBeLessThan(20_000);
    expect(parserWork('<ref>a '.repeat(1000)).scanned, 'each unclosed tag scans to the end').toBeGreaterThan(1000 * 1000 * 3);
  });

  it('finds the headings outside brackets, comments and extension tags', () => {
    const text = '== A ==\nx\n== B ==\n{{t|\n== in template ==\n}}\n<!--\n== in comment ==\n-->\n<ref name="a"/>\n<ref>\n== in ref ==\n</ref>\n== C ==\n';
    const found = topLevelHeadings(text).map((at) => text.slice(at, text.indexOf('\n', at)));
    expect(found, 'the first is no cut: nothing is before it').toEqual(['== B ==', '== C ==']);
  });

  it('cuts a page of many headings into pieces whose tree is the one of the whole page', () => {
    const section = (i: number): string =>
      `== Section ${i} ==\nText with [[link ${i}]], {{template|a=${i}}} and a note.<ref name="n${i % 7}">Note ${i}</ref>\n* item\n** sub\n{|\n|-\n! h\n| c ${i}\n|}\n<!-- comment ${i} -->\n`;
    const text = `Lead.\n${Array.from({ length: 600 }, (_, i) => section(i)).join('')}\n== References ==\n<references/>\n`;
    expect(parserWork(text).events.length).toBeGreaterThan(GUARD_LIMITS.wholeEvents);
    const parse = (t: string) => parseWikitextTree(t, parserConfig(wikiProfile()));
    const whole = guardedParse(text, parse, { ...GUARD_LIMITS, wholeEvents: Number.POSITIVE_INFINITY })!;
    const cut = guardedParse(text, parse)!;
    expect(String(cut)).toBe(text);
    const shape = (root: typeof whole): string[] => {
      const out: string[] = [];
      const stack = [root as { type: string; childNodes: readonly unknown[] }];
      while (stack.length > 0) {
        const n = stack.pop()!;
        out.push(n.type);
        for (let i = n.childNodes.length - 1; i >= 0; i--) stack.push(n.childNodes[i] as typeof n);
      }
      return out;
    };
    expect(shape(cut)).toEqual(shape(whole));
    expect(cut.childNodes.length).toBe(whole.childNodes.length);
  });

  it('reads the page as plain text when no cut keeps a piece small enough', () => {
    const text = `{{unclosed template\n${'== A ==\nb\n'.repeat(GUARD_LIMITS.wholeEvents + 1)}`;
    expect(guardedParse(text, (t) => parseWikitextTree(t, parserConfig(wikiProfile())))).toBeUndefined();
    expect(parseWikitext(text).sections).toHaveLength(1);
  });
});
