/**
 * The wikitext preset's rules one at a time (src/engine/wikitext/rules/): each rule's `test`
 * takes the nodes it is for and no other, and its `run` writes what it should to a real collector
 * (or the section tree); then the preset's order constraints, and the reference pass after the walk.
 */
import { describe, expect, it } from 'vitest';
import type { Part } from '../../../src/schema/article.js';
import { WIKITEXT_PRESET } from '../../../src/engine/wikitext/preset.js';
import { ReferenceBook, dropUnresolved } from '../../../src/engine/reference/wikitext.js';
import { description } from '../../../src/engine/wikitext/rules/description.js';
import { heading } from '../../../src/engine/wikitext/rules/heading.js';
import { horizontalRule } from '../../../src/engine/wikitext/rules/horizontal-rule.js';
import { infobox } from '../../../src/engine/wikitext/rules/infobox.js';
import { infoboxTable } from '../../../src/engine/wikitext/rules/infobox-table.js';
import { inline } from '../../../src/engine/wikitext/rules/inline.js';
import { layoutTable } from '../../../src/engine/wikitext/rules/layout-table.js';
import { listMarker } from '../../../src/engine/wikitext/rules/list-marker.js';
import { table } from '../../../src/engine/wikitext/rules/table.js';
import { text } from '../../../src/engine/wikitext/rules/text.js';
import { first, runRule, scope, topLevel, walkPage, walkerFor } from './harness.js';

const walk = walkPage;

const lead = (walker: { tree: { sections: Part[] } }): Part[] => walker.tree.sections[0]!.has_parts ?? [];
const fieldsOf = (box: Part): Record<string, string> =>
  Object.fromEntries((box.has_parts ?? []).flatMap((s) => s.has_parts ?? []).filter((p) => p.type === 'field').map((p) => [p.name, p.value]));

describe('wikitext rule: text', () => {
  it('takes text nodes only', () => {
    expect(text.test(first('plain words', 'text'), {} as never)).toBe(true);
    expect(text.test(first('{{lang|fr|mot}}', 'template'), {} as never)).toBe(false);
  });
  it('cuts text at line breaks: two lines of one paragraph read as one', () => {
    const { walker } = runRule(text, first('first line\nsecond line', 'text'));
    expect(lead(walker)).toEqual([{ type: 'paragraph', value: 'first line second line' }]);
  });
});

describe('wikitext rule: heading', () => {
  it('takes headings only', () => {
    expect(heading.test(first('== History ==', 'heading'), {} as never)).toBe(true);
    expect(heading.test(first('History', 'text'), {} as never)).toBe(false);
  });
  it('opens a section by its rendered name', () => {
    const { walker } = runRule(heading, first("== The ''early'' years ==", 'heading'));
    expect(walker.tree.sections.map((s) => s.name)).toEqual(['abstract', 'The early years']);
  });
  it('drops a boilerplate section', () => {
    const { walker } = runRule(heading, first('== References ==', 'heading'));
    expect(walker.tree.skipping).toBe(true);
    expect(walker.tree.sections).toHaveLength(1);
  });
});

const INFOBOX_TABLE = '{| class="infobox"\n|+ Ada Lovelace\n|-\n! Born\n| 1815\n|}';
const DATA_TABLE = '{| class="wikitable"\n! Year !! Event\n|-\n| 1843 || Notes\n|}';
const HOLDER = '{|\n|\n{{Infobox person|name=Ada|birth_date=1815}}\n|}';

describe('wikitext rule: infobox-table', () => {
  it('takes a table of an infobox class only', () => {
    expect(infoboxTable.test(first(INFOBOX_TABLE, 'table'), {} as never)).toBe(true);
    expect(infoboxTable.test(first(DATA_TABLE, 'table'), {} as never)).toBe(false);
  });
  it('writes an infobox to the collector, no table', () => {
    const { out, walker } = runRule(infoboxTable, first(INFOBOX_TABLE, 'table'));
    expect(out.infoboxes).toHaveLength(1);
    expect(out.infoboxes[0]!.name).toBe('Ada Lovelace');
    expect(fieldsOf(out.infoboxes[0]!)).toEqual({ Born: '1815' });
    expect(out.tables).toHaveLength(0);
    expect(lead(walker)).toEqual([]);
  });
});

