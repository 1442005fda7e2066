/** The rules that set content apart: infobox (by class and by template name), not-in-abstract, short-description. */
import { describe, expect, it } from 'vitest';
import { isInfoboxTemplate } from '../../../src/engine/grammar.js';
import { parse } from '../../../src/index.js';
import { hasLabelledField, infobox, isInfoboxTransclusion } from '../../../src/engine/walk/infobox.js';
import { notInAbstract } from '../../../src/engine/walk/not-in-abstract.js';
import { noise } from '../../../src/engine/walk/noise.js';
import { paragraph } from '../../../src/engine/walk/paragraph.js';
import { shortDescription } from '../../../src/engine/walk/short-description.js';
import { list } from '../../../src/engine/walk/list.js';
import { table } from '../../../src/engine/walk/table.js';
import { HTML_PRESET } from '../../../src/engine/walk/preset.js';
import { blocks, element, lead, walk } from './harness.js';

/** A Parsoid transclusion of `template` (its data-mw), with the given attributes and content. */
function transclusion(tag: string, template: string, attrs: string, content: string): string {
  const dataMw = JSON.stringify({ parts: [{ template: { target: { wt: template, href: `./Template:${template.replace(/ /g, '_')}` }, params: {} } }] });
  return `<${tag} typeof="mw:Transclusion" about="#mwt1" data-mw='${dataMw}' ${attrs}>${content}</${tag}>`;
}

const rows = '<tr><th colspan="2" class="infobox-above">Ada Lovelace</th></tr><tr><th class="infobox-label">Born</th><td class="infobox-data">10 December 1815</td></tr>';

describe('isInfoboxTemplate', () => {
  it('knows infobox templates by name and prefix, as written or as data-mw gives them', () => {
    expect(isInfoboxTemplate('Infobox person')).toBe(true);
    expect(isInfoboxTemplate('Template:Infobox_person')).toBe(true);
    expect(isInfoboxTemplate('  infobox   Person ')).toBe(true);
    expect(isInfoboxTemplate('Ficha de persona')).toBe(true);
    expect(isInfoboxTemplate('Info/Biografia')).toBe(true);
    expect(isInfoboxTemplate('Sinottico')).toBe(true);
  });

  it('refuses other templates, navigation boxes included', () => {
    expect(isInfoboxTemplate('Navbox')).toBe(false);
    expect(isInfoboxTemplate('Sidebar with collapsible lists')).toBe(false);
    expect(isInfoboxTemplate('Cite web')).toBe(false);
    // "sinottico" is a whole name, not a prefix.
    expect(isInfoboxTemplate('Sinottico2')).toBe(false);
    expect(isInfoboxTemplate('')).toBe(false);
  });
});

describe('infobox rule', () => {
  it('collects a box marked by class as an infobox, not a section block', () => {
    const x = walk([infobox, table, paragraph], `<table class="infobox vcard">${rows}</table><p>Text.</p>`);
    expect(x.infoboxes).toEqual([
      { type: 'infobox', name: 'Ada Lovelace', has_parts: [{ type: 'section', name: 'Ada Lovelace', has_parts: [{ type: 'field', name: 'Born', value: '10 December 1815' }] }] },
    ]);
    expect(x.tables).toEqual([]);
    expect(blocks(x.sections[0]!)).toEqual([['paragraph', 'Text.']]);
  });

  it('collects a box named an infobox by its template (Parsoid data-mw) though it has no infobox class', () => {
    const html = transclusion('table', 'Infobox person', 'class="vcard"', rows);
    expect(isInfoboxTransclusion(element(html))).toBe(true);
    const x = walk([infobox, table], html);
    expect(x.infoboxes.map((b) => b.name)).toEqual(['Infobox person']);
    expect(x.tables).toEqual([]);
  });

  it('leaves a template-named element without labelled rows to the later rules', () => {
    const html = transclusion('table', 'Infobox COA wide', 'class="wikitable"', '<tr><th>Coat of arms</th></tr><tr><td><dl><dt>Crest</dt><dd>A griffin.</dd></dl></td></tr>');
    const x = walk([infobox, table], html);
    expect(x.infoboxes).toEqual([]);
    expect(x.tables.map((t) => t.identifier)).toEqual(['abstract_table1']);
  });

  it('does not take transclusions of other templates, or elements without data-mw', () => {
    expect(isInfoboxTransclusion(element(transclusion('table', 'Navbox', 'class="navbox-inner"', rows)))).toBe(false);
    expect(isInfoboxTransclusion(element(`<table typeof="mw:Transclusion">${rows}</table>`))).toBe(false);
    // The name without the typeof is not Parsoid's transclusion marking.
    expect(isInfoboxTransclusion(element(transclusion('table', 'Infobox person', '', rows).replace('typeof="mw:Transclusion"', '')))).toBe(false);
    expect(infobox.test(element(`<table class="wikitable">${rows}</table>`), undefined!, 0)).toBe(false);
  });

  it('tells labelled fields apart', () => {
    expect(hasLabelledField({ type: 'infobox', has_parts: [{ type: 'section', has_parts: [{ type: 'field', name: 'Born', value: 'x' }] }] })).toBe(true);
    expect(hasLabelledField({ type: 'infobox', has_parts: [{ type: 'field', name: 'Born', value: 'x' }] })).toBe(true);
    expect(hasLabelledField({ type: 'infobox', has_parts: [{ type: 'section', has_parts: [{ type: 'field', value: 'x' }] }] })).toBe(false);
  });
});

