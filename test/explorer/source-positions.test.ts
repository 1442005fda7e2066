/**
 * `parse(html, { sourcePositions: true })`: each block-level Part names the element it came from
 * (engine/source-positions.ts). Off by default; on, it adds `source` and changes nothing else;
 * and the element it names, counted in the tree the engine builds, is the one that holds the
 * Part's text — on the hand-written fixtures, generated documents and real articles.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHtml, rawText, tagName, type Element } from '../../src/engine/dom.js';
import { parse } from '../../src/engine/parse.js';
import { elementOrder, type SourcedPart } from '../../src/engine/source-positions.js';
import type { Article } from '../../src/schema/article.js';
import { corpusDir } from '../../scripts/conformance/corpus.js';

const FIXTURES = new URL('../../corpus/', import.meta.url).pathname;

/** Each fixture's input (HTML text or envelope) and the HTML inside it. */
function fixtures(): { name: string; input: string | Record<string, unknown>; html: string }[] {
  return readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => {
      const htmlPath = join(FIXTURES, d.name, 'input.html');
      if (existsSync(htmlPath)) {
        const html = readFileSync(htmlPath, 'utf8');
        return { name: d.name, input: html, html };
      }
      const envelope = JSON.parse(readFileSync(join(FIXTURES, d.name, 'input.json'), 'utf8')) as { article_body: { html: string } };
      return { name: d.name, input: envelope as unknown as Record<string, unknown>, html: envelope.article_body.html };
    });
}

function allParts(article: Article): SourcedPart[] {
  const out: SourcedPart[] = [];
  const stack: SourcedPart[] = [...article.sections, ...article.infoboxes];
  while (stack.length > 0) {
    const part = stack.pop()!;
    out.push(part);
    stack.push(...(part.has_parts ?? []));
  }
  return out;
}

/** The sections below the lead and every part directly in a section: the parts the walker makes. */
function blocksOf(sections: readonly SourcedPart[]): SourcedPart[] {
  const out: SourcedPart[] = [];
  const stack = sections.map((s, i) => ({ part: s, lead: i === 0 }));
  while (stack.length > 0) {
    const { part, lead } = stack.pop()!;
    if (!lead) out.push(part);
    for (const child of part.has_parts ?? []) {
      if (child.type === 'section') stack.push({ part: child, lead: false });
      else out.push(child);
    }
  }
  return out;
}

/**
 * The Article without the Parts' `source` hints (`{element, tag}`): what the option must leave
 * untouched. A Reference's own `source` (`{value, links}`, the citation it names) is content, kept.
 */
function withoutSources(article: Article): unknown {
  return JSON.parse(JSON.stringify(article, (key, value: unknown) => (key === 'source' && typeof value === 'object' && value !== null && 'element' in value ? undefined : value)));
}

const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Every hint names an element of the engine's tree with the hint's tag, holding the Part's text. */
function checkHints(html: string, article: Article, label: string): number {
  const byIndex = new Map<number, Element>();
  for (const [el, index] of elementOrder(parseHtml(html))) byIndex.set(index, el);
  let checked = 0;
  for (const part of allParts(article)) {
    if (part.source === undefined) continue;
    const el = byIndex.get(part.source.element);
    expect(el, `${label}: hint ${part.source.element} names an element`).toBeDefined();
    expect(tagName(el!), `${label}: hint ${part.source.element} has the element's tag`).toBe(part.source.tag);
    const text = squash(rawText(el!));
    if (part.type === 'section') {
      expect(part.source.tag, `${label}: a section's source is its heading`).toMatch(/^h[1-6]$/);
      expect(text, `${label}: the heading holds the section name`).toContain(squash(part.name ?? ''));
    }
    if (part.type === 'paragraph' && part.source.tag === 'p') {
      // The Part's text is cleaned (markers, hidden text, pronunciations out): its first word is in the element.
      const first = /[\p{L}\p{N}]+/u.exec(part.value ?? '')?.[0] ?? '';
      expect(text, `${label}: paragraph ${part.source.element} holds "${first}"`).toContain(first);
    }
    if (part.type === 'table') expect(part.source.tag, `${label}: a table part comes from a table`).toBe('table');
    checked += 1;
  }
  return checked;
}

