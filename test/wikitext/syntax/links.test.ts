/**
 * Our stages 5 (links, files, categories), 7 (external links), 8 (magic links) and 10 (language
 * conversion) and the gallery's images against wikiparser-node's, snippet by snippet. Stages
 * written by others at the same time (comments and tags, templates, HTML, tables, quotes, lists)
 * are kept out of the snippets, or the comparison stops before the stage they would need.
 */
import fc from 'fast-check';
import Parser from 'wikiparser-node';
import { describe, expect, it } from 'vitest';
import { parserConfig } from '../../../src/engine/wikitext/tree.js';
import { wikiProfile } from '../../../src/engine/wiki/profile.js';
import { parseWikitextTree } from '../../../src/engine/wikitext/syntax/parse.js';
import { compareTrees } from '../../support/wikitext-trees.js';

/** The differences between both trees of `text` on `language`'s wiki, after stages before `stage`. */
export function differences(text: string, language = 'en', stage?: number): string[] {
  const config = parserConfig(wikiProfile({ project: `${language}wiki`, language }));
  const viewOnly = Parser.viewOnly;
  Parser.viewOnly = true;
  let theirs;
  try {
    theirs = Parser.parse(text, false, stage, config);
  } finally {
    Parser.viewOnly = viewOnly;
  }
  const ours = parseWikitextTree(text, config, stage);
  return compareTrees(ours, theirs, 5).map((d) => `${d.path} ${d.what}: ours ${d.ours} theirs ${d.theirs}`);
}

interface Case {
  text: string;
  language?: string;
}

