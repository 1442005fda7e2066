/**
 * The side-by-side pane's source page (src/explorer/source/sanitize.ts). Two promises:
 * - safe: whatever the input, the output holds only allowlisted elements and attributes — no
 *   script, no handler, no style, no URL anywhere (a property over hostile generated HTML);
 * - aligned: the element marked `data-ws="N"` is the one the engine's hint N names, so the part
 *   under the pointer lights up the right place (checked on fixtures and real articles).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findAll, getAttributeValue, textContent } from 'domutils';
import type { Element } from 'domhandler';
import fc from 'fast-check';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/engine/parse.js';
import type { SourcedPart } from '../../src/engine/source-positions.js';
import { hintsOf } from '../../src/explorer/source/hints.js';
import { detectKind, htmlOf } from '../../src/explorer/source/input.js';
import { sanitizeSource, sourceDocument, wikitextBody } from '../../src/explorer/source/sanitize.js';
import type { Article } from '../../src/schema/article.js';
import { corpusDir } from '../../scripts/conformance/corpus.js';

const ALLOWED_ELEMENTS = new Set([
  'a', 'abbr', 'article', 'aside', 'b', 'bdi', 'bdo', 'big', 'blockquote', 'br', 'caption', 'center', 'cite', 'code', 'col',
  'colgroup', 'dd', 'del', 'dfn', 'div', 'dl', 'dt', 'em', 'figcaption', 'figure', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5',
  'h6', 'header', 'hr', 'i', 'ins', 'kbd', 'li', 'main', 'mark', 'nav', 'ol', 'p', 'pre', 'q', 'rp', 'rt', 'ruby', 's',
  'samp', 'section', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead',
  'time', 'tr', 'tt', 'u', 'ul', 'var', 'wbr',
]);
const ALLOWED_ATTRIBUTES = new Set(['class', 'colspan', 'rowspan', 'scope', 'lang', 'dir', 'title', 'start', 'reversed', 'data-ws']);

const elementsOf = (html: string): Element[] => findAll(() => true, parseDocument(html, { decodeEntities: true }).children);

/** Hostile HTML: active and embedded elements, handlers, styles and URLs, in arbitrary nesting and order. */
const hostile = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(
      'text & more',
      '<script>parent.pwned = 1</script>',
      '<img src="https://evil.example/x.png" onerror="parent.pwned=1" alt="x">',
      '<iframe src="https://evil.example/"></iframe>',
      '<a href="javascript:parent.pwned=1" onclick="parent.pwned=1">click</a>',
      '<svg><script>parent.pwned=1</script><image href="https://evil.example/i.png"/></svg>',
      '<style>body{background:url(https://evil.example/bg.png)}</style>',
      '<link rel="stylesheet" href="https://evil.example/s.css">',
      '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
      '<base href="https://evil.example/">',
      '<object data="https://evil.example/o"></object><embed src="https://evil.example/e">',
      '<video src="https://evil.example/v.mp4" poster="https://evil.example/p.png"></video>',
      '<form action="https://evil.example/"><input name="q" formaction="https://evil.example/"><button>go</button></form>',
      '<div style="background:url(https://evil.example/bg.png)" onmouseover="parent.pwned=1">styled</div>',
      '<p srcset="https://evil.example/1x.png 1x" data-x="https://evil.example/" background="https://evil.example/b.png">attrs</p>',
      '<noscript><img src="https://evil.example/n.png"></noscript>',
      '<template><img src="https://evil.example/t.png"></template>',
      '<x-custom onclick="x">custom</x-custom>',
      '<table background="https://evil.example/t.png"><tr><td background="https://evil.example/c.png">cell</td></tr></table>',
      '"><script>alert(1)</script>',
      '<!-- <script>alert(1)</script> -->',
      '<textarea><script>alert(1)</script></textarea>',
      '<plaintext>',
      '<math><mtext><img src="https://evil.example/m.png"></mtext></math>',
    ),
    fc.tuple(fc.constantFrom('div', 'p', 'span', 'section', 'b', 'td', 'li', 'table', 'ul', 'x-y', 'font'), fc.array(tie('node'), { maxLength: 4 })).map(
      ([tag, kids]) => `<${tag} class="c" style="color:red" onload="x()">${kids.join('')}</${tag}>`,
    ),
    fc.string({ maxLength: 12 }),
  ),
})).node;

