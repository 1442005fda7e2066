/**
 * The table-template rule (rules/table-template.ts): a table opened and closed by templates, its
 * rows written between them (frwiki {{ÉluDébut}} … {{ÉluFin}}), read as the table the page shows.
 * Expected values are those of the HTML door on frwiki__Calvi of the corpus envelopes (the header
 * row the template prints, the rows as written).
 */
import { describe, expect, it } from 'vitest';
import { WIKITEXT_PRESET } from '../../../src/engine/wikitext/preset.js';
import { tableTemplateRule } from '../../../src/engine/wikitext/rules/table-template.js';
import { topLevel, walkPage, walkerFor } from './harness.js';

const MAYORS = 'Avant.\n{{ÉluDébut|Titre=Liste des maires successifs}}\n| vers 1897||||François Puccinelli||||\n|-\n| 1959 || 1971 ||[[Jean Orabona|Jean-Félix Orabona]]||align="center"| [[UDR]]|| Médecin<ref>Préfecture.</ref>\n{{ÉluFin}}\nAprès.';

describe('wikitext rule: table-template', () => {
  it('reads the rows between the opening and closing templates as one table, with the template\'s header and caption', () => {
    const page = walkPage(MAYORS);
    const { tables } = page.extracted;
    expect(tables).toHaveLength(1);
    expect(tables[0]!.headers).toEqual([[{ value: 'Période' }, { value: 'Période' }, { value: 'Identité' }, { value: 'Étiquette' }, { value: 'Qualité' }]]);
    expect(tables[0]!.rows.map((r) => r.map((c) => c.value))).toEqual([
      ['vers 1897', '', 'François Puccinelli', '', ''],
      ['1959', '1971', 'Jean-Félix Orabona', 'UDR', 'Médecin'],
    ]);
    const parts = page.walker.tree.sections[0]?.has_parts ?? [];
    expect(parts.map((p) => [p.type, p.value]), 'no row markup left as text; the text around stays').toEqual([
      ['paragraph', 'Avant.'],
      ['table', 'Liste des maires successifs'],
      ['paragraph', 'Après.'],
    ]);
    expect(page.walker.uses.map((u) => u.kind), 'a footnote in a row is the page\'s').toEqual(['ref']);
  });

  it('needs its closing template: without one, the opening is left to the other rules', () => {
    const open = topLevel('{{ÉluDébut|Titre=Maires}}\n| 1959 || 1971\n').find((n) => n.type === 'template')!;
    expect(tableTemplateRule.test(open, walkerFor().walker)).toBe(false);
    const unclosedInSection = topLevel('{{ÉluDébut|Titre=Maires}}\n| 1959 || 1971\n== Histoire ==\nTexte.\n{{ÉluFin}}').find((n) => n.type === 'template')!;
    expect(tableTemplateRule.test(unclosedInSection, walkerFor().walker), 'closed only after the next heading').toBe(false);
    const inline = topLevel('Voir {{ÉluDébut}} ici.\n{{ÉluFin}}').find((n) => n.type === 'template')!;
    expect(tableTemplateRule.test(inline, walkerFor().walker), 'not alone on its line').toBe(false);
  });

  it('is tried before the inline rule', () => {
    const names = WIKITEXT_PRESET.map((r) => r.name);
    expect(names.indexOf('table-template')).toBeLessThan(names.indexOf('inline'));
  });
});