// Stop after the links stage: the quotes stage (6) is another helper's.
const LINKS: readonly Case[] = [
  { text: 'a [[b]] [[c|d]] [[y|z]] [[y|\'\'z\'\' e]] [[ y | z ]]' },
  { text: '[[Category:Foo|Bar]] [[Category:Foo]] [[:Category:X]] [[category:x|]] [[Category:]]' },
  { text: '[[File:X.jpg|thumb|200px|left|alt=An \'\'alt\'\'|link=Main Page|A [[b|caption]] here]]' },
  { text: '[[File:Y.png]] [[File:Z.svg|]] [[Image:Z.svg|frameless|upright=1.2|x200px|100x100px]] [[:File:Q.jpg]] [[:File:Q.jpg|x]]' },
  { text: '[[#sec]] [[a%20b]] [[a%2]] [[<x>]] [[http://x]] [[//x]] [[a|b|c]] [[]] [[|x]] [[a\nb]] [[a{b]] [[a]b]]' },
  { text: '[[a|b]c]] [[a|[b]]] [[a|[[b]]]] [[a|b]]] [[[a]]] [[a|b [c] d]]' },
  { text: '[[File:A.jpg|thumb|A [[b]] and [[c|d]] caption]] after [[e]]' },
  { text: '[[File:A.jpg|thumb|A [[b]] unclosed' },
  { text: '[[File:A.jpg|thumb|nested [[File:B.jpg|20px|[[c]]]] x]] y' },
  { text: '[[File:A.jpg|thumb|[[a]] [[b]] [[c]]' },
  { text: '[[:File:A.jpg|thumb|[[a]]]] [[fr:Page]] [[en:Page|x]] [[wikt:word]] [[File:A.jpg|link=http://example.com|x]] [[File:A.jpg|link=|x]]' },
  { text: '[[File:A.jpg|link=//example.com/x|link=[[Foo]]|x]] [[File:A.jpg|link=Foo#bar]] [[File:A.jpg|link=<x>|cap]]' },
  { text: '[[File:A.jpg|thumb|see http://x.com and [http://q.com Q] end|alt=[http://r.org R]]]' },
  { text: '[[File:A.djvu|page=3|lang=de|class=x]] [[File:A.svg|lang=de-at|page=3]] [[File:A.pdf|page=0]]' },
  { text: '[[File:A.jpg|upright|upright=|border|baseline|sub|super|top|text-top|middle|bottom|text-bottom|none|center|right]]' },
  { text: '[[File:A.jpg|thumbnail=B.jpg|thumb=|frame|framed|enframed|manualthumb=x|$1|px|200 px|abcpx|-{a|b}-|c]]' },
  { text: '[[File:A.jpg|  thumb  |\t200px | caption with $& and $1 ]]' },
  { text: '[[a&amp;b]] [[a&nbsp;b]] [[A_b  c]] [[talk:x]] [[Talk:x/y]] [[../x]] [[/x]] [[a#b#c]] [[ : a]] [[:]]' },
  { text: '[[Special:X]] [[Media:A.jpg]] [[media:A.jpg|x]] [[Wikipedia:X]] [[w:X]] [[:w:X]] [[File:A.jpg#frag]]' },
  { text: '[[File:A.jpg|alt=]] [[File:A.jpg|alt]] [[File:A.jpg|link]] [[File:A.jpg|20]] [[File:A.jpg|20x]]' },
  { text: '[[ファイル:A.jpg|サムネイル|左|200px|キャプション]] [[カテゴリ:X|y]] [[画像:B.png|thumb]]', language: 'ja' },
  { text: '[[Datei:A.jpg|mini|links|hochkant=1.5|Bild [[x]]]] [[Kategorie:Foo|Bar]] [[Bild:B.png|rahmenlos]]', language: 'de' },
  { text: '[[Файл:A.jpg|мини|справа|200пкс|Подпись]] [[Категория:Foo]] [[Изображение:B.png|thumb]]', language: 'ru' },
  { text: '[[ファイル:A.jpg|サムネイル=B.jpg|200x100ピクセル|代替文=x [[y]]|リンク=Foo|中央|フレームなし|右上|境界|文上端|キャプション]] [[画像:C.svg|リンク=|300ピクセル|左]]', language: 'ja' },
  { text: '[[Datei:A.jpg|mini=B.jpg|hochkant=0.8|hochkant 2|hochkant_3|verweis=Foo|zentriert|rahmenlos|rand|tiefgestellt|Bild]] [[Datei:A.jpg|miniatur|hochkant=x|y]]', language: 'de' },
  { text: '[[Файл:A.jpg|миниатюра=B.jpg|сверхусправа=1.3|альт=Текст|ссылка=Москва|центр|безрамки|граница|текст-сверху|300x200пкс|подпись]]', language: 'ru' },
  { text: '[[Fichier:A.jpg|vignette|redresse=0.8|redresse_2|lien=Paris|centré|non_encadré|alt=x|gauche|légende]] [[Catégorie:X|y]] [[Image:B.jpg|sans_cadre|neant]]', language: 'fr' },
  // Templates in targets and options: the title once built is read again by stages 0 and 1, as the library does.
  { text: '[[File:A.jpg|link={{x}}|c]] [[File:A.jpg|link=Foo{{x}}|c]] [[File:A.jpg|link={{localurl:X}}|c]] [[File:A.jpg|link={{fullurl:X}}|c]] [[File:A.jpg|link=a{{(!}}|c]]' },
  { text: '[[{{x}}|y]] [[a{{x}}b]] [[{{x}}:y]] [[File:{{x}}.jpg]] [[Category:{{x}}]] [[a#{{x}}]] [[{{x}}#{{y|z}}]] [[a{{!}}b]] [[File:A.jpg{{!}}thumb|c]]' },
  { text: '[[a<!--c-->b|c<!--d-->]] [[File:A.jpg|thumb<!--c-->|200px<!--c-->|{{x|[[y]]}} cap]] {{t|[[a|b]]}} [[a|{{x}}]] [[File:A.jpg|{{x}}px|c]]' },
  { text: '[[a\u00A0b]] [[\u200Ea]] [[a\x01b]] [[a\uFFFDb]] [[ñ]] [[ß]] [[ǆ]] [[𝔸]]' },
  { text: '[[File:A.jpg|[[File:B.jpg|[[File:C.jpg|[[File:D.jpg|x]]]]]]]]' },
  { text: '[[a|b\nc]] [[File:A.jpg|b\nc]] [[a|b\n\nc]] [[File:A.jpg\n|x]]' },
];

describe('links stage (5) against wikiparser-node', () => {
  it.each(LINKS)('$text', ({ text, language }) => {
    expect(differences(text, language, 6)).toEqual([]);
  });

  it('reads deep and unclosed nesting as the library does', () => {
    for (const text of [
      `${'[[a|'.repeat(200)}x${']]'.repeat(200)}`,
      `${'[[File:A.jpg|'.repeat(100)}x${']]'.repeat(100)}`,
      `${'[[File:A.jpg|thumb|'.repeat(60)}x${']]'.repeat(30)}`,
      '[['.repeat(2000),
      ']]'.repeat(2000),
      `${'[[a]] '.repeat(3000)}[[b`,
      `[[File:A.jpg|${'[[b]] '.repeat(2000)}]]`,
    ]) {
      expect(differences(text, 'en', 6)).toEqual([]);
    }
  });
});

