/**
 * The wikitext conformance measures are not blind and not trigger-happy: each check on small
 * strings it must flag and strings it must leave alone, with real vocabularies of the corpus wikis
 * where the corpus is present and a hand-written one otherwise.
 */
import { describe, expect, it } from 'vitest';
import type { Article } from '../../src/index.js';
import { compileVocabulary, hasEntity, hasImageOption, hasNamespacePrefix, isPresentationalField, markupIn, textStrings, UNCARETED_UNIT } from '../../scripts/conformance/wikitext-checks.js';
import { corpusSiteinfo, infoboxExpectation, vocabularyOf, wikitextCorpusDir } from '../../scripts/conformance/wikitext-corpus.js';
import { blankRefs, headInfoboxTable, headTemplates, plainHeading, proseLetters, sourceSections } from '../../scripts/conformance/wikitext-source.js';

const folder = wikitextCorpusDir();

/** A vocabulary as the checks see it, written out (viwiki's names, MediaWiki's English defaults). */
const vi = compileVocabulary({
  namespaces: ['Media', 'File', 'Image', 'Template', 'Category', 'Phương tiện', 'Tập tin', 'Hình', 'Bản mẫu', 'Thể loại'],
  imageOptions: ['nhỏ', 'thumb', 'thumbnail', 'phải', 'right', '$1px', 'upright=$1', 'alt=$1'],
  switches: ['__NOTOC__', '__KHÔNGMỤCLỤC__'],
});

describe('markup left in a string', () => {
  it('names each kind of leftover', () => {
    expect(markupIn('a [[b]] c', vi)).toEqual(['link']);
    expect(markupIn('a {{b}} c', vi)).toEqual(['template']);
    expect(markupIn('{| class=x', vi)).toEqual(['table']);
    expect(markupIn("''italic''", vi)).toEqual(['quotes']);
    expect(markupIn('a<ref name=x>', vi)).toEqual(['tag']);
    expect(markupIn('x </div> y', vi)).toEqual(['tag']);
    expect(markupIn('x <!-- c', vi)).toEqual(['tag']);
    expect(markupIn('(12 November 1940 &ndash; 5 December 2002)', vi)).toEqual(['entity']);
    expect(markupIn('a&#124;b', vi)).toEqual(['entity']);
    expect(markupIn('__KHÔNGMỤCLỤC__ text', vi)).toEqual(['switch']);
    expect(markupIn('__NOTOC__', undefined)).toEqual(['switch']);
    expect(markupIn('-{zh-hans:联邦州; zh-hant:邦}-', vi)).toEqual(['variant']);
  });

  it('leaves text alone', () => {
    for (const s of ['AT&T; Johnson & Johnson', 'a < b and c > d', "l'aikido", 'x = 3 &foo; y', '1 ≤ 2', 'km²', 'C++ {x}']) {
      expect(markupIn(s, vi), s).toEqual([]);
    }
    expect(hasEntity('&amp')).toBe(false);
    expect(hasEntity('&nbsp;')).toBe(true);
  });
});

describe('namespace-prefixed text', () => {
  it('finds the wiki’s names and aliases and the English ones, in any case, with _ or space', () => {
    expect(hasNamespacePrefix('Thể loại:Tỷ phú Hoa Kỳ', vi)).toBe(true);
    expect(hasNamespacePrefix('… Thể_loại:Nhà thơ', vi)).toBe(true);
    expect(hasNamespacePrefix('tập tin:X.jpg|nhỏ', vi)).toBe(true);
    expect(hasNamespacePrefix('see Category:Foo', vi)).toBe(true);
    expect(hasNamespacePrefix('Image : x.png', vi)).toBe(true);
  });

  it('needs the name to start a word in spaced scripts, and something after the colon', () => {
    expect(hasNamespacePrefix('Subcategory:x', vi)).toBe(false);
    expect(hasNamespacePrefix('Tập tin', vi)).toBe(false);
    expect(hasNamespacePrefix('the category: ', vi)).toBe(false);
    const ja = compileVocabulary({ namespaces: ['ファイル', 'カテゴリ'], imageOptions: [], switches: [] });
    expect(hasNamespacePrefix('日本の地図ファイル:Japan.svg', ja), 'no word spaces in Japanese').toBe(true);
  });
});

