/**
 * The block rules that make no text: navigation boxes, hidden metadata and maintenance tags
 * (rules/navigation.ts), and reference lists (rules/reference-list.ts), each alone on a real
 * parsed page with a real collector and the reference pass.
 */
import { describe, expect, it } from 'vitest';
import type { Part } from '../../../src/schema/article.js';
import { ReferenceBook } from '../../../src/engine/reference/wikitext.js';
import { WIKITEXT_PRESET } from '../../../src/engine/wikitext/preset.js';
import { navigation } from '../../../src/engine/wikitext/rules/navigation.js';
import { referenceList } from '../../../src/engine/wikitext/rules/reference-list.js';
import { runRule, scope, topLevel, walkPage, walkerFor } from './harness.js';

const walk = walkPage;

const texts = (parts: readonly Part[]): string[] => parts.flatMap((p) => [...(p.value === undefined ? [] : [p.value]), ...texts(p.has_parts ?? [])]);
const pageText = (walker: { tree: { sections: Part[] } }): string[] => texts(walker.tree.sections);
const template = (wikitext: string) => topLevel(wikitext).find((n) => n.type === 'template')!;

// urwiki__پاکستان of the corpus: {{Geographic Location}}, which enwiki renders as a `div.navbox`.
const GEOGRAPHIC = 'Before.\n{{Geographic Location\n|Northwest={{پرچم|افغانستان}}\n|North={{پرچم|چین}}\n|Centre={{پرچم|پاکستان}}\n|South=[[بحیرہ عرب]]<br />[[خلیج فارس]]\n}}\nAfter.';
// A navigation box of a name no list holds, built as {{Navbox}} is called: titles and lists of links.
const NAVBOX = "Before.\n{{Neighbourhoods of Berlin\n|title=Neighbourhoods of [[Berlin]]\n|group1=[[Mitte (locality)|Mitte]]\n|list1=[[Moabit]] · [[Hansaviertel]] · {{nowrap|[[Tiergarten (locality)|Tiergarten]]}}\n|group2=Pankow\n|list2=[[Prenzlauer Berg]] · {{nowrap|[[Weißensee]]}}<ref>Bezirksamt Pankow.</ref>\n}}\nAfter.";

describe('wikitext rule: navigation', () => {
  it('takes a navigation box, hidden metadata or maintenance tag alone on its line', () => {
    expect(navigation.test(template(GEOGRAPHIC), walkerFor().walker)).toBe(true);
    expect(navigation.test(template(NAVBOX), walkerFor().walker)).toBe(true);
    expect(navigation.test(template('{{Personendaten\n|NAME=Lee, Ang\n|KURZBESCHREIBUNG=taiwanischer Filmregisseur\n}}'), walkerFor().walker)).toBe(true);
    expect(navigation.test(template('{{Métadonnées personne|nom=Meillet}}'), walkerFor().walker)).toBe(true);
  });
  it('leaves content templates, prose and positional text to the other rules', () => {
    const { walker } = walkerFor();
    // A box of prose (a quotation), a table of figures, a list of links given as one positional block, coordinates.
    expect(navigation.test(template('{{Blockquote|text=A long quotation of several words by [[Someone]].|author=[[Someone]]}}'), walker)).toBe(false);
    expect(navigation.test(template('{{Weather box|location=[[Berlin]]|Jan high C=3.3|Feb high C=5.0}}'), walker)).toBe(false);
    expect(navigation.test(template('{{Colonnes|nombre=2|\n* [[Lyon]]\n* [[Paris]]\n}}'), walker)).toBe(false);
    expect(navigation.test(template('{{Coord|52|31|N|13|24|E|display=title}}'), walker)).toBe(false);
    // Not alone on its line: part of the text.
    expect(navigation.test(topLevel('See {{Neighbourhoods|a=[[A]]|b=[[B]]}} here.').find((n) => n.type === 'template')!, walker)).toBe(false);
  });
  it('gives no text at all: nothing of a flag or a nowrap inside leaks, and the lines around stay paragraphs', () => {
    expect(pageText(walk(GEOGRAPHIC).walker)).toEqual(['Before.', 'After.']);
    expect(pageText(walk(NAVBOX).walker)).toEqual(['Before.', 'After.']);
  });
  it('a footnote written inside is still a footnote of the page', () => {
    const { walker } = runRule(navigation, template(NAVBOX));
    expect(walker.uses.map((u) => u.kind)).toEqual(['ref']);
    expect(pageText(walker)).toEqual([]);
  });
});

describe('wikitext rule: reference-list', () => {
  it('takes <references/>, {{reflist}} and the wikis\' own reference lists alone on their line', () => {
    const { walker } = walkerFor();
    expect(referenceList.test(topLevel('<references />').find((n) => n.type === 'ext')!, walker)).toBe(true);
    for (const name of ['Reflist|30em', 'Przypisy', 'Примечания', 'Listaref|2', 'Kaynakça', 'Tham khảo'])
      expect(referenceList.test(template(`{{${name}}}`), walker), name).toBe(true);
    expect(referenceList.test(template('{{Main|Berlin}}'), walker)).toBe(false);
  });
  it('makes no text; the references it holds are collected after those cited before it, a cited one once', () => {
    // plwiki__Berlin of the corpus: {{Przypisy|…}} holding list-defined references, "b" cited
    // there through {{r|b}}, which the walk does not read as a footnote: only the list shows it.
    const page = 'Berlin.<ref name="a"/> Stolica.\n\n== Przypisy ==\n{{Przypisy|\n<ref name="a">Źródło A.</ref>\n<ref name="b">Źródło B.</ref>\n}}';
    const { walker, tree } = walk(page);
    expect(pageText(walker)).toEqual(['Berlin. Stolica.']);
    expect(new ReferenceBook(tree, scope).resolve(walker.uses).map((r) => [r.identifier, r.text.value])).toEqual([
      ['cite_note-a-1', 'Źródło A.'],
      ['cite_note-b-2', 'Źródło B.'],
    ]);
  });
  it('reads <references> and {{reflist|refs=}} alike; a list of its own group leaves its definitions to that group', () => {
    const defined = (page: string) => {
      const { walker, tree } = walk(page);
      return new ReferenceBook(tree, scope).resolve(walker.uses).map((r) => r.text.value);
    };
    expect(defined('Text.\n<references>\n<ref name="x">Defined X.</ref>\n</references>')).toEqual(['Defined X.']);
    expect(defined('Text.\n{{Reflist|refs=\n<ref name="x">Defined X.</ref>\n}}')).toEqual(['Defined X.']);
    expect(defined('Text.\n{{Notelist|refs=\n<ref name="n">A note.</ref>\n}}')).toEqual([]);
    expect(defined('Text.\n<references group="n">\n<ref name="n">A note.</ref>\n</references>')).toEqual([]);
  });
  it('is tried before navigation and the inline rule', () => {
    const names = WIKITEXT_PRESET.map((r) => r.name);
    expect(names.indexOf('reference-list')).toBeLessThan(names.indexOf('navigation'));
    expect(names.indexOf('navigation')).toBeLessThan(names.indexOf('inline'));
  });
});