// After all stages, snippets free of the stages others write (no ' '' at all, no list markers).
const LATER: readonly Case[] = [
  { text: 'see [http://example.com/a?b=c Example site] and [//x.org] [http://x.org&lt;y] [http://x.org z]' },
  { text: 'http://foo.bar/baz, (http://a.b/c_(d)) http://x.y/z. http://x.y/z;) https://a.b/&amp; http://a.b/&lt;x ftp://x.y' },
  { text: 'ISBN 978-0-306-40615-7 RFC 1234 PMID 12 ISBN 0 306 40615 2x ISBN 0-306-40615-2 xISBN 0306406152 ISBN&nbsp;0306406152 RFC&#160;12' },
  { text: 'mailto:a@b.c news:x irc://x //x.y [[File:A.jpg|thumb|cap [http://q.com Q] end]] [mailto:x@y.z mail] [news:x]' },
  { text: '[http://x.com] [http://x.com ] [http://x.com  a  b] [ http://x.com a] [http://x.com\ta] [http://x.com"a]' },
  { text: '[http://x.com [[a]]] [[a|[http://x.com b]]] [http://x.com http://y.com] [[a|http://x.com]] [[File:A.jpg|http://x.com]]' },
  { text: '[http://[::1]:80/x ip] http://[2001:db8::1]/x [http://x.com/\u3000y]' },
  { text: '[[a|ISBN 0306406152]] [http://x.com ISBN 0306406152] [[File:A.jpg|ISBN 0306406152]]' },
];

describe('external and magic links (stages 7, 8) against wikiparser-node', () => {
  it.each(LATER)('$text', ({ text, language }) => {
    expect(differences(text, language)).toEqual([]);
  });
});

const CONVERTER: readonly Case[] = [
  { text: 'a -{zh-hans:中国;zh-hant:中國;}- b -{H|zh-cn:x;zh-tw:y}- -{Name}- -{R|raw}- -{A|zh:a=>zh-cn:b;}-', language: 'zh' },
  { text: '-{x;}- -{-{a}-}- -{zh-hans:x&amp;y;zh-hant:z}- -{ |a}- -{T|foo}- -{zh-hans:a;zh-hant:b', language: 'zh' },
  { text: '[[a|-{zh-hans:x;zh-hant:y}-]] [http://x.com -{zh-hans:x;zh-hant:y}-] [[File:A.jpg|-{a|b}-|c]]', language: 'zh' },
  { text: '-{sr-el:Beograd; sr-ec:Београд}- -{flag1;flag2|text}- -{sr-el:a}-', language: 'sr' },
  { text: '-{zh-hans:a}- stays text on English', language: 'en' },
];

describe('language conversion (stage 10) against wikiparser-node', () => {
  it.each(CONVERTER)('$text', ({ text, language }) => {
    expect(differences(text, language)).toEqual([]);
  });
});

/** Pieces of the constructs of the link stages, with comments, tags, templates and HTML among them. */
const PIECES = [
  'a', ' ', '\n', 'é', '|', ':', '#', '=', '[', ']', '[[', ']]', '[[[', ']]]', 'File:', 'Image:', 'Category:', 'de:', 'wikt:', 'Talk:', 'A.jpg', 'B.svg',
  'thumb', '200px', 'x100px', 'upright', 'upright=1.2', 'link=', 'link=Foo', 'link=http://x.org', 'alt=', 'alt=x', 'left', 'frameless', 'page=2', 'lang=de',
  '%20', '%5B', '&amp;', '&nbsp;', '&lt;', '<!--c-->', '<!--', '-->', 'http://x.org', '//y.org', 'mailto:a@b.c', 'ftp://z', '.', ',', ')', '(', '"',
  'ISBN 0306406152', 'RFC 12', 'PMID 3', '-{', '}-', 'zh-hans:', 'zh-hant:', ';', '=>', 'H|', "''", "'''",
  '{{x}}', '{{!}}', '{{=}}', '{{(!}}', '{{', '}}', '{{fullurl:X}}', '<b>', '</b>', '<nowiki>[[n]]</nowiki>', '<ref>[[r|]]</ref>',
];
const pieces = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 });
/** No line starting with a heading's or a list's marker (stages 1 and 9 are others'). */
const lines = (p: readonly string[]): string => `x${p.join('').replaceAll('\n', '\nx')}`;

describe('random wikitext of these stages', () => {
  it('links (stage 5) as the library', () => {
    fc.assert(
      fc.property(pieces, (p) => {
        expect(differences(lines(p), 'en', 6)).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('every stage, without quotes or lists, on a converting wiki', () => {
    fc.assert(
      fc.property(pieces, (p) => {
        // No quotes either (stage 6).
        expect(differences(lines(p).replaceAll("'", ''), 'zh')).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('localized files and categories', () => {
    const ja = fc.array(fc.constantFrom(...PIECES, 'ファイル:', '画像:', 'カテゴリ:', 'サムネイル', '250ピクセル', '左', 'リンク=', '代替文='), { maxLength: 30 });
    fc.assert(
      fc.property(ja, (p) => {
        expect(differences(lines(p), 'ja', 6)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
