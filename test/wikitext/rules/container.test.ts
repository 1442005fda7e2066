/**
 * The container rule (rules/container.ts): a template that only lays out content written in a
 * parameter, alone on its line, is walked as the page's own blocks — named by grammar
 * (`containers`) or recognised by shape in a wiki nobody listed. A real parsed page, a real
 * walker and collector, the reference pass.
 */
import { describe, expect, it } from 'vitest';
import type { Part } from '../../../src/schema/article.js';
import { WIKITEXT_PRESET } from '../../../src/engine/wikitext/preset.js';
import { container } from '../../../src/engine/wikitext/rules/container.js';
import { navigation } from '../../../src/engine/wikitext/rules/navigation.js';
import { runRule, topLevel, walkPage, walkerFor } from './harness.js';

const template = (wikitext: string) => topLevel(wikitext).find((n) => n.type === 'template')!;
const blocks = (wikitext: string): Part[] => walkPage(wikitext).walker.tree.sections[0]?.has_parts ?? [];
const items = (p: Part | undefined): string[] => (p?.has_parts ?? []).map((i) => i.value ?? '');

describe('wikitext rule: container', () => {
  it('reads the content parameter of a listed layout template as a list of the section', () => {
    for (const call of ['{{Colonnes|nombre=2|\n* [[Lyon]]\n* [[Paris]]\n}}', '{{columns-list|colwidth=20em|\n* [[Lyon]]\n* [[Paris]]\n}}', '{{Mehrspaltige Liste|breite=20em|liste=\n* [[Lyon]]\n* [[Paris]]\n}}', '{{plainlist|\n* [[Lyon]]\n* [[Paris]]\n}}']) {
      const parts = blocks(`Before.\n${call}\nAfter.`);
      expect(parts.map((p) => p.type), call).toEqual(['paragraph', 'list', 'paragraph']);
      expect(items(parts[1]), call).toEqual(['Lyon', 'Paris']);
      expect(parts[1]?.has_parts?.[0]?.links, call).toEqual([{ url: 'https://en.wikipedia.org/wiki/Lyon', text: 'Lyon' }]);
    }
  });

  it('lines without list markers are a paragraph; footnotes inside are the page\'s', () => {
    const page = walkPage('{{Mehrspaltige Liste|liste=\n[[Los Angeles]] (1967)<br />\nParis (1987)<ref>Senat.</ref>\n}}');
    const parts = page.walker.tree.sections[0]?.has_parts ?? [];
    expect(parts.map((p) => p.type)).toEqual(['paragraph']);
    expect(parts[0]?.value).toBe('Los Angeles (1967) Paris (1987)');
    expect(page.walker.uses.map((u) => u.kind), 'the footnote is used').toEqual(['ref']);
  });

  it('recognises by shape a layout template nobody listed: one parameter of list lines, the others settings', () => {
    // hewiki {{טורים}} (hewiki__ברלין of the corpus): a named value trimmed to start with its marker.
    const he = template('{{טורים\n| רוחב =\n| תוכן = * [[פריז]]\n* [[מדריד]]\n}}');
    expect(container.test(he, walkerFor().walker)).toBe(true);
    expect(items(runRule(container, he).walker.tree.sections[0]?.has_parts?.[0]), 'the first line is an item too').toEqual(['פריז', 'מדריד']);
    expect(container.test(template('{{Кол|3|\n# один\n# два\n}}'), walkerFor().walker)).toBe(true);
  });

  it('leaves other templates alone: prose, several content parameters, no list, not alone on its line', () => {
    const { walker } = walkerFor();
    expect(container.test(template('{{Quote box|quote=\n* a saying|source=Someone famous}}'), walker), 'a setting of several words').toBe(false);
    expect(container.test(template('{{Navigation|list1=\n* [[A]]\n* [[B]]|list2=\n* [[C]]\n* [[D]]}}'), walker), 'two lists').toBe(false);
    expect(container.test(template('{{Some box|text=Just a sentence of prose.}}'), walker), 'no list line').toBe(false);
    expect(container.test(template('{{Colonnes|nombre=2}}'), walker), 'no content').toBe(false);
    expect(container.test(topLevel('See {{Colonnes|\n* [[A]]\n}} here.').find((n) => n.type === 'template')!, walker), 'inline').toBe(false);
  });

  it('is tried before navigation, which reads lists of links', () => {
    const names = WIKITEXT_PRESET.map((r) => r.name);
    expect(names.indexOf('container')).toBeGreaterThanOrEqual(0);
    expect(names.indexOf('container')).toBeLessThan(names.indexOf(navigation.name));
  });
});
