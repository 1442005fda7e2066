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

/** Every text value of the output: parts, table cells, reference texts, abstract, description. */
function values(a: Article): string[] {
  const out: string[] = [];
  const walk = (parts: readonly Part[] | undefined): void => {
    for (const p of parts ?? []) {
      if (p.value !== undefined) out.push(p.value);
      walk(p.has_parts);
    }
  };
  walk(a.sections);
  walk(a.infoboxes);
  for (const t of a.tables) for (const row of [...t.headers, ...t.rows]) for (const c of row) out.push(c.value);
  for (const r of a.references) out.push(r.text.value);
  if (a.abstract !== undefined) out.push(a.abstract);
  if (a.description !== undefined) out.push(a.description);
  return out;
}

const MARKUP = /\[\[|\{\{|<ref|'''/i;

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
  for (const v of values(article)) expect(MARKUP.test(v), `no wiki markup left in ${JSON.stringify(v)}`).toBe(false);
  const ids = new Set(article.references.map((r) => r.identifier));
  expect(ids.size, 'reference identifiers are unique').toBe(article.references.length);
}

describe('parseWikitext properties', () => {
  it('never throws anything but typed errors, validates, and leaves no markup in values', () => {
    fc.assert(fc.property(wikitextLike, check), { numRuns: 300 });
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
      for (const v of values(a)) expect(MARKUP.test(v), `${name}: no markup`).toBe(false);
    }
  }, 120_000);
});
