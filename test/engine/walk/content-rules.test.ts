/** The rules that make content blocks: paragraph, list, gallery, figure, layout-table, table (formula: formula.test.ts). */
import { describe, expect, it } from 'vitest';
import { figure } from '../../../src/engine/walk/figure.js';
import { gallery } from '../../../src/engine/walk/gallery.js';
import { heading } from '../../../src/engine/walk/heading.js';
import { layoutTable } from '../../../src/engine/walk/layout-table.js';
import { list } from '../../../src/engine/walk/list.js';
import { paragraph } from '../../../src/engine/walk/paragraph.js';
import { table } from '../../../src/engine/walk/table.js';
import { blocks, element, lead, walk } from './harness.js';

describe('paragraph rule', () => {
  it('makes a paragraph part, and a lead line only in the lead', () => {
    const x = walk([heading, paragraph], '<p>First <a rel="mw:WikiLink" href="./Sentence">sentence</a>.</p><h2>Body</h2><p>Later.</p>');
    expect(lead(x)).toEqual([{ type: 'paragraph', value: 'First sentence.', links: [{ url: 'https://en.wikipedia.org/wiki/Sentence', text: 'sentence' }] }]);
    expect(x.lead).toEqual([{ text: 'First sentence.' }]);
    expect(blocks(x.sections[1]!)).toEqual([['paragraph', 'Later.']]);
  });

  it('splits a paragraph at a displayed formula written inside it: text, formula, text (Parsoid renders mid-line <math display="block"> in the <p>)', () => {
    const x = walk(
      [paragraph],
      '<p>The group of matrices,<span class="mwe-math-element mwe-math-element-block"><math display="block" alttext="{\\displaystyle \\{I,a,b\\}}"></math><img class="mwe-math-fallback-image-display" alt="{\\displaystyle \\{I,a,b\\}}"/></span>and then <span class="mwe-math-element"><math alttext="{\\displaystyle a^{3}}"></math></span> holds.</p>',
    );
    expect(lead(x)).toEqual([
      { type: 'paragraph', value: 'The group of matrices,' },
      { type: 'formula', value: '\\{I,a,b\\}' },
      { type: 'paragraph', value: 'and then a^{3} holds.' },
    ]);
    expect(x.lead, 'both pieces of text are lines of the abstract').toEqual([{ text: 'The group of matrices,' }, { text: 'and then a^{3} holds.' }]);
  });

  it('makes nothing of an empty paragraph', () => {
    const x = walk([paragraph], '<p> </p>');
    expect(lead(x)).toEqual([]);
    expect(x.lead).toEqual([]);
  });
});

describe('list rule', () => {
  it('makes a list part, and hands the lead list to the abstract', () => {
    const x = walk([heading, list], '<ul><li>Alpha</li><li>Beta</li></ul><h2>S</h2><ol><li>Gamma</li></ol>');
    const leadList = { type: 'list', has_parts: [{ type: 'list_item', value: 'Alpha' }, { type: 'list_item', value: 'Beta' }] };
    expect(lead(x)).toEqual([leadList]);
    expect(x.lead).toEqual([{ list: leadList }]);
    expect(blocks(x.sections[1]!)).toEqual([['list', undefined]]);
  });
});

describe('gallery rule', () => {
  it('makes one image part per gallery box', () => {
    const html =
      '<ul class="gallery mw-gallery-traditional">' +
      '<li class="gallerybox"><img src="//upload.wikimedia.org/a.jpg" width="120" height="80"/><div class="gallerytext">First</div></li>' +
      '<li class="gallerybox"><img src="//upload.wikimedia.org/b.jpg"/><div class="gallerytext">Second</div></li></ul>';
    const x = walk([gallery], html);
    expect(lead(x)).toEqual([
      { type: 'image', value: 'First', images: [{ content_url: 'https://upload.wikimedia.org/a.jpg', width: 120, height: 80, caption: 'First' }] },
      { type: 'image', value: 'Second', images: [{ content_url: 'https://upload.wikimedia.org/b.jpg', caption: 'Second' }] },
    ]);
    expect(gallery.test(element('<ul><li>x</li></ul>'), undefined!, 0)).toBe(false);
  });
});

describe('figure rule', () => {
  it('makes an image part with the caption as its value', () => {
    const html = '<figure typeof="mw:File/Thumb"><a href="./File:Map.png"><img src="//upload.wikimedia.org/map.png" width="220" height="150" alt="A map"/></a><figcaption>The map</figcaption></figure>';
    const x = walk([figure], html);
    expect(lead(x)).toEqual([
      { type: 'image', value: 'The map', images: [{ content_url: 'https://upload.wikimedia.org/map.png', width: 220, height: 150, alternative_text: 'A map', caption: 'The map' }] },
    ]);
    expect(x.lead).toEqual([]);
  });
});

describe('table rules', () => {
  const data = '<table class="wikitable"><tr><th>Year</th><th>Title</th></tr><tr><td>1999</td><td>First</td></tr></table>';

  it('table: an entry in tables, identified by the section path, and a table part in the section', () => {
    const x = walk([heading, table], `<h2>Works</h2>${data}${data}`);
    expect(x.tables.map((t) => t.identifier)).toEqual(['works_table1', 'works_table2']);
    expect(x.tables[0]!.headers).toEqual([[{ value: 'Year' }, { value: 'Title' }]]);
    expect(blocks(x.sections[1]!).map(([type]) => type)).toEqual(['table', 'table']);
    expect(x.sections[1]!.has_parts![0]!.table_references![0]!.identifier).toBe('works_table1');
  });

  it('layout-table: a table that only places content is looked through, before the table rule reads it', () => {
    const html = '<table role="presentation"><tr><td><p>Left</p></td><td><p>Right</p></td></tr></table>';
    const x = walk([layoutTable, table, paragraph], html);
    expect(x.tables).toEqual([]);
    expect(blocks(x.sections[0]!)).toEqual([['paragraph', 'Left'], ['paragraph', 'Right']]);
    expect(layoutTable.test(element(data), undefined!, 0)).toBe(false);
  });
});

describe('the abstract of a page without lead text', () => {
  it('is the first paragraph with words below the lead, never preformatted code', () => {
    const x = walk([heading, paragraph], '<h2>Usage</h2><pre>{{Infobox mountain | name = }}</pre><p>,</p><p>The template is used in articles on mountains.</p><p>Later.</p>');
    expect(x.lead).toEqual([{ text: 'The template is used in articles on mountains.' }]);
  });

  it('is the lead when the lead has text, even a list', () => {
    expect(walk([heading, paragraph], '<p>Lead.</p><h2>Body</h2><p>Body.</p>').lead).toEqual([{ text: 'Lead.' }]);
    expect(walk([heading, paragraph, list], '<ul><li>Item</li></ul><h2>Body</h2><p>Body.</p>').lead.map((l) => 'list' in l)).toEqual([true]);
  });

  it('never comes from a boilerplate section', () => {
    expect(walk([heading, paragraph], '<h2>References</h2><p>A book.</p>').lead).toEqual([]);
  });
});