describe('not-in-abstract rule', () => {
  const quoteBox =
    '<div class="quotebox pullquote centered" style="width:30em"><blockquote class="quotebox-quote left-aligned">' +
    '<p>This case is enormously important.</p></blockquote><p><cite>Michael Geist</cite></p><ul><li>listed</li></ul></div>';

  it('keeps a quote box that opens the lead in the section but out of the abstract', () => {
    const x = walk([notInAbstract, paragraph, list], `${quoteBox}<p>The lead proper.</p>`);
    expect(blocks(x.sections[0]!)).toEqual([
      ['paragraph', 'This case is enormously important.'],
      ['paragraph', 'Michael Geist'],
      ['list', undefined],
      ['paragraph', 'The lead proper.'],
    ]);
    expect(x.lead).toEqual([{ text: 'The lead proper.' }]);
  });

  it('keeps a floated quote box, which carries a figure class, as content through the whole preset', () => {
    const floated = quoteBox.replace('centered', 'floatright');
    const a = parse(`<body>${floated}<p>The lead proper.</p></body>`);
    expect(a.abstract).toBe('The lead proper.');
    expect(a.sections[0]!.has_parts!.map((p) => p.value)).toEqual(['This case is enormously important.', 'Michael Geist', undefined, 'The lead proper.']);
  });

  it('walks other boxes as before', () => {
    expect(notInAbstract.test(element('<div class="pullquote">x</div>'), undefined!, 0)).toBe(false);
    expect(HTML_PRESET.map((r) => r.name)).toContain('not-in-abstract');
  });
});

describe('short-description rule', () => {
  it('collects the description from its hidden element, which stays out of the content', () => {
    const html = '<div class="shortdescription nomobile noexcerpt noprint searchaux" style="display:none">English  mathematician\nand writer</div><p>Ada.</p>';
    const x = walk([shortDescription, noise, paragraph], html);
    expect(x.description).toBe('English mathematician and writer');
    expect(blocks(x.sections[0]!)).toEqual([['paragraph', 'Ada.']]);
  });

  it('keeps the first description with text', () => {
    const html = '<div class="shortdescription"> </div><div class="shortdescription">First</div><div class="shortdescription">Second</div>';
    expect(walk([shortDescription], html).description).toBe('First');
    expect(walk([shortDescription], '<p>none</p>').description).toBeUndefined();
  });
});

