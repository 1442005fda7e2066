/**
 * What the wikitext door must never leak into text, on any wiki (issue 23): entities, links and
 * files of the page's own namespaces, image options, presentational infobox parameters, numeric
 * superscripts without the caret the HTML door writes; and what it must keep: the positional text
 * of a template without a renderer. Unit cases first, then properties over generated wikitext.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, parseWikitext, wikiProfile } from '../../src/index.js';
import type { Article, Part } from '../../src/index.js';
import { compileVocabulary, hasImageOption, hasNamespacePrefix, markupIn, textStrings } from '../../scripts/conformance/wikitext-checks.js';

const read = (text: string, project = 'enwiki', language = project.replace(/wiki$/, '')): Article =>
  parseWikitext(text, { name: 'Page', project, language });

const fields = (a: Article): Part[] => {
  const out: Part[] = [];
  const walk = (ps: readonly Part[] | undefined): void => {
    for (const p of ps ?? []) {
      if (p.type === 'field') out.push(p);
      walk(p.has_parts);
    }
  };
  walk(a.infoboxes);
  return out;
};

describe('entities, as the HTML door decodes them', () => {
  it('decodes named, numeric and legacy references in running text', () => {
    expect(read('Born (12 November 1940&nbsp;&ndash; 5 December 2002) &#91;a&#x5D; &copy 2001.').abstract).toBe('Born (12 November 1940 – 5 December 2002) [a] © 2001.');
  });

  it('gives the same text as the HTML door for the same characters', () => {
    const html = '<html><head><title>P</title></head><body><section data-mw-section-id="0"><p>A&nbsp;&ndash;&#8212;&eacute;&amp;B</p></section></body></html>';
    expect(read('A&nbsp;&ndash;&#8212;&eacute;&amp;B').abstract).toBe(parse(html).abstract);
  });

  it('decodes in link labels, link targets shown as text, and captions', () => {
    const a = read('[[Tom &amp; Jerry]] and [[A|B&ndash;C]].\n\n[[File:X.jpg|thumb|Caption&nbsp;one]]');
    expect(a.abstract).toBe('Tom & Jerry and B–C.');
    expect(JSON.stringify(a)).not.toMatch(/&(?:amp|ndash|nbsp);/);
  });
});

describe("the page's wiki in the parser", () => {
  it('reads a category link of viwiki as a category, not text', () => {
    const a = read('Hà Nội là thủ đô.\n\n[[Thể loại:Thủ đô châu Á]]', 'viwiki');
    expect(a.abstract).toBe('Hà Nội là thủ đô.');
    expect(JSON.stringify(a)).not.toContain('Thể loại');
  });

  it("reads a jawiki file link with localized options as an image, its caption the only text", () => {
    const a = read('[[ファイル:Genryaku Manyosyu.JPG|サムネイル|250ピクセル|元暦校本万葉集]]\n万葉集は歌集である。', 'jawiki');
    expect(a.abstract).toBe('万葉集は歌集である。');
    const image = a.sections[0]?.has_parts?.find((p) => p.type === 'image');
    expect(image?.value).toBe('元暦校本万葉集');
    expect(image?.images?.[0]?.width).toBe(250);
  });

  it('reads dewiki options (mini, hochkant) as options', () => {
    const a = read('[[Datei:X.jpg|mini|hochkant=1.2|links|Ein Bild]]\nText.', 'dewiki');
    expect(a.sections[0]?.has_parts?.find((p) => p.type === 'image')?.value).toBe('Ein Bild');
    expect(a.abstract).toBe('Text.');
  });
});

describe('infobox fields', () => {
  it('drops presentational parameters by name and by value, in any language', () => {
    const a = read(
      '{{Infobox country\n|common_name=Germany\n|image_flag=Flag of Germany.svg\n|flag_size=125px\n|latd=52\n|capital=[[Berlin]]\n|map=Europe.png\n|width_x=250px\n}}\nGermany is a country.',
    );
    expect(fields(a).map((f) => f.name)).toEqual(['common_name', 'capital']);
  });
});

describe('numeric superscripts', () => {
  it('read with a caret after a letter, digit or bracket, as the HTML door writes them', () => {
    expect(read('An area of 357 km<sup>2</sup> and 10<sup>3</sup> people, the 1<sup>er</sup> arrondissement.').abstract).toBe(
      'An area of 357 km^2 and 10^3 people, the 1er arrondissement.',
    );
  });
});

describe('templates without a renderer', () => {
  it('keep their positional text in running text, language codes left out', () => {
    expect(read('Listed as {{Zz ticker|IBM}} since {{Zz lang|de|Jahr}} 1915.').abstract).toBe('Listed as IBM since Jahr 1915.');
  });

  it('keep their positional text in an infobox value', () => {
    const a = read('{{Infobox company\n|name=Acme\n|products={{Zz list|Rockets|Anvils}}\n|founder=A\n}}\nAcme.');
    expect(fields(a).find((f) => f.name === 'products')?.value).toBe('Rockets Anvils');
  });

  it('show nothing when they stand alone on a line of the page (navboxes, maintenance tags)', () => {
    const a = read('Text here.\n\n{{Zz navbox|Berlin|Paris}}\n');
    expect(a.abstract).toBe('Text here.');
    expect(JSON.stringify(a.sections)).not.toContain('Paris');
  });

  it('give a reference its named values when it has no positional text', () => {
    const a = read('Law.<ref>{{Zz decree|назва=Про статус столиці|дата=1991}}</ref>');
    expect(a.references[0]?.text.value).toBe('Про статус столиці, 1991');
  });
});

// --- Properties -----------------------------------------------------------------------------

/** The page's own vocabulary, from its profile, in the shape the conformance checks take. */
function vocabularyOf(project: string) {
  const p = wikiProfile({ project });
  const imageOptions = ['thumbnail', 'manualthumb', 'framed', 'frameless', 'upright', 'right', 'left', 'center', 'none', 'width', 'alt', 'link', 'border'].flatMap((o) => p.magicWord(`img_${o}`));
  return compileVocabulary({ namespaces: [-2, 6, 10, 14].flatMap((id) => p.namespaceNames(id)), imageOptions, switches: [] });
}

