/**
 * Formatting templates whose text the wikitext door writes by the data rules of
 * grammar/wikitext.json `text` (names and `patterns`), and citation templates whose parameters
 * grammar/citations.json maps to CS1's names (issue 23): each expected text is what the wiki
 * renders (the HTML of the corpus envelopes where they hold the template), read off the wiki's
 * template documentation otherwise.
 */
import { describe, expect, it } from 'vitest';
import { parseWikitext } from '../../src/index.js';
import type { Article, Part } from '../../src/index.js';
import { citationMetadata } from '../../src/engine/citation-metadata.js';
import { wikiProfile } from '../../src/engine/wiki/profile.js';
import { textPatternRule } from '../../src/engine/wiki/templates.js';

function article(language: string, wikitext: string): Article {
  return parseWikitext(wikitext, { name: 'Testseite', language, project: `${language}wiki` });
}

/** The first paragraph's text. */
function paragraph(language: string, wikitext: string): string {
  const parts: Part[] = article(language, wikitext).sections?.[0]?.has_parts ?? [];
  return parts.find((p) => p.type === 'paragraph')?.value ?? '';
}

describe('formatting templates of issue 23, as the wiki renders them', () => {
  it('maintenance tags around the words they tag show those words; given a date only, nothing', () => {
    expect(paragraph('it', 'Fiera. {{Senza fonte|Oltre il 13% dei brevetti tedeschi proviene da [[Berlino]]}}.')).toBe('Fiera. Oltre il 13% dei brevetti tedeschi proviene da Berlino.');
    expect(paragraph('fr', 'Il a influencé des linguistes. {{refnec|Il est l\'inspirateur de [[Leonard Bloomfield]]|date=mars 2020}}. Fin.')).toBe('Il a influencé des linguistes. Il est l\'inspirateur de Leonard Bloomfield. Fin.');
    expect(paragraph('pl', 'Kultur brązu. {{Fakt|[[Germanie]] pojawili się tam|data=2010-05}}')).toBe('Kultur brązu. Germanie pojawili się tam');
    expect(paragraph('fr', 'Une affirmation.{{Référence nécessaire|date=mars 2020}} Suite.')).toBe('Une affirmation. Suite.');
  });

  it('enwiki {{shy}}, {{USC}}, {{As of}}', () => {
    expect(paragraph('en', "His thesis ''{{shy|Eine neue Be|stimm|ung}}'' was accepted.")).toBe('His thesis Eine neue Bestimmung was accepted.');
    expect(paragraph('en', 'Defined in {{USC|8|1101}}.')).toBe('Defined in 8 U.S.C. § 1101.');
    expect(paragraph('en', 'The party held, {{As of|2024|lc=y}}, most seats.')).toBe('The party held, as of 2024, most seats.');
    expect(paragraph('en', '{{As of|2020|5}}, it had ten members.')).toBe('As of May 2020, it had ten members.');
  });

  it('list templates: an item that shows nothing (only a footnote) takes no separator; frwiki {{,}} between footnotes is not text', () => {
    expect(paragraph('ja', '備考：{{Bulleted list|<ref>出典</ref>|<ref>別の出典</ref>}}。\n\n<references/>')).toBe('備考：。');
    expect(paragraph('en', 'Known as {{ubl|<ref>a</ref>|Pat|Sam}}.\n\n<references/>')).toBe('Known as Pat; Sam.');
    expect(paragraph('fr', 'Religions en Autriche<ref>a</ref>{{,}}<ref>b</ref>.\n\n<references/>')).toBe('Religions en Autriche.');
    expect(paragraph('ur', "'''ولیم''' (1564؛ 1616){{Ref label|ا|ا|none}} ایک مصنف"), 'a footnote marker template').toBe('ولیم (1564؛ 1616) ایک مصنف');
  });

  it('abbreviation templates show the abbreviation, not its tooltip (nl {{Afkorting}}, fr {{abréviation}})', () => {
    expect(paragraph('nl', 'De {{Afkorting|GewSt|Gewerbesteuer}} is hoog.')).toBe('De GewSt is hoog.');
    expect(paragraph('fr', "L'{{abréviation|ONU|Organisation des Nations unies}} siège à New York.")).toBe("L'ONU siège à New York.");
  });

  it('frwiki ordinals and centuries, with the word after them', () => {
    expect(paragraph('fr', 'Le {{2e|régiment}} étranger et le {{1er}} mai.')).toBe('Le 2e régiment étranger et le 1er mai.');
    expect(paragraph('fr', 'Au {{1er|semestre}} 1990, la {{1re|classe}}, le {{153e}} jour.')).toBe('Au 1er semestre 1990, la 1re classe, le 153e jour.');
    expect(paragraph('fr', 'Au {{XIXe siècle}} et au {{s-|XIX|e}}, sous François {{Ier}}.')).toBe('Au XIXe siècle et au XIXe siècle, sous François Ier.');
  });

  it('frwiki {{heure}} and {{numéro}}', () => {
    expect(paragraph('fr', 'La procession part à {{heure|9}} et revient à {{heure|21|30}}.')).toBe('La procession part à 9 h et revient à 21 h 30.');
    expect(paragraph('fr', 'Sacco et Vanzetti, {{numéro|2}}, décembre 1987.')).toBe('Sacco et Vanzetti, no 2, décembre 1987.');
  });

  it('dewiki {{Zukunft}} shows nothing; {{Webarchiv|text=…}} shows its title, in the text and in a reference', () => {
    expect(paragraph('de', 'In Ulm wird bis 2029{{Zukunft|2029}} ein Zentrum eröffnet.')).toBe('In Ulm wird bis 2029 ein Zentrum eröffnet.');
    const a = article('de', 'Siehe {{Webarchiv|url=http://example.org/a|text=Von E=mc² zur Atombombe|wayback=20080430}}<ref>{{Webarchiv|url=http://example.org/b|text=Einstein und die Akademie|wayback=20071211}}</ref>');
    expect(a.sections?.[0]?.has_parts?.[0]?.value, 'a citation template outside <ref> reads as its citation text').toBe('Siehe Von E=mc² zur Atombombe.');
    expect(a.references?.[0]?.metadata?.title).toBe('Einstein und die Akademie');
    expect(a.references?.[0]?.text?.value).toBe('Einstein und die Akademie.');
  });

  it('the rules the grammar held without a consumer: units, suffixes, the page name', () => {
    expect(paragraph('en', 'Area {{convert|891.82|km2|sqmi}}, height {{height|ft=6|in=2}}.')).toBe('Area 891.82 km^2, height 6 ft 2 in.');
    expect(paragraph('en', 'See {{IMDb name|0000487}}.')).toBe('See Testseite at IMDb.');
  });

  it('formatting templates of other languages in the wikitext corpus', () => {
    expect(paragraph('uk', '{{Legend|#CFCFCF|федеративні держави}}')).toBe('федеративні держави');
    expect(paragraph('ja', '{{生年月日と年齢|1938|1|14}}生まれ')).toBe('1938年1月14日生まれ');
    expect(paragraph('it', 'Gemellata con {{Gemellaggio|Italia|Trento|1966}}.')).toBe('Gemellata con Trento.');
    expect(paragraph('fr', 'Population {{smn|1897491|7}} habitants, {{tmp|2|°C}}.')).toBe('Population 1897491 habitants, 2 °C.');
    expect(paragraph('ru', 'В {{нп5|Баварский квартал|Баварском квартале|de|Bayerisches Viertel}} жил Эйнштейн.')).toBe('В Баварском квартале жил Эйнштейн.');
    expect(paragraph('ja', '{{仮リンク|テラダイン|en|Teradyne}}（菊池郡）')).toBe('テラダイン（菊池郡）');
    expect(paragraph('sv', 'Källa: {{ISBN|3-411-06252-5}}.')).toBe('Källa: ISBN 3-411-06252-5.');
    expect(paragraph('es', '{{bar percent|[[Irreligión]]|Gold|61.2}}')).toBe('Irreligión 61.2%');
    expect(paragraph('fr', 'Une vignette coûte {{euro|77.80}}, {{incise|notamment en hiver}} et {{en langue|de|Österreich}}.')).toBe('Une vignette coûte 77.80 €, — notamment en hiver — et Österreich.');
    expect(paragraph('uk', 'Команов ({{ДН|4|2|1924}} — {{ДС|||2003}}) — фахівець.'), 'day, month, year; the year alone').toMatch(/^Команов \(4 лютого 1924( р\.)? — 2003\) — фахівець\.$/);
    expect(paragraph('ru', 'Институт ({{iw|Институт имени Отто Гана|||Max Planck Institute for Chemistry}}).')).toBe('Институт (Институт имени Отто Гана).');
  });

  it('a name pattern is a whole name: no ordinal rule for other templates that start like one', () => {
    expect(textPatternRule('2e')).toBeDefined();
    expect(textPatternRule('xixe siècle')).toBeDefined();
    for (const name of ['2e guerre mondiale', 'de', 'e', 'siècle', 'xixe siècle en france', '12']) expect(textPatternRule(name), name).toBeUndefined();
  });
});

