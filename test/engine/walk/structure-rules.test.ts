/** The rules that shape the section tree: heading, section, boilerplate-skip, container, inline, depth-cap. */
import { describe, expect, it } from 'vitest';
import { boilerplateSkip } from '../../../src/engine/walk/boilerplate-skip.js';
import { depthCap } from '../../../src/engine/walk/depth-cap.js';
import { heading, isHeadingBlock } from '../../../src/engine/walk/heading.js';
import { inlineRun } from '../../../src/engine/walk/inline-run.js';
import { list } from '../../../src/engine/walk/list.js';
import { noise } from '../../../src/engine/walk/noise.js';
import { paragraph } from '../../../src/engine/walk/paragraph.js';
import { referenceLists } from '../../../src/engine/walk/reference-lists.js';
import { section } from '../../../src/engine/walk/section.js';
import { blocks, element, lead, walk } from './harness.js';

describe('heading rule', () => {
  it('opens a section per heading, nested by level', () => {
    const x = walk([heading, paragraph], '<p>Lead.</p><h2>Early life</h2><p>a</p><h3>School</h3><p>b</p><h2>Career</h2>');
    expect(x.sections.map((s) => s.name)).toEqual(['abstract', 'Early life', 'Career']);
    expect(blocks(x.sections[1]!)).toEqual([['paragraph', 'a'], ['section', 'School']]);
    expect(blocks(x.sections[1]!.has_parts![1]!)).toEqual([['paragraph', 'b']]);
  });

  it('opens no section for a boilerplate title of the article language', () => {
    const en = walk([heading, paragraph], '<h2>See also</h2><p>x</p>', 'en');
    expect(en.sections.map((s) => s.name)).toEqual(['abstract']);
    // "Voir aussi" is boilerplate in French only; an English page keeps it.
    const fr = walk([heading, paragraph], '<h2>Voir aussi</h2><p>x</p>', 'en');
    expect(fr.sections.map((s) => s.name)).toEqual(['abstract', 'Voir aussi']);
  });

  it('takes h1–h6 only, not elements named after Object members', () => {
    expect(heading.test(element('<h4>x</h4>'), undefined!, 0)).toBe(true);
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'h7', 'header']) {
      expect(heading.test(element(`<${name}>x</${name}>`), undefined!, 0), name).toBe(false);
    }
  });

  it('tells heading blocks (what can end a skipped section) from others', () => {
    expect(isHeadingBlock(element('<h3>x</h3>'))).toBe(true);
    expect(isHeadingBlock(element('<section></section>'))).toBe(true);
    expect(isHeadingBlock(element('<div class="mw-heading mw-heading2"><h2>x</h2></div>'))).toBe(true);
    expect(isHeadingBlock(element('<div class="other">x</div>'))).toBe(false);
    expect(isHeadingBlock(element('<span class="mw-heading">x</span>'))).toBe(false);
  });
});

describe('boilerplate-skip rule', () => {
  const refs = '<ol class="references"><li id="cite_note-1">Smith 2001.</li></ol>';

  it('drops a flat boilerplate section up to the next heading, reading only its reference lists', () => {
    const x = walk([boilerplateSkip, heading, paragraph], `<p>Lead.</p><h2>References</h2><p>gone</p><div>${refs}</div><h2>Legacy</h2><p>kept</p>`);
    expect(x.sections.map((s) => s.name)).toEqual(['abstract', 'Legacy']);
    expect(JSON.stringify(x.sections)).not.toContain('gone');
    expect(x.references.map((r) => r.identifier)).toEqual(['cite_note-1']);
  });

  it('lets a rendered page heading wrapper through, so that it can end the skip', () => {
    const x = walk([boilerplateSkip, heading, paragraph], '<h2>Notes</h2><p>gone</p><div class="mw-heading mw-heading2"><h2>Legacy</h2></div><p>kept</p>');
    expect(x.sections.map((s) => s.name)).toEqual(['abstract', 'Legacy']);
    expect(blocks(x.sections[1]!)).toEqual([['paragraph', 'kept']]);
  });

  it('applies only while skipping', () => {
    const x = walk([boilerplateSkip, heading, paragraph], '<p>kept</p>');
    expect(blocks(x.sections[0]!)).toEqual([['paragraph', 'kept']]);
  });
});

