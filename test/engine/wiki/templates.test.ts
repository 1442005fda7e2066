/**
 * Template knowledge per wiki (grammar/wikitext.json `infobox`, grammar/citations.json, through
 * WikiProfile): localized infobox names, hidden metadata, templates that are never infoboxes,
 * infobox sequences, presentational parameters, citation templates and their parameters in the
 * one CS1 vocabulary — on the names the issue and the wikitext corpus use, and, where the corpus
 * is present, on every infobox at the head of its articles.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { citationMetadata } from '../../../src/engine/citation-metadata.js';
import { wikiProfile } from '../../../src/engine/wiki/profile.js';
import { isPresentationalParameter, parameterKey, unitDisplay } from '../../../src/engine/wiki/templates.js';
import { infoboxExpectation, wikitextCases, wikitextCorpusDir } from '../../../scripts/conformance/wikitext-corpus.js';
import { headTemplates } from '../../../scripts/conformance/wikitext-source.js';

const folder = wikitextCorpusDir();

describe('template names on a wiki', () => {
  it('takes off the wiki’s Template namespace and subst:, keeps a colon that is no namespace', () => {
    expect(wikiProfile({ project: 'enwiki' }).templateName('Template:Infobox_person ')).toBe('infobox person');
    expect(wikiProfile({ project: 'dewiki' }).templateName('Vorlage:Infobox Person')).toBe('infobox person');
    expect(wikiProfile({ project: 'jawiki' }).templateName('テンプレート:基礎情報 国')).toBe('基礎情報 国');
    expect(wikiProfile({ project: 'enwiki' }).templateName('subst:Foo')).toBe('foo');
    const uk = wikiProfile({ project: 'ukwiki' });
    expect(uk.templateName('Картка:Лідер')).toBe('картка:лідер');
    expect(uk.templateName('Шаблон:Картка:Лідер')).toBe('картка:лідер');
    expect(wikiProfile({ project: 'enwiki' }).templateName('Wikipedia:Foo'), 'another namespace stays').toBe('wikipedia:foo');
  });
});

describe('infoboxes', () => {
  it('knows the localized infoboxes issue 23 names and the corpus uses', () => {
    const cases: [string, string][] = [
      ['ruwiki', 'Государство'],
      ['ruwiki', 'НП'],
      ['jawiki', '基礎情報 国'],
      ['afwiki', 'Inligtingskas Persoon'],
      ['hywiki', 'Տեղեկաքարտ Երկիր'],
      ['plwiki', 'Miejscowość infobox'],
      ['kowiki', '도시 정보'],
      ['trwiki', 'Yerleşim bilgi kutusu'],
      ['ukwiki', 'Картка:Лідер'],
      ['viwiki', 'Thông tin nhà văn'],
      ['mrwiki', 'माहितीचौकट गायक'],
      ['arwiki', 'صندوق معلومات تجمع سكاني'],
      ['svwiki', 'Geobox'],
      ['eswiki', 'Ficha de persona'],
      ['enwiki', 'Infobox settlement'],
    ];
    for (const [project, name] of cases) expect(wikiProfile({ project }).isInfobox(name), `${project} {{${name}}}`).toBe(true);
  });

  it('never takes hidden metadata, hatnotes, navboxes, coordinates or helper subpages for infoboxes', () => {
    const de = wikiProfile({ project: 'dewiki' });
    for (const name of ['Personendaten', 'Persondata']) {
      expect(de.isHiddenMetadata(name), name).toBe(true);
      expect(de.isInfobox(name), name).toBe(false);
      expect(de.isNeverInfobox(name), name).toBe(true);
    }
    for (const name of ['Coordinate', 'Begriffsklärungshinweis', 'Navbox with columns', 'NoteTA', 'Weather box', 'Multiple image']) {
      expect(de.isNeverInfobox(name), name).toBe(true);
      expect(de.isInfobox(name), name).toBe(false);
    }
    expect(wikiProfile({ project: 'frwiki' }).isInfobox('Population de France/dernière année Infobox'), 'a subpage is no box by its ending').toBe(false);
    expect(de.isNeverInfobox('Infobox Person')).toBe(false);
  });

  it('knows frwiki’s taxobox written as a sequence', () => {
    const fr = wikiProfile({ project: 'frwiki' });
    expect(fr.infoboxSequence('Taxobox début')).toBe('start');
    expect(fr.infoboxSequence('Taxobox fin')).toBe('end');
    expect(fr.infoboxSequence('Taxobox')).toBeUndefined();
  });

  it.skipIf(folder === undefined)('recognises every infobox with parameters at the head of a corpus article', () => {
    let checked = 0;
    for (const c of wikitextCases(folder!)) {
      const source = readFileSync(c.path, 'utf8');
      const expectation = infoboxExpectation(source, c.layout);
      // dewiki Berlin's box is a wiki table with class infobox, no template.
      if (!expectation.expected || expectation.why.startsWith('table')) continue;
      const profile = wikiProfile({ project: c.project });
      const heads = headTemplates(source).filter((t) => t.named >= 3);
      checked++;
      expect(heads.some((t) => profile.isInfobox(t.name)), `${c.name}: ${heads.map((t) => t.name).join(', ')}`).toBe(true);
    }
    expect(checked).toBeGreaterThanOrEqual(35);
  });
});

describe('presentational parameters', () => {
  it('by name, in English and the corpus languages, and by a file-name or size value', () => {
    for (const [name, value] of [
      ['flag_size', '125px'],
      ['image_flag', 'Flag of Germany.svg'],
      ['latd', '52'],
      ['lat_deg', '52'],
      ['image caption', 'The skyline'],
      ['map_alt', 'Map'],
      ['bodystyle', 'width:22em'],
      ['imagem_tamanho', '280px'],
      ['görüntü_boyutu', '250'],
      ['описание изображения', 'Вид'],
      ['画像の説明', '熊本城'],
      ['위도도', '52'],
      ['bandeira', 'Flag of Berlin.svg'],
      ['anything', '250x200px'],
      ['commons', 'Category:Berlin'],
    ] as const) {
      expect(isPresentationalParameter(name, value), name).toBe(true);
    }
    for (const [name, value] of [
      ['population_total', '3,600,000'],
      ['capital', 'Berlin'],
      ['area_total_km2', '891.8'],
      ['classis', 'Gastropoda'],
      ['width', '45 km'],
      ['население', '3 677 472'],
    ] as const) {
      expect(isPresentationalParameter(name, value), name).toBe(false);
    }
    expect(parameterKey(' Image__Caption ')).toBe('image caption');
  });

  it('reads Module:Convert units as the HTML door writes them', () => {
    expect(unitDisplay('km2')).toBe('km^2');
    expect(unitDisplay('sqmi')).toBe('sq mi');
    expect(unitDisplay('km')).toBe('km');
  });
});

describe('citation templates per wiki, in the one CS1 vocabulary', () => {
  it('types the localized templates of the corpus', () => {
    const cases: [string, string, string][] = [
      ['viwiki', 'Chú thích web', 'web'],
      ['viwiki', 'Chú thích tạp chí', 'journal'],
      ['bnwiki', 'ওয়েব উদ্ধৃতি', 'web'],
      ['mrwiki', 'स्रोत पुस्तक', 'book'],
      ['plwiki', 'Cytuj', 'citation'],
      ['fawiki', 'یادکرد وب', 'web'],
      ['svwiki', 'Webbref', 'web'],
      ['ruwiki', 'Книга', 'book'],
      ['ruwiki', 'Статья', 'journal'],
      ['trwiki', 'Web kaynağı', 'web'],
      ['nlwiki', 'Citeer web', 'web'],
      ['arwiki', 'استشهاد ويب', 'web'],
      ['kowiki', '웹 인용', 'web'],
      ['jawiki', 'Cite web', 'web'],
    ];
    for (const [project, name, type] of cases) expect(wikiProfile({ project }).citationType(name), `${project} {{${name}}}`).toBe(type);
    expect(wikiProfile({ project: 'frwiki' }).citationType('Citation'), 'frwiki {{Citation}} is a quotation').toBeUndefined();
    expect(wikiProfile({ project: 'enwiki' }).citationType('Citation')).toBe('citation');
  });

  it('maps their parameters as the corpus writes them', () => {
    expect(citationMetadata('ওয়েব উদ্ধৃতি', { ইউআরএল: 'https://x', শিরোনাম: 'T', 'সংগ্রহের-তারিখ': '2020', প্রকাশক: 'P', শেষাংশ: 'L' })).toEqual({
      url: 'https://x',
      title: 'T',
      'access-date': '2020',
      publisher: 'P',
      last: 'L',
    });
    expect(citationMetadata('Chú thích web', { 'tiêu đề': 'T', 'ngày truy cập': 'd', 'họ 1': 'Nguyễn', 'tên 1': 'Du', 'họ 2': 'Trần' })).toEqual({
      title: 'T',
      'access-date': 'd',
      last: 'Nguyễn',
      first: 'Du',
      last2: 'Trần',
    });
    expect(citationMetadata('Cytuj', { tytuł: 'T', s: '12', 'data dostępu': 'd', opublikowany: 'W' })).toEqual({ title: 'T', pages: '12', 'access-date': 'd', work: 'W' });
    expect(citationMetadata('Книга', { автор: 'A', заглавие: 'T', издание: '2-е', год: '1990' })).toEqual({ author: 'A', title: 'T', edition: '2-е', year: '1990' });
    expect(citationMetadata('Статья', { заглавие: 'T', издание: 'Вестник' })).toEqual({ title: 'T', work: 'Вестник' });
    expect(citationMetadata('Webbref', { titel: 'T', hämtdatum: 'd', utgivare: 'P' })).toEqual({ title: 'T', 'access-date': 'd', publisher: 'P' });
    expect(citationMetadata('יישום', {}), 'no parameters, no metadata').toEqual({});
  });
});