describe('source positions on the hand-written fixtures', () => {
  for (const fixture of fixtures()) {
    it(`${fixture.name}: off by default, additive when on, and every hint names the element holding the part`, () => {
      const plain = parse(fixture.input);
      expect(allParts(plain).filter((p) => p.source !== undefined), 'no hints without the option').toEqual([]);
      const sourced = parse(fixture.input, { sourcePositions: true });
      expect(withoutSources(sourced), 'the option adds hints and changes nothing else').toEqual(plain);
      expect(checkHints(fixture.html, sourced, fixture.name), `${fixture.name}: some parts are hinted`).toBeGreaterThan(0);
      const unhinted = [...(sourced.infoboxes as SourcedPart[]), ...blocksOf(sourced.sections)].filter((p) => p.source === undefined);
      expect(unhinted.map((p) => `${p.type} ${p.name ?? p.value?.slice(0, 30) ?? ''}`), 'every section (but the lead), block and infobox is hinted').toEqual([]);
    });
  }
});

describe('source positions on generated documents', () => {
  it('each paragraph, heading and list of a generated page points at its own element, in order', () => {
    const block = fc.oneof(
      fc.constant('p' as const),
      fc.constant('h2' as const),
      fc.constant('h3' as const),
      fc.constant('ul' as const),
      fc.constant('div' as const),
    );
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 25 }), fc.boolean(), (kinds, wrapped) => {
        // Unique words per block, so that the text tells which element a part came from.
        const html = kinds
          .map((kind, i) => {
            const words = `Block${i} text${i}`;
            if (kind === 'ul') return `<ul><li>${words} one</li><li>${words} two</li></ul>`;
            if (kind === 'div') return `<div><span>filler</span><p>${words} inside</p></div>`;
            return `<${kind}>${words}</${kind}>`;
          })
          .join('\n');
        const page = wrapped ? `<!DOCTYPE html><html><head><title>t</title></head><body>${html}</body></html>` : html;
        const article = parse(page, { sourcePositions: true });
        checkHints(page, article, 'generated');
        const hinted = allParts(article).filter((p) => p.source !== undefined);
        // A div holds two paragraphs: the implicit one of its inline span, and its <p>.
        const expected = kinds.length + kinds.filter((k) => k === 'div').length;
        expect(hinted.length, 'one hinted part per block').toBe(expected);
        expect(blocksOf(article.sections).every((p) => p.source !== undefined), 'every block and section is hinted').toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

const corpus = corpusDir();
if (corpus === undefined) console.log('real-article source position checks skipped: ../shared/corpus not found (set WIKISTRUCT_CORPUS)');

describe.skipIf(corpus === undefined)('source positions on real articles', () => {
  it.each(['Albert_Einstein', 'Foobar', 'Coset', 'FR_Josephine_Baker', 'Cactus'])('%s: additive, and every hint names the element holding the part', (name) => {
    const html = readFileSync(join(corpus!, 'html', `${name}.html`), 'utf8');
    const sourced = parse(html, { sourcePositions: true });
    expect(withoutSources(sourced), 'changes nothing else').toEqual(parse(html));
    expect(checkHints(html, sourced, name), 'parts hinted').toBeGreaterThan(5);
    // Bare text between blocks becomes a paragraph with no element of its own: the one part left unhinted.
    const unhinted = blocksOf(sourced.sections).filter((p) => p.source === undefined);
    expect(unhinted.filter((p) => p.type !== 'paragraph'), 'every block but bare-text paragraphs is hinted').toEqual([]);
    expect(unhinted.length, 'few bare-text paragraphs').toBeLessThan(5);
  });
});