describe('wikitext rule: layout-table', () => {
  it('takes a table whose cells hold a box, not a data table', () => {
    expect(layoutTable.test(first(HOLDER, 'table'), {} as never)).toBe(true);
    expect(layoutTable.test(first(DATA_TABLE, 'table'), {} as never)).toBe(false);
  });
  it('reads its cells as content: the infobox in a cell is collected, the table is not a table', () => {
    const { out } = runRule(layoutTable, first(HOLDER, 'table'));
    expect(out.infoboxes).toHaveLength(1);
    expect(fieldsOf(out.infoboxes[0]!)).toMatchObject({ birth_date: '1815' });
    expect(out.tables).toHaveLength(0);
  });
});

describe('wikitext rule: table', () => {
  it('takes any table (the rules before it took the boxes)', () => {
    expect(table.test(first(DATA_TABLE, 'table'), {} as never)).toBe(true);
    expect(table.test(first('text', 'text'), {} as never)).toBe(false);
  });
  it('writes the table to the collector and places a part naming it', () => {
    const { out, walker } = runRule(table, first(DATA_TABLE, 'table'));
    expect(out.tables).toHaveLength(1);
    const part = lead(walker)[0]!;
    expect(part.type).toBe('table');
    expect(part.table_references?.[0]?.identifier).toBe(out.tables[0]!.identifier);
  });
  it('collects nothing in a dropped section', () => {
    const { walker, out } = walkerFor();
    heading.run(first('== References ==', 'heading'), walker, out);
    table.run(first(DATA_TABLE, 'table'), walker, out);
    expect(out.tables).toHaveLength(0);
  });
});

describe('wikitext rule: horizontal-rule', () => {
  it('takes ---- only, and ends the paragraph before it', () => {
    expect(horizontalRule.test(first('a\n----\nb', 'hr'), {} as never)).toBe(true);
    expect(horizontalRule.breaks).toBe(true);
    expect(lead(walk('a\n----\nb').walker).map((p) => p.value)).toEqual(['a', 'b']);
  });
});

describe('wikitext rule: list-marker', () => {
  it('takes list markers and inline definitions', () => {
    expect(listMarker.test(first('* a', 'list'), {} as never)).toBe(true);
    expect(listMarker.test(first(';term : def', 'dd'), {} as never)).toBe(true);
    expect(listMarker.test(first('a', 'text'), {} as never)).toBe(false);
  });
  it('makes the line a list item; a deeper marker nests', () => {
    const [list] = lead(walk('* one\n** two\n* three').walker);
    expect(list).toEqual({
      type: 'list',
      has_parts: [
        { type: 'list_item', value: 'one', has_parts: [{ type: 'list', has_parts: [{ type: 'list_item', value: 'two' }] }] },
        { type: 'list_item', value: 'three' },
      ],
    });
  });
  it('reads ";term : definition" as two items', () => {
    const [list] = lead(walk(';term : definition').walker);
    expect(JSON.stringify(list)).toContain('"value":"term"');
    expect(JSON.stringify(list)).toContain('"value":"definition"');
  });
});

describe('wikitext rule: infobox', () => {
  const ALONE = 'Intro.\n{{Infobox person\n| name = Ada\n| birth_date = 1815\n}}\nText.';
  it('takes an infobox template alone on its line, not one inside a line of text or another template', () => {
    const t = topLevel(ALONE).find((n) => n.type === 'template')!;
    expect(infobox.test(t, {} as never)).toBe(true);
    const inText = topLevel('Text {{Infobox person|name=Ada}} more').find((n) => n.type === 'template')!;
    expect(infobox.test(inText, {} as never)).toBe(false);
    const other = topLevel('{{Main|History of X}}').find((n) => n.type === 'template')!;
    expect(infobox.test(other, {} as never)).toBe(false);
  });
  it('writes the infobox part to the collector', () => {
    const t = topLevel(ALONE).find((n) => n.type === 'template')!;
    const { out } = runRule(infobox, t);
    expect(out.infoboxes).toHaveLength(1);
    expect(out.infoboxes[0]!.name).toBe('Infobox person');
    expect(fieldsOf(out.infoboxes[0]!)).toMatchObject({ birth_date: '1815' });
  });
  it('one inside a lead paragraph (rendered twice: content and abstract) is collected once', () => {
    const { out, extracted } = walk("'''Ada''' {{Infobox person|name=Ada|birth_date=1815}} was a mathematician.");
    expect(out.infoboxes).toHaveLength(1);
    expect(extracted.lead).toEqual([{ text: 'Ada was a mathematician.' }]);
  });
});