describe('image options as text', () => {
  it('flags a |-separated option or a width token', () => {
    expect(hasImageOption('nhỏ|phải|250px|Kinh thành Huế', vi)).toBe(true);
    expect(hasImageOption('x|upright=1.2|y', vi)).toBe(true);
    expect(hasImageOption('Kinh thành 250px rộng', vi)).toBe(true);
    expect(hasImageOption('x|250x120px', vi)).toBe(true);
  });

  it('does not flag the words in running text', () => {
    expect(hasImageOption('the right thumb', vi)).toBe(false);
    expect(hasImageOption('a|b', vi)).toBe(false);
    expect(hasImageOption('250 px', vi)).toBe(false);
  });

  it.skipIf(folder === undefined)('reads the localized words of the corpus wikis (ja サムネイル, 250ピクセル; de mini)', () => {
    const ja = compileVocabulary(vocabularyOf(corpusSiteinfo(folder!, 'jawiki')));
    expect(hasImageOption('ファイル:Genryaku Manyosyu.JPG|サムネイル|250ピクセル|万葉集', ja)).toBe(true);
    expect(hasNamespacePrefix('ファイル:Genryaku Manyosyu.JPG', ja)).toBe(true);
    expect(hasNamespacePrefix('Category:日本', ja), 'jawiki calls namespace 14 Category').toBe(true);
    expect(hasNamespacePrefix('カテゴリ:日本', ja), 'and accepts カテゴリ').toBe(true);
    const de = compileVocabulary(vocabularyOf(corpusSiteinfo(folder!, 'dewiki')));
    expect(hasImageOption('Bild:X.jpg|mini|hochkant=1.2|Text', de)).toBe(true);
    expect(hasImageOption('Er ging nach links.', de)).toBe(false);
    expect(markupIn('__KEIN_INHALTSVERZEICHNIS__', de)).toEqual(['switch']);
  });
});

describe('superscripts and presentational fields', () => {
  it('flags a unit read without its caret', () => {
    expect(UNCARETED_UNIT.test('357,021 km2')).toBe(true);
    expect(UNCARETED_UNIT.test('179 hab/km2,')).toBe(true);
    expect(UNCARETED_UNIT.test('357,021 km^2')).toBe(false);
    expect(UNCARETED_UNIT.test('357,021 km²')).toBe(false);
    expect(UNCARETED_UNIT.test('A4 paper, H2O, km2x')).toBe(false);
  });

  it('knows presentational parameters by name or value', () => {
    for (const [name, value] of [
      ['flag_size', '125px'],
      ['image_flag', 'Flag of Germany.svg'],
      ['latd', '52'],
      ['long_EW', 'E'],
      ['bodystyle', 'width:22em'],
      ['alt', 'A map'],
      ['image_caption', 'The skyline'],
      ['imagen', 'Berlin.jpg'],
      ['bandeira', 'Flag of Berlin.svg'],
      ['anything', '250x200px'],
    ]) {
      expect(isPresentationalField(name!, value), name).toBe(true);
    }
    for (const [name, value] of [
      ['population', '3,600,000'],
      ['capital', 'Berlin'],
      ['area_total_km2', '891.8'],
      ['classis', 'Gastropoda'],
      ['salt', 'yes'],
    ]) {
      expect(isPresentationalField(name!, value), name).toBe(false);
    }
  });
});

