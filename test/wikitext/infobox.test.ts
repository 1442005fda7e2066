import { describe, expect, it } from 'vitest';
import { ArticleSchema, parseWikitext } from '../../src/index.js';
import type { Article, Part } from '../../src/index.js';

const parseEn = (text: string): Article => {
  const article = parseWikitext(text, { name: 'Test page', project: 'enwiki', language: 'en' });
  ArticleSchema.parse(article);
  return article;
};
const fieldsOf = (a: Article): Part[] => (a.infoboxes[0]?.has_parts ?? []).flatMap((s) => s.has_parts ?? []);

/** Each footnote in an infobox value is one reference, cited by the field that holds it. */
describe('parseWikitext: footnotes in infobox values', () => {
  const cited = [{ identifier: 'cite_note-1', text: '[1]' }];

  it('a one-cell row of an infobox table', () => {
    const a = parseEn('{| class="infobox"\n! Title\n|-\n| Some text<ref>Ref A</ref>\n|}');
    expect(a.references.map((r) => [r.identifier, r.text.value]), 'one reference').toEqual([['cite_note-1', 'Ref A']]);
    expect(fieldsOf(a), 'the field cites it').toEqual([{ type: 'field', value: 'Some text', citations: cited }]);
  });

  it('a bold data row with figures (a value, not a group name)', () => {
    const a = parseEn("{{Infobox\n| data5 = '''1999<ref>Ref A</ref>'''\n}}");
    expect(a.references.map((r) => [r.identifier, r.text.value]), 'one reference').toEqual([['cite_note-1', 'Ref A']]);
    expect(fieldsOf(a), 'the field cites it').toEqual([{ type: 'field', value: '1999', citations: cited }]);
  });

  it('a one-cell row holding a file: footnotes numbered once, in the order MediaWiki numbers them', () => {
    const a = parseEn('{| class="infobox"\n! Title\n|-\n| [[File:X.jpg|thumb|Cap<ref>F</ref>]] Beside<ref>B</ref>\n|}');
    expect(a.references.map((r) => [r.identifier, r.text.value]), 'two references').toEqual([['cite_note-1', 'F'], ['cite_note-2', 'B']]);
    expect(fieldsOf(a), 'the image cites its caption\'s').toMatchObject([{ type: 'image', value: 'Cap', citations: cited }]);
  });

  it('a bold data row without figures still opens a section, keeping its footnote', () => {
    const a = parseEn("{{Infobox\n| data5 = '''Career<ref>Ref A</ref>'''\n| data6 = x\n}}");
    expect(a.references.map((r) => r.identifier), 'one reference').toEqual(['cite_note-1']);
    expect(a.infoboxes[0]?.has_parts?.map((s) => s.name), 'sections').toEqual(['Test page', 'Career']);
  });
});

/** `Target{{!}}Label` in a value: the template links the value, `{{!}}` is the link's pipe (field.ts pipedLink). */
describe('parseWikitext: a value written as a link target and label', () => {
  it('shows the label, linked to the target', () => {
    const a = parseWikitext("{{НП\n|статус = Город\n|вид региона = Земли Германии{{!}}Земля\n}}\n'''Берлин''' — город.", { project: 'ruwiki', language: 'ru' });
    expect(fieldsOf(a)).toEqual([
      { type: 'field', name: 'статус', value: 'Город' },
      { type: 'field', name: 'вид региона', value: 'Земля', links: [{ url: 'https://ru.wikipedia.org/wiki/Земли_Германии', text: 'Земля' }] },
    ]);
  });

  it('leaves any other {{!}} to the renderer: two pipes, or a target with markup', () => {
    const values = fieldsOf(parseEn('{{Infobox\n| label1 = A\n| data1 = x{{!}}y{{!}}z\n| label2 = B\n| data2 = [[P]]{{!}}Q\n}}')).map((f) => f.value);
    expect(values, 'the pipes are not shown; nothing is dropped').toEqual(['xyz', 'PQ']);
  });
});

/** A row the door reads nothing from is no field: an empty value tells a reader nothing. */
describe('parseWikitext: an infobox table row without a readable value', () => {
  it('gives no field (dewiki__Berlin "Einwohner": a population only a lookup template fetches)', () => {
    const a = parseWikitext(
      '{| class="infobox"\n! Berlin\n|-\n| Einwohner || {{Metadaten Einwohnerzahl DE-BE|Berlin}}\n|-\n| Fläche || 891 km²\n|}',
      { name: 'Berlin', project: 'dewiki', language: 'de' },
    );
    expect(fieldsOf(a), 'only the row with a value').toEqual([{ type: 'field', name: 'Fläche', value: '891 km²' }]);
  });
});