describe('wikitext rule: description', () => {
  it('takes a short description template alone on its line', () => {
    const t = topLevel('{{Short description|English mathematician}}\nText.').find((n) => n.type === 'template')!;
    expect(description.test(t, {} as never)).toBe(true);
    expect(description.test(topLevel('{{Main|X}}').find((n) => n.type === 'template')!, {} as never)).toBe(false);
  });
  it('writes the description, not text; the first one wins', () => {
    const { extracted } = walk('{{Short description|English mathematician}}\n{{Short description|Second}}\nText.');
    expect(extracted.description).toBe('English mathematician');
    expect(extracted.lead).toEqual([{ text: 'Text.' }]);
  });
});

describe('wikitext rule: inline', () => {
  it('takes every node, and is last in the preset', () => {
    expect(inline.test(first('[[Link]]', 'link'), {} as never)).toBe(true);
    expect(WIKITEXT_PRESET[WIKITEXT_PRESET.length - 1]).toBe(inline);
  });
  it('adds the node to the line it is on', () => {
    const { walker } = walk('See [[Analytical Engine|the engine]] here.');
    expect(lead(walker)[0]).toMatchObject({ value: 'See the engine here.', links: [{ url: 'https://en.wikipedia.org/wiki/Analytical_Engine', text: 'the engine' }] });
  });
});

describe('WIKITEXT_PRESET', () => {
  const names = WIKITEXT_PRESET.map((r) => r.name);
  it('names each rule once', () => {
    expect(new Set(names).size).toBe(names.length);
  });
  it.each([
    ['infobox-table', 'table', 'an infobox written as a table is an infobox'],
    ['layout-table', 'table', 'a table that only places boxes is looked through'],
  ])('tries %s before %s: %s', (a, b) => {
    expect(names.indexOf(a)).toBeLessThan(names.indexOf(b));
  });
  it('breaks the pending lines on blocks only', () => {
    expect(WIKITEXT_PRESET.filter((r) => !r.breaks).map((r) => r.name)).toEqual(['text', 'list-marker', 'inline']);
  });
});

describe('footnotes: recorded by the walk, resolved after it', () => {
  const PAGE = 'One.<ref name="a">Source A.</ref> Two.<ref name="a"/> Three.<ref name="missing"/> Four.<ref>Source B.</ref>';
  it('the walk records each use once with a blank citation, even in a lead rendered twice', () => {
    const { walker } = walk(PAGE);
    expect(walker.uses.map((u) => u.kind)).toEqual(['ref', 'ref', 'ref', 'ref']);
    expect(walker.uses.every((u) => u.citation.identifier === '')).toBe(true);
  });
  it('the pass numbers the references in order of use, fills the citations, drops the unresolved', () => {
    const { walker, tree, extracted } = walk(PAGE);
    const book = new ReferenceBook(tree, scope);
    const references = book.resolve(walker.uses);
    expect(references.map((r) => [r.identifier, r.text.value])).toEqual([
      ['cite_note-a-1', 'Source A.'],
      ['cite_note-2', 'Source B.'],
    ]);
    expect(book.unresolved.size).toBe(1);
    dropUnresolved(extracted, book.unresolved);
    expect(lead(walker)[0]!.citations).toEqual([
      { identifier: 'cite_note-a-1', text: '[1]' },
      { identifier: 'cite_note-a-1', text: '[1]' },
      { identifier: 'cite_note-2', text: '[2]' },
    ]);
  });
  it('a definition later in the page (a list-defined reference) resolves an earlier use', () => {
    const { walker, tree } = walk('Text.<ref name="late"/>\n\n== Notes ==\n<references>\n<ref name="late">Defined late.</ref>\n</references>');
    const references = new ReferenceBook(tree, scope).resolve(walker.uses);
    expect(references.map((r) => r.text.value)).toEqual(['Defined late.']);
    expect(lead(walker)[0]!.citations).toEqual([{ identifier: 'cite_note-late-1', text: '[1]' }]);
  });
});