describe('the text strings of an Article', () => {
  it('reads every text a reader sees, and no URL, identifier or template parameter', () => {
    const a: Article = {
      abstract: 'A',
      description: 'D',
      sections: [{ type: 'section', name: 'abstract', has_parts: [{ type: 'paragraph', value: 'P', links: [{ url: 'https://x/', text: 'L' }], citations: [{ identifier: 'cite_note-1', text: '[1]' }] }] },
        { type: 'section', name: 'H', has_parts: [{ type: 'formula', value: '{{x}}' }, { type: 'image', images: [{ content_url: 'https://u/', caption: 'C', alternative_text: 'T' }] }] }],
      infoboxes: [{ type: 'infobox', name: 'Infobox x', has_parts: [{ type: 'field', name: 'F', value: 'V' }] }],
      tables: [{ identifier: 't1', headers: [[{ value: 'TH' }]], rows: [[{ value: 'TD', links: [{ url: 'https://y/', text: 'TL' }] }]], confidence_score: 1 }],
      references: [{ identifier: 'cite_note-1', group: null, type: 'web', metadata: { title: 'M', url: 'https://z/&amp;' }, template: { name: 'cite web', parameters: { title: "''M''" } }, text: { value: 'R' } }],
    };
    expect(textStrings(a).map((s) => `${s.place}:${s.text}`)).toEqual([
      'abstract:A', 'description:D', 'paragraph:P', 'link:L', 'citation:[1]', 'heading:H', 'image:C', 'image:T',
      'infobox:Infobox x', 'field-name:F', 'field:V', 'table:TH', 'table:TD', 'link:TL', 'reference:R', 'metadata:M',
    ]);
  });
});

describe('reading the source', () => {
  const source = [
    '{{Hatnote|x}}',
    '{{Infobox city|name=Ber|population=3|area=8|image=|logo=  }}',
    '{| class="wikitable infobox" style="x"',
    "'''Berlin'''<ref>{{cite web|title=T|url=u|date=d}}</ref> is.<ref name=a></ref><ref name=b><!-- x --></ref><ref name=a/>",
    '== History [[File:Icon.svg|20px|x]] ==',
    'Text of history with many letters here.',
    '=== [[Target|Shown]] ===',
    '* [[A]]',
    '* [http://x.example Link]',
    '<!-- == Hidden == -->',
  ].join('\n');

  it('finds the head templates with their named non-blank parameters, outside refs', () => {
    expect(headTemplates(source)).toEqual([
      { name: 'Hatnote', named: 0 },
      { name: 'Infobox city', named: 3 },
    ]);
    expect(headInfoboxTable(source)).toBe(true);
    expect(headInfoboxTable('text\n{| class="infobox"\n')).toBe(true);
    expect(headInfoboxTable('== H ==\n{| class="infobox"\n')).toBe(false);
  });

  it('reads headings as shown, with the prose of each section', () => {
    expect(sourceSections(source)).toEqual([
      { level: 2, title: 'History', prose: 32 },
      { level: 3, title: 'Shown', prose: 0 },
    ]);
    expect(plainHeading("''Notes'' {{anchor|n}}<ref>r</ref> &amp; [[A|B]]")).toBe('Notes & B');
    expect(proseLetters('* Author, Title. Moscow, 1990.')).toBe(17);
  });

  it('counts blank refs', () => {
    expect(blankRefs(source)).toBe(2);
  });

  it('expects an infobox by table class, by shape, or by the layout note with parameters', () => {
    expect(infoboxExpectation(source, '').expected).toBe(true);
    const many = `{{Yerleşim bilgi kutusu|${Array.from({ length: 12 }, (_, i) => `p${i}=v`).join('|')}}}\nText`;
    expect(infoboxExpectation(many, '').expected).toBe(true);
    expect(infoboxExpectation('{{Πόλη}}\nText', 'town, infobox (Πόλη)')).toEqual({ expected: false, why: 'layout note names an infobox, called without parameters (Wikidata)' });
    expect(infoboxExpectation('{{Infobox x|a=1|b=2|c=3}}\nText', 'biography, infobox').expected).toBe(true);
    expect(infoboxExpectation('{{Infobox x|a=1|b=2|c=3}}\nText', 'biography without infobox').expected).toBe(false);
  });
});
