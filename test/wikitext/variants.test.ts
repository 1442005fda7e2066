/**
 * LanguageConverter blocks -{…}- (src/engine/wikitext/variants.ts): read as MediaWiki shows them
 * to a reader of the page's own language, on the wikis that convert, and never printed as markup.
 */
import { describe, expect, it } from 'vitest';
import { parseWikitext } from '../../src/index.js';

const abstract = (text: string, project: string, language: string): string | undefined => parseWikitext(text, { project, language }).abstract;

describe('LanguageConverter blocks', () => {
  it('show the rule of the first variant in the language fallback chain (zh → zh-hans before zh-hant)', () => {
    expect(abstract('首都-{zh-hant:柏林市; zh-hans:柏林;}-。', 'zhwiki', 'zh')).toBe('首都柏林。');
  });

  it('show the first rule when the block names no variant of the chain', () => {
    expect(abstract('x -{zh-tw:甲; zh-hk:乙}- y', 'zhwiki', 'zh')).toBe('x 甲 y');
  });

  it('show the text of a block without rules, as written (a name kept unconverted)', () => {
    expect(abstract('的 -{Linux}- 系统', 'zhwiki', 'zh')).toBe('的 Linux 系统');
  });

  it('show nothing for hidden flags (H: a rule for the page, T: the title) and the content for R', () => {
    expect(abstract('a -{H|zh-cn:软件; zh-tw:軟體;}-b -{T|zh-cn:标题}-c', 'zhwiki', 'zh')).toBe('a b c');
    expect(abstract('a -{R|zh-cn:x}- b', 'zhwiki', 'zh')).toBe('a zh-cn:x b');
  });

  it('read the page language variant on other converting wikis (srwiki: sr → sr-ec first)', () => {
    expect(abstract('Главни град је -{sr-el:Beograd; sr-ec:Београд}-.', 'srwiki', 'sr')).toBe('Главни град је Београд.');
  });

  it('are text on a wiki that does not convert, as MediaWiki shows them there', () => {
    expect(abstract('a -{b}- c', 'enwiki', 'en')).toBe('a -{b}- c');
  });
});
