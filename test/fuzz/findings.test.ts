/**
 * What `npm run fuzz` found, kept as plain regression tests: each case is the smallest input
 * that showed the fault, with the fault named.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ArticleSchema, parse, parseWikitext } from '../../src/index.js';
import type { Article } from '../../src/index.js';

function valid(article: Article): Article {
  const check = ArticleSchema.safeParse(article);
  expect(check.success, check.success ? '' : JSON.stringify(check.error.issues[0])).toBe(true);
  return article;
}

describe('integers beyond 2^53 in attributes are no value, not an invalid Article', () => {
  it.each([
    ['an image width', '<figure typeof="mw:File"><img src="//upload.wikimedia.org/x.jpg" width="99999999999999999999" height="5"></figure>'],
    ['the revision in <html about>', '<html about="https://en.wikipedia.org/wiki/Special:Redirect/revision/99999999999999999999"><body><p>x</p></body></html>'],
    ['mw.config ids of a rendered page', '<html><head><script>RLCONF={"wgArticleId":99999999999999999999,"wgRevisionId":99999999999999999999};</script></head><body><div class="mw-parser-output"><p>x</p></div></body></html>'],
  ])('%s', (_, html) => {
    const article = valid(parse(html));
    expect(article.identifier, 'no page id').toBeUndefined();
    expect(article.version, 'no revision').toBeUndefined();
  });
});

/**
 * Heap held after parsing, with the Article still alive. Link texts used to be slices of the
 * paragraph's whole text, each keeping its own flattened copy alive; a 5 MB mutated page killed
 * the fuzzer's worker. Fixed, these inputs hold 2 and 6 MB; before, 0.9 and 1.0 GB.
 */
function heapHeldBy(run: () => Article): { article: Article; heldMb: number } {
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const article = run();
  collectGarbage();
  return { article, heldMb: (process.memoryUsage().heapUsed - before) / 1e6 };
}

/** A full collection, so that heap figures count what is held, not garbage of earlier tests. */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

describe('a long paragraph with thousands of links', () => {
  const LINKS = 4000;

  it('HTML: link texts do not each hold a copy of the paragraph', () => {
    const html = `<html><head><base href="//en.wikipedia.org/wiki/"></head><body><p>${`<a href="./X">a longer link text</a> ${'filler text '.repeat(8)}`.repeat(LINKS)}</p></body></html>`;
    const { article, heldMb } = heapHeldBy(() => parse(html));
    expect(valid(article).sections[0]?.has_parts?.[0]?.links).toHaveLength(LINKS);
    expect(heldMb, 'heap held after parsing 0.5 MB').toBeLessThan(100);
  }, 60_000);

  it('wikitext: the same for [[links]] and [external links]', () => {
    const wikitext = `[[X|a longer link text]] [https://example.org/x another longer link] ${'filler text '.repeat(6)}`.repeat(3000);
    const { article, heldMb } = heapHeldBy(() => parseWikitext(wikitext, { project: 'enwiki' }));
    expect(valid(article).sections[0]?.has_parts?.[0]?.links).toHaveLength(6000);
    expect(heldMb, 'heap held after parsing 0.4 MB').toBeLessThan(100);
  }, 60_000);
});