describe('infobox rows of columns (infobox/html.ts)', () => {
  const box = (body: string): string => `<table class="infobox"><tbody><tr><th colspan="4" class="infobox-above">Ciro</th></tr>${body}</tbody></table>`;
  const fields = (html: string) => walk([infobox], box(html)).infoboxes[0]!.has_parts!.flatMap((s) => s.has_parts ?? []);
  const heading = '<tr><th class="infobox-label">Years</th><td class="infobox-data-a"><b>Team</b></td><td><b><abbr title="League appearances">Apps</abbr></b></td><td><b>(Gls)</b></td></tr>';
  const row = (years: string, team: string, apps: string, goals: string): string =>
    `<tr><th class="infobox-label"><span style="font-weight:normal">${years}</span></th><td><a rel="mw:WikiLink" href="./${team}">${team}</a></td><td>${apps}</td><td>(${goals})</td></tr>`;

  it('reads a row under a row of bold column headings as the first column, each column a field named by its heading', () => {
    const [head, lazio] = fields(heading + row('2016–', 'Lazio', '256', '166'));
    expect(head).toMatchObject({ type: 'field', name: 'Years', value: 'Team' });
    expect(lazio).toMatchObject({ type: 'field', name: '2016–', value: 'Lazio' });
    expect(lazio!.has_parts!.map((f) => [f.type, f.name, f.value])).toEqual([['field', 'Team', 'Lazio'], ['field', 'Apps', '256'], ['field', '(Gls)', '(166)']]);
    expect(lazio!.links, 'the value keeps its link').toEqual([{ url: 'https://en.wikipedia.org/wiki/Lazio', text: 'Lazio' }]);
  });

  it('keeps the columns across a section header, for rows of the same width', () => {
    const all = fields(`${heading}${row('2016–', 'Lazio', '256', '166')}<tr><th colspan="4" class="infobox-header">International career</th></tr>${row('2014–', 'Italy', '57', '17')}`);
    expect(all.at(-1)!.has_parts!.map((f) => f.name)).toEqual(['Team', 'Apps', '(Gls)']);
  });

  it('reads several data cells without a heading row as before: one value of their texts', () => {
    const [gold] = fields('<tr><th class="infobox-label">Gold</th><td>2008 Peking</td><td>Doppel</td></tr>');
    expect(gold).toMatchObject({ name: 'Gold', value: '2008 Peking; Doppel' });
    expect(gold!.has_parts!.map((p) => p.type)).toEqual(['list_item', 'list_item']);
  });

  it('reads a table inside a labelled cell as the field\'s own fields ({{Infobox software}} "Initial release")', () => {
    const [release] = fields(
      '<tr><th class="infobox-label">Initial release</th><td class="infobox-data"><table class="infobox-subbox"><tbody><tr><th class="infobox-label">Windows XP</th><td>Beta / September 2, 2008</td></tr><tr><th class="infobox-label">macOS, Linux</th><td>Preview / June 4, 2009</td></tr></tbody></table></td></tr>',
    );
    expect(release).toMatchObject({ type: 'field', name: 'Initial release', value: 'Windows XP: Beta / September 2, 2008; macOS, Linux: Preview / June 4, 2009' });
    expect(release!.has_parts!.map((f) => [f.name, f.value])).toEqual([['Windows XP', 'Beta / September 2, 2008'], ['macOS, Linux', 'Preview / June 4, 2009']]);
  });

  it('drops a navbar list inside a field (noise), not only its words', () => {
    const navbar = '<tr><td colspan="2"><div class="navbar plainlinks hlist navbar-mini"><ul><li><a rel="mw:WikiLink" href="./Template:X">v</a></li><li><a rel="mw:WikiLink" href="./Template_talk:X">t</a></li></ul></div></td></tr>';
    expect(fields(`<tr><th class="infobox-label">Born</th><td>1990</td></tr>${navbar}`).map((f) => f.name)).toEqual(['Born']);
  });
});

describe('table rule and the reference lists inside a table', () => {
  it('reads a reference list a table holds (a family tree\'s notes), so the markers in its cells resolve', () => {
    const x = walk(
      [table],
      '<table class="wikitable"><tbody><tr><td>Anna<sup class="mw-ref reference" typeof="mw:Extension/ref"><a href="./T#cite_note-2">[n 1]</a></sup></td></tr><tr><td><b>Notes:</b><div class="mw-references-wrap" typeof="mw:Extension/references"><ol class="mw-references references" data-mw-group="n"><li id="cite_note-2">Born in 1901.</li></ol></div></td></tr></tbody></table>',
    );
    expect(x.references.map((r) => [r.identifier, r.group])).toEqual([['cite_note-2', 'n']]);
    expect(x.tables[0]!.rows[0]![0]!.citations).toEqual([{ identifier: 'cite_note-2', text: '[n 1]' }]);
  });
});