describe('section rule', () => {
  it("walks a Parsoid section as a container: its heading opens the section", () => {
    const x = walk([section, heading, paragraph], '<section data-mw-section-id="1"><h2>History</h2><p>a</p></section>');
    expect(x.sections.map((s) => s.name)).toEqual(['abstract', 'History']);
    expect(blocks(x.sections[1]!)).toEqual([['paragraph', 'a']]);
  });

  it('skips a boilerplate section whole, subsections included, keeping its references', () => {
    const html =
      '<section data-mw-section-id="1"><h2>Notes</h2><p>gone</p><section data-mw-section-id="2"><h3>Sub</h3><p>gone too</p></section>' +
      '<div class="mw-references-wrap"><ol class="mw-references references" typeof="mw:Extension/references"><li id="cite_note-a">A.</li></ol></div></section>' +
      '<section data-mw-section-id="3"><h2>Next</h2></section>';
    const x = walk([section, heading, paragraph], html);
    expect(x.sections.map((s) => s.name)).toEqual(['abstract', 'Next']);
    expect(JSON.stringify(x.sections)).not.toContain('gone');
    expect(x.references.map((r) => r.identifier)).toEqual(['cite_note-a']);
  });
});

describe('inline rule', () => {
  it('gathers inline elements and text into one implicit paragraph, ended by a block', () => {
    const x = walk([inlineRun, paragraph], '<div>Text <b>bold</b> more<p>Para.</p>tail</div>');
    expect(blocks(x.sections[0]!)).toEqual([['paragraph', 'Text bold more'], ['paragraph', 'Para.'], ['paragraph', 'tail']]);
  });

  it('does not take blocks or figures', () => {
    expect(inlineRun.test(element('<div>x</div>'), undefined!, 0)).toBe(false);
    expect(inlineRun.test(element('<span typeof="mw:File"><img src="x.png"/></span>'), undefined!, 0)).toBe(true);
    expect(inlineRun.test(element('<figure typeof="mw:File/Thumb"></figure>'), undefined!, 0)).toBe(false);
    expect(inlineRun.test(element('<a href="./X">x</a>'), undefined!, 0)).toBe(true);
  });
});

describe('noise rule', () => {
  it('drops noise without splitting the paragraph around it', () => {
    const x = walk([noise, inlineRun, paragraph], '<div>one <sup class="reference">[1]</sup>two</div><div class="navbox"><p>Navigation</p></div>');
    expect(blocks(x.sections[0]!)).toEqual([['paragraph', 'one two']]);
  });
});

describe('reference-lists rule', () => {
  it('reads the entries of a reference list and its wrapper, which are noise as content', () => {
    const x = walk([referenceLists, noise, paragraph], '<div class="reflist"><ol class="references"><li id="cite_note-x">Jones, 1999.</li><li id="cite_note-y">Doe.</li></ol></div><p>Text.</p>');
    expect(x.references.map((r) => r.identifier)).toEqual(['cite_note-x', 'cite_note-y']);
    expect(blocks(x.sections[0]!)).toEqual([['paragraph', 'Text.']]);
  });

  it('leaves a plain ordered list (not noise) to the list rule', () => {
    expect(referenceLists.test(element('<ol><li>one</li></ol>'), undefined!, 0)).toBe(false);
    const x = walk([referenceLists, noise, list], '<ol><li>one</li></ol>');
    expect(lead(x).map((p) => p.type)).toEqual(['list']);
    expect(x.references).toEqual([]);
  });
});

describe('depth-cap rule', () => {
  it('reads a block nested past the cap as one paragraph of its text', () => {
    const deep = `${'<div>'.repeat(170)}<ul><li>one</li><li>two</li></ul>${'</div>'.repeat(170)}`;
    const capped = walk([depthCap, list, paragraph], deep);
    expect(blocks(capped.sections[0]!)).toEqual([['paragraph', 'onetwo']]);
    const uncapped = walk([list, paragraph], deep);
    expect(blocks(uncapped.sections[0]!)).toEqual([['list', undefined]]);
  });
});