const WIKIS = ['enwiki', 'dewiki', 'jawiki', 'viwiki', 'ruwiki', 'arwiki'] as const;
const word = fc.stringMatching(/^[a-z]{1,8}$/);
const Word = word.map((w) => w[0]!.toUpperCase() + w.slice(1));

/** Well-formed pieces of one wiki: text, links, entities, its file and category links with its own names and options. */
function pieceOf(project: string): fc.Arbitrary<string> {
  const p = wikiProfile({ project });
  const file = fc.constantFrom(...p.namespaceNames(6));
  const category = fc.constantFrom(...p.namespaceNames(14));
  const option = fc.constantFrom(...p.magicWord('img_thumbnail'), ...p.magicWord('img_right'), ...p.magicWord('img_width').map((w) => w.replace('$1', '250')));
  return fc.oneof(
    { weight: 4, arbitrary: word },
    fc.constantFrom('&nbsp;', '&ndash;', '&#91;', '&#x5D;', '&eacute;', '&amp;', 'km<sup>2</sup>'),
    fc.tuple(Word, word).map(([t, l]) => `[[${t}|${l}]]`),
    fc.tuple(file, Word, option, word).map(([ns, name, opt, caption]) => `[[${ns}:${name}.jpg|${opt}|${caption}]]`),
    fc.tuple(category, Word).map(([ns, name]) => `\n[[${ns}:${name}]]\n`),
    fc.tuple(Word, word).map(([name, arg]) => `{{Zz ${name}|${arg}|k=${arg}}}`),
    word.map((w) => `<ref>${w} &ndash; {{Zz cite|t=${w} book}}</ref>`),
  );
}

/** Garbage of every bracket, entity and namespace fragment. */
const FRAGMENTS = ['[[', ']]', '{{', '}}', '{|', '|}', '|', '\n', "''", '&nbsp;', '&ndash;', '&#91;', '&#x7B;', '&lt;', 'File:', 'Category:', 'thumb', '250px', '<ref>', '</ref>', '<sup>', '2', 'x', ' '];
const garbage = fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 4 })), { maxLength: 60 }).map((xs) => xs.join(''));

describe('leak properties', () => {
  it('for any wikitext: no string holds [[, ]], {{, }} or an entity', () => {
    fc.assert(
      fc.property(garbage, fc.constantFrom(...WIKIS), (text, project) => {
        for (const s of textStrings(read(text, project))) {
          const kinds = markupIn(s.text, undefined).filter((k) => k === 'link' || k === 'template' || k === 'entity');
          expect(kinds, `${s.place}: ${s.text} (from ${JSON.stringify(text)})`).toEqual([]);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("for well-formed wikitext of any wiki: no string holds a File:/Category: prefix or an image option of that wiki", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...WIKIS).chain((project) => fc.tuple(fc.constant(project), fc.array(pieceOf(project), { minLength: 1, maxLength: 12 }))),
        ([project, pieces]) => {
          const text = pieces.join(' ');
          const vocabulary = vocabularyOf(project);
          for (const s of textStrings(read(text, project))) {
            const where = `${project} ${s.place}: ${s.text} (from ${JSON.stringify(text)})`;
            expect(markupIn(s.text, vocabulary), where).toEqual([]);
            expect(hasNamespacePrefix(s.text, vocabulary), where).toBe(false);
            expect(hasImageOption(s.text, vocabulary), where).toBe(false);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
