/**
 * Our wikitext syntax tree (src/engine/wikitext/syntax) against wikiparser-node's, the parser it
 * is ported from: identical node by node (type, name, the properties rules read, wikitext, plain
 * text, children) on every article of the shared corpus and on random wikitext made of the
 * constructs both parse. A difference is a bug of the port, or a deliberate departure listed here.
 */
import fc from 'fast-check';
import Parser from 'wikiparser-node';
import { describe, expect, it } from 'vitest';
import { parseWikitextTree } from '../../../src/engine/wikitext/syntax/parse.js';
import { parserConfig } from '../../../src/engine/wikitext/tree.js';
import { profileForPage, wikiProfile } from '../../../src/engine/wiki/profile.js';
import { compareTrees, wikitextCorpusCases } from '../../support/wikitext-trees.js';
import type { TreeDifference } from '../../support/wikitext-trees.js';

function differences(text: string, config = parserConfig(wikiProfile())): TreeDifference[] {
  const viewOnly = Parser.viewOnly;
  Parser.viewOnly = true;
  try {
    return compareTrees(parseWikitextTree(text, config), Parser.parse(text, false, undefined, config), 5);
  } finally {
    Parser.viewOnly = viewOnly;
  }
}

const cases = wikitextCorpusCases();

describe.skipIf(cases.length === 0)('the shared corpus', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s: the same tree as wikiparser-node', (_, c) => {
    expect(differences(c.text, parserConfig(profileForPage(c.site, c.project, c.language)))).toEqual([]);
  });
});

/** Pieces of wikitext whose concatenations exercise every stage and their interplay. */
const PIECES = [
  'a', ' ', '\n', '\n\n', 'word', 'é', '日本', '|', '||', '!', '!!', '=', '==', ':', ';', '*', '#', '----', "''", "'''", '[', ']', '[[', ']]', '{', '}', '{{', '}}', '{{{', '}}}',
  '{|', '|}', '|-', '|+', '<', '>', '/>', '<!--', '-->', '<ref>', '</ref>', '<ref name="n"/>', '<nowiki>', '</nowiki>', '<br>', '<span>', '</span>', '<b>', '</b>',
  '<references/>', '<math>', '</math>', '<gallery>', '</gallery>', '<poem>', '</poem>', '<pre>', '</pre>', '<includeonly>', '</includeonly>', '<noinclude>', '</noinclude>',
  '{{cite web|url=http://x.org|title=T}}', '{{lc:AB}}', '{{#if:x|y|z}}', '{{#invoke:M|f|a}}', '{{PAGENAME}}', '{{!}}', '{{=}}', '{{{1|d}}}', 'subst:',
  '[[Link]]', '[[Link|text]]', '[[File:X.jpg|thumb|200px|cap [[l]]]]', '[[File:Y.png|alt=-{a}-|cap http://u.org [http://v.org w] ISBN 978-0-00-000000-2 \n* x]]', '[[Category:C]]', '[[de:X]]', '[[:Category:C]]', '[[#s]]',
  '[http://e.com t]', 'http://f.com', 'ISBN 978-0-00-000000-2', 'RFC 123', '-{', '}-', '-{zh:a;zh-tw:b}-', '__TOC__', '__NOTOC__', '&amp;', '&nbsp;',
  '== H ==', '\n== H ==\n', '\n{|\n|a||b\n|}\n', '\n* i\n', '\n; t : d\n', ' class="x"', 'rowspan=2 |',
];

describe('random wikitext', () => {
  it('builds the same tree as wikiparser-node from any sequence of wikitext pieces', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }), (pieces) => {
        expect(differences(pieces.join(''))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('on another wiki (localized namespaces and image options)', () => {
    const config = parserConfig(profileForPage(undefined, 'jawiki', 'ja'));
    const ja = ['[[ファイル:X.jpg|サムネイル|250ピクセル|説明]]', '[[カテゴリ:C]]', '{{基礎情報 国|名前=日本}}', '[[画像:Y.png|左]]'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES, ...ja), { maxLength: 30 }), (pieces) => {
        expect(differences(pieces.join(''), config)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