describe('citation parameters of issue 23 in the CS1 vocabulary', () => {
  it('ukwiki {{Відомості ВР УРСР|Назва=…}}, ruwiki {{БРЭ|статья=…}}', () => {
    expect(wikiProfile({ project: 'ukwiki' }).citationType('Відомості ВР УРСР')).toBe('journal');
    expect(citationMetadata('Відомості ВР УРСР', { Назва: 'Про скасування', від: '11 серпня 1948 р.', рік: '1948', '№': '5', 'стор.': '14' })).toEqual({
      title: 'Про скасування',
      date: '11 серпня 1948 р.',
      year: '1948',
      issue: '5',
      page: '14',
    });
    expect(wikiProfile({ project: 'ruwiki' }).citationType('БРЭ')).toBe('encyclopedia');
    expect(citationMetadata('БРЭ', { статья: 'Берлин', автор: 'О. В. Вишлёв', год: '2004' })).toEqual({ title: 'Берлин', author: 'О. В. Вишлёв', year: '2004' });
  });

  it('a reference made of one of them has its title and text', () => {
    const a = article('ru', 'Берлин.<ref>{{БРЭ |статья=Берлин |id=5655652 |автор=О. В. Вишлёв |год=2004 }}</ref>');
    expect(a.references?.[0]?.type).toBe('encyclopedia');
    expect(a.references?.[0]?.metadata?.title).toBe('Берлин');
    expect(a.references?.[0]?.text?.value).toBe('О. В. Вишлёв (2004). Берлин.');
  });
});