describe('the sanitised source is safe', () => {
  it('only allowlisted elements and attributes survive, whatever the input', () => {
    fc.assert(
      fc.property(fc.array(hostile, { maxLength: 8 }), fc.boolean(), (parts, page) => {
        const html = page ? `<!DOCTYPE html><html><head><title>t</title></head><body>${parts.join('')}</body></html>` : parts.join('');
        const { body } = sanitizeSource(html);
        for (const el of elementsOf(body)) {
          expect(ALLOWED_ELEMENTS.has(el.name), `element <${el.name}> is allowlisted`).toBe(true);
          for (const name of Object.keys(el.attribs)) expect(ALLOWED_ATTRIBUTES.has(name), `attribute ${name} on <${el.name}> is allowlisted`).toBe(true);
        }
        // Not even as markup a different parser could read: script and style text only ever escaped.
        expect(body, 'no script or style tag').not.toMatch(/<\/?(script|style)/i);
      }),
      { numRuns: 400 },
    );
  });

  it('images become a text placeholder with their alt text; links keep their text only', () => {
    const { body } = sanitizeSource('<p>See <a href="https://x.org">this</a> <img src="https://x.org/a.png" alt="a map"></p>');
    expect(body).toBe('<p>See <a>this</a> <span class="ws-img">[image: a map]</span></p>');
  });

  it('the pane document forbids every request but the explorer stylesheet, and wikitext is plain text', () => {
    const doc = sourceDocument('<p>x</p>', 'http://127.0.0.1:8080');
    const meta = elementsOf(doc).find((el) => el.name === 'meta' && getAttributeValue(el, 'http-equiv') === 'Content-Security-Policy');
    expect(getAttributeValue(meta!, 'content')).toBe("default-src 'none'; style-src http://127.0.0.1:8080; img-src data:");
    expect(elementsOf(wikitextBody("'''Foo''' <script>x</script> [[Bar]]")).map((el) => el.name), 'one pre, nothing else').toEqual(['pre']);
  });
});

/** Every hinted Part's element, found in the sanitised output by its data-ws, holds the Part's first word. */
function checkAligned(html: string, article: Article, label: string): number {
  const hints = hintsOf(article);
  const result = sanitizeSource(htmlOf(html), hints);
  expect(result.mismatched, `${label}: every hint found with its tag`).toBe(0);
  expect(result.found, `${label}: found all`).toBe(hints.size);
  const marked = new Map(elementsOf(result.body).filter((el) => el.attribs['data-ws'] !== undefined).map((el) => [Number(el.attribs['data-ws']), el]));
  const stack: SourcedPart[] = [...article.sections, ...article.infoboxes];
  let checked = 0;
  while (stack.length > 0) {
    const part = stack.pop()!;
    stack.push(...(part.has_parts ?? []));
    if (part.source === undefined) continue;
    const el = marked.get(part.source.element);
    expect(el, `${label}: hint ${part.source.element} is marked in the output`).toBeDefined();
    // An image's own element may be gone (it is a placeholder now): its figure stays.
    if (part.type !== 'paragraph' && part.type !== 'section') continue;
    const first = /[\p{L}\p{N}]+/u.exec(part.type === 'section' ? (part.name ?? '') : (part.value ?? ''))?.[0] ?? '';
    expect(textContent(el!), `${label}: element ${part.source.element} holds "${first}"`).toContain(first);
    checked += 1;
  }
  return checked;
}

describe('the sanitised source is aligned with the hints', () => {
  for (const name of ['lead', 'sections', 'figures', 'tables', 'infobox', 'references', 'rendered-page']) {
    it(`fixture ${name}`, () => {
      const html = readFileSync(new URL(`../../corpus/${name}/input.html`, import.meta.url), 'utf8');
      expect(checkAligned(html, parse(html, { sourcePositions: true }), name)).toBeGreaterThan(0);
    });
  }

  it('an envelope pasted as JSON text: the source shown is its article_body.html', () => {
    const text = readFileSync(new URL('../../corpus/envelope/input.json', import.meta.url), 'utf8');
    expect(detectKind(text), 'read as HTML').toBe('html');
    expect(htmlOf(text)).toBe((JSON.parse(text) as { article_body: { html: string } }).article_body.html);
    expect(checkAligned(text, parse(text, { sourcePositions: true }), 'envelope')).toBeGreaterThan(0);
  });

  const corpus = corpusDir();
  it.skipIf(corpus === undefined).each(['Albert_Einstein', 'London', 'FR_Josephine_Baker'])('real article %s', (name) => {
    const html = readFileSync(join(corpus!, 'html', `${name}.html`), 'utf8');
    expect(checkAligned(html, parse(html, { sourcePositions: true }), name)).toBeGreaterThan(50);
  });
});

describe('what was pasted or dropped', () => {
  it('is told apart by file name first, then by how it starts', () => {
    expect(detectKind('anything', 'Foo.wiki')).toBe('wikitext');
    expect(detectKind('<p>x</p>', 'notes.txt')).toBe('wikitext');
    expect(detectKind("'''Foo''' is", 'page.html')).toBe('html');
    expect(detectKind('  <!DOCTYPE html><html>')).toBe('html');
    expect(detectKind('<!-- saved --> <html>')).toBe('html');
    expect(detectKind("'''Foo''' is a <ref>x</ref>")).toBe('wikitext');
    expect(detectKind('{{Infobox person}}\nFoo')).toBe('wikitext');
    expect(detectKind('{"article_body": {"html": "<p>x</p>"}}')).toBe('html');
    expect(htmlOf('<p>plain</p>')).toBe('<p>plain</p>');
  });
});
