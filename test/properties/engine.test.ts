/**
 * Invariants of `parse` on generated input: HTML-like documents built from the constructs the
 * engine knows (and the noise it must drop), arbitrary strings, and extreme nesting.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArticleSchema, WikistructError, parse } from '../../src/index.js';
import type { Article, Part } from '../../src/index.js';

/** Text without `<`, `>`, `[` or `]`: whatever markup or marker shows up in a value came from the engine. */
const words = fc.stringMatching(/^[a-zA-Z0-9 ,.;:()'"&é–-]{0,16}$/);
const classes = fc.constantFrom('', 'hatnote', 'navbox', 'infobox', 'reference', 'mw-editsection', 'noprint', 'gallery', 'thumb', 'wikitable', 'IPA', 'toc', 'reflist');
const tags = fc.constantFrom('div', 'p', 'span', 'b', 'i', 'a', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'table', 'tr', 'td', 'th', 'section', 'h2', 'h3', 'figure', 'figcaption', 'sup', 'style', 'script', 'blockquote', 'img', 'br', 'caption');
const attrs = fc
  .record({
    cls: classes,
    hidden: fc.boolean(),
    href: fc.option(fc.constantFrom('./Page', '/wiki/X', 'https://e.org/', '#cite_note-1', 'javascript:x', '%%%'), { nil: undefined }),
    typeof: fc.option(fc.constantFrom('mw:Extension/ref', 'mw:File', 'mw:Transclusion', 'mw:Extension/references'), { nil: undefined }),
    span: fc.option(fc.constantFrom('2', '0', '-1', 'x', '9999'), { nil: undefined }),
  })
  .map(
    (a) =>
      `${a.cls ? ` class="${a.cls}"` : ''}${a.hidden ? ' style="display:none"' : ''}${a.href === undefined ? '' : ` href="${a.href}"`}` +
      `${a.typeof === undefined ? '' : ` typeof="${a.typeof}"`}${a.span === undefined ? '' : ` colspan="${a.span}" rowspan="${a.span}"`}`,
  );

/** Elements may be left unclosed or closed twice: malformed HTML must parse best-effort. */
/** Reference markers in both dialects: their "[n]" must become a citation, never text. */
const marker = fc
  .tuple(fc.integer({ min: 1, max: 30 }), fc.boolean())
  .map(([n, parsoid]) =>
    parsoid
      ? `<sup typeof="mw:Extension/ref" class="mw-ref reference"><a href="./P#cite_note-${n}"><span class="mw-reflink-text">[${n}]</span></a></sup>`
      : `<sup class="reference"><a href="#cite_note-${n}">[${n}]</a></sup>`,
  );

const element: fc.Arbitrary<string> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    words,
    marker,
    fc
      .record({ tag: tags, attrs, kids: fc.array(tie('node'), { maxLength: 4 }), close: fc.constantFrom('ok', 'ok', 'missing', 'twice') })
      .map(({ tag, attrs: a, kids, close }) => `<${tag}${a}>${kids.join('')}${close === 'missing' ? '' : close === 'twice' ? `</${tag}></${tag}>` : `</${tag}>`}`),
  ),
})).node as fc.Arbitrary<string>;

const document = fc
  .tuple(fc.boolean(), fc.array(element, { minLength: 1, maxLength: 6 }))
  .map(([parsoid, body]) =>
    parsoid
      ? `<html><head><base href="//en.wikipedia.org/wiki/"/><meta property="mw:htmlVersion" content="2.8.0"/></head><body><section data-mw-section-id="0">${body.join('')}</section></body></html>`
      : `<div class="mw-parser-output">${body.join('')}</div>`,
  );

function values(article: Article): string[] {
  const out: string[] = [];
  if (article.abstract !== undefined) out.push(article.abstract);
  const stack: Part[] = [...article.sections, ...article.infoboxes];
  for (let part = stack.pop(); part !== undefined; part = stack.pop()) {
    if (part.value !== undefined) out.push(part.value);
    if (part.name !== undefined) out.push(part.name);
    stack.push(...(part.has_parts ?? []));
  }
  for (const table of article.tables) for (const row of [...table.headers, ...table.rows]) for (const cell of row) out.push(cell.value);
  for (const reference of article.references) out.push(reference.text.value);
  return out;
}

describe('parse on generated input', () => {
  it('yields an Article that validates, with no markup and no [n] markers in any text', () => {
    fc.assert(
      fc.property(document, (html) => {
        const article = parse(html);
        expect(ArticleSchema.safeParse(article).success, 'validates against ArticleSchema').toBe(true);
        for (const value of values(article)) {
          expect(value, 'no tag in text').not.toMatch(/<\/?[a-z]/i);
          expect(value, 'no reference marker in text').not.toMatch(/\[\d+\]/);
          expect(value, 'text is trimmed and single-spaced').toBe(value.replace(/[ \t]+/g, ' ').trim());
        }
      }),
      { numRuns: 300 },
    );
  });

  it('throws nothing but the typed errors, whatever the input', () => {
    const anything = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.jsonValue(), fc.constant(undefined), fc.object());
    fc.assert(
      fc.property(anything, (input) => {
        try {
          const article = parse(input as never);
          expect(ArticleSchema.safeParse(article).success).toBe(true);
        } catch (error) {
          expect(error, `typed error for ${JSON.stringify(input)?.slice(0, 80)}`).toBeInstanceOf(WikistructError);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('extreme nesting', () => {
  it.each(['div', 'span', 'ul><li', 'table><tr><td', 'section', 'blockquote'])(
    '100,000 nested <%s> neither overflow the stack nor lose the text',
    (tag) => {
      const names = tag.split('><');
      const open = names.map((t) => `<${t}>`).join('');
      const close = [...names].reverse().map((t) => `</${t}>`).join('');
      const html = `<html><body>${open.repeat(100_000)}deep text${close.repeat(100_000)}<p>after</p></body></html>`;
      const article = parse(html);
      expect(ArticleSchema.safeParse(article).success).toBe(true);
      const text = JSON.stringify(article);
      expect(text, 'the innermost text survives').toContain('deep text');
      expect(text, 'what follows survives').toContain('after');
    },
    60_000,
  );
});
