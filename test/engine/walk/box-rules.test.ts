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
