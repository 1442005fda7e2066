import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArticleSchema, parseWikitext, WikistructError } from '../../src/index.js';
import type { Article, Part } from '../../src/index.js';
import { MAX_NESTING } from '../../src/engine/wikitext/tree.js';

const FRAGMENTS = [
  '[[', ']]', '{{', '}}', '{|', '|}', '|-', '||', '!!', '|', '!', '|+', '\n', '\n\n', "'''", "''", '<ref>', '</ref>',
  '<ref name="a"/>', '<ref name=a>', '<references/>', '<ref group="n">', '==', '===', '\n* ', '\n# ', '\n:', '\n;', '<!--', '-->',
  'Infobox person', 'cite web', 'title=', 'File:', 'Fichier:', 'Category:', '__TOC__', '=', 'http://x.example', 'https://y.example/p',
  '[', ']', '<div>', '</div>', '<br>', '{{{1}}}', 'short description', '#', 'IPAc-en', 'sfn', 'efn', 'reflist', '<nowiki>',
  '</nowiki>', '<math>', '</math>', 'thumb', 'rowspan="2"', 'colspan=3', '{{lang|de|', 'convert|5|km', '-{', '}-', '~~~~', ' ',
];

const wikitextLike = fc
  .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...FRAGMENTS) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }), { maxLength: 80 })
  .map((xs) => xs.join(''));

/**
 * Well-formed wikitext with a known rendering: each piece is markup and the text a reader sees of
 * it (nothing, for a template the grammar does not know, a footnote, a comment). Unlike "no `[[`
 * left", which the final scrub of leftovers guarantees whatever the renderer did, the exact text
 * can only come out if every construct was rendered rather than dropped or leaked.
 */
const word = fc.stringMatching(/^[a-z]{1,8}$/);
const Word = word.map((w) => w[0]!.toUpperCase() + w.slice(1));
const piece: fc.Arbitrary<[wikitext: string, visible: string]> = fc.oneof(
  { weight: 4, arbitrary: word.map((w) => [w, w] as [string, string]) },
  fc.tuple(Word, word).map(([target, label]) => [`[[${target}|${label}]]`, label] as [string, string]),
  Word.map((w) => [`[[${w}]]`, w] as [string, string]),
  word.map((w) => [`'''${w}'''`, w] as [string, string]),
  word.map((w) => [`''${w}''`, w] as [string, string]),
  fc.tuple(word, word).map(([path, label]) => [`[https://x.example/${path} ${label}]`, label] as [string, string]),
  // Named parameters only: a template without a renderer shows its positional text in running text (render.ts fallback).
  fc.tuple(word, word).map(([name, arg]) => [`{{Zz ${name}|key=${arg}}}`, ''] as [string, string]),
  word.map((w) => [`<ref>${w} cited</ref>`, ''] as [string, string]),
  word.map((w) => [`<!-- ${w} -->`, ''] as [string, string]),
);
const paragraph = fc.array(piece, { minLength: 1, maxLength: 12 }).filter((ps) => ps.some(([, visible]) => visible !== ''));

function check(text: string): void {
  let article: Article;
  try {
    article = parseWikitext(text, { name: 'P', project: 'enwiki', language: 'en' });
  } catch (e) {
    expect(e, 'only typed errors').toBeInstanceOf(WikistructError);
    return;
  }
  const result = ArticleSchema.safeParse(article);
  expect(result.success, `validates: ${result.success ? '' : JSON.stringify(result.error.issues[0])}`).toBe(true);
  const ids = new Set(article.references.map((r) => r.identifier));
  expect(ids.size, 'reference identifiers are unique').toBe(article.references.length);
}

describe('parseWikitext properties', () => {
  it('never throws anything but typed errors and validates', () => {
    fc.assert(fc.property(wikitextLike, check), { numRuns: 300 });
  });

  it('renders well-formed markup to exactly the text a reader sees, no markup and nothing lost', () => {
    fc.assert(
      fc.property(paragraph, (pieces) => {
        const text = pieces.map(([wikitext]) => wikitext).join(' ');
        const seen = pieces.map(([, visible]) => visible).filter((v) => v !== '').join(' ');
        const article = parseWikitext(text, { name: 'P', project: 'enwiki', language: 'en' });
        expect(article.abstract, text).toBe(seen);
        expect(article.sections[0]?.has_parts?.[0]?.value, text).toBe(seen);
        expect(article.references.length, 'each footnote became a reference').toBe(pieces.filter(([w]) => w.startsWith('<ref>')).length);
      }),
      { numRuns: 300 },
    );
  });

  it('every citation resolves to exactly one reference', () => {
    fc.assert(
      fc.property(wikitextLike, (text) => {
        const a = parseWikitext(text, { project: 'enwiki' });
        const ids = new Set(a.references.map((r) => r.identifier));
        const walk = (parts: readonly Part[] | undefined): void => {
          for (const p of parts ?? []) {
            for (const c of p.citations ?? []) expect(ids.has(c.identifier), `citation ${c.identifier} resolves`).toBe(true);
            walk(p.has_parts);
          }
        };
        walk(a.sections);
        walk(a.infoboxes);
      }),
      { numRuns: 150 },
    );
  });

  // Input limits (src/engine/wikitext/tree.ts): bracket nesting deeper than MAX_NESTING (100; real
  // articles reach 5) is not handed to the parser, whose time explodes with nesting; the text is
  // returned without markup instead. Lists deeper than 20 levels are read as 20 levels.
  it('survives deep and huge garbage without overflowing the stack', () => {
    const cases: [string, string][] = [
      ['nested templates', '{{a|'.repeat(5000) + 'x' + '}}'.repeat(5000)],
      ['nested templates at the limit', '{{a|'.repeat(MAX_NESTING) + 'x' + '}}'.repeat(MAX_NESTING)],
      ['links in templates in links, over the limit', '{{a|[['.repeat(1000) + ']]}}'.repeat(1000)],
      ['nested links', '[[a|'.repeat(20_000)],
      ['nested tables', '{|\n|\n'.repeat(MAX_NESTING)],
      ['deep list', `${'*'.repeat(50_000)} item`],
      ['many refs', '<ref>a</ref>'.repeat(5000)],
      ['nested refs', '<ref>'.repeat(5000) + '</ref>'.repeat(5000)],
      ['quotes', "'''''".repeat(20_000)],
      ['nested html', '<div>'.repeat(20_000)],
      ['headings', '==a==\n'.repeat(5000)],
    ];
    for (const [name, text] of cases) {
      const a = parseWikitext(text, { project: 'enwiki' });
      expect(ArticleSchema.safeParse(a).success, `${name}: validates`).toBe(true);
    }
  }, 120_000);
});
