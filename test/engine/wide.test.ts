/**
 * Wide HTML documents (many siblings of one kind) cost time linear in their size, measured as
 * test/engine/nesting.test.ts measures depth: CPU(4n) / CPU(n) under 8, where quadratic is 16.
 * Many tables in one section were quadratic before issue 22 (each identifier was numbered from 1,
 * table/build.ts tableIdentifier), and so were "[<dropped/>]" pairs in one paragraph until 26 Nov
 * (inline.ts, TextRope#dropLast). The attributes of one start tag would be, if each name were
 * compared with every name before it to find a repeated one (tree-builder.ts `repeated`).
 */
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/index.js';
import { cpuRatio } from '../support/cpu-ratio.js';

const ROWS: Record<string, string> = {
  paragraphs: '<p>a</p>',
  sections: '<section><h2>a</h2><p>b</p></section>',
  'flat headings': '<h3>a</h3>b',
  tables: '<table class="wikitable"><tr><th>h</th></tr><tr><td>a</td></tr></table>',
  'table rows': '<tr><td>a</td><td>b</td></tr>',
  'list items': '<li>a</li>',
  links: '<a href="./A" title="A">a</a> ',
  'citations and references': '<sup class="reference"><a href="#cite_note-1">[1]</a></sup><ol class="references"><li id="cite_note-1">Note.</li></ol>',
  'infobox rows': '<tr><th>label</th><td>value</td></tr>',
  // One paragraph: a "[" before a dropped element and the "]" after it go with it; taking the "["
  // back sliced the whole paragraph each time (quadratic: 20,000 of them, 4.7 s).
  'bracketed dropped elements': ' two words [<span class="noprint">edit</span>] more',
  figures: '<figure typeof="mw:File/Thumb"><a href="./File:A.jpg"><img src="//x/a.jpg"></a><figcaption>c</figcaption></figure>',
  // One start tag, every attribute named apart (a repeated name is the first one's, HTML says).
  'attributes of one element': ' data-a00000=1',
};

function page(name: string, k: number): string {
  const row = name === 'attributes of one element' ? Array.from({ length: k }, (_, i) => ` data-a${String(i).padStart(5, '0')}=1`).join('') : ROWS[name]!.repeat(k);
  const body =
    name === 'table rows' ? `<table class="wikitable">${row}</table>` :
    name === 'list items' ? `<ul>${row}</ul>` :
    name === 'infobox rows' ? `<table class="infobox">${row}</table>` :
    name === 'bracketed dropped elements' ? `<p>a${row}</p>` :
    name === 'attributes of one element' ? `<p><span${row}>x</span></p>` :
    row;
  return `<html><head><base href="//en.wikipedia.org/wiki/"></head><body><p>Lead.</p>${body}</body></html>`;
}

describe('parse time is linear in the width of a document', () => {
  it.each(Object.keys(ROWS))('%s', { timeout: 120_000, retry: 2 }, (name) => {
    // 100 KB and 400 KB: below that, a page's garbage dies young and a larger one's does not,
    // which alone makes 4× the input cost 8–10× the time (a GC regime, not an algorithm).
    // The bracket pairs' flattening copies are short-lived, so their cost shows only past a
    // quarter of a megabyte of paragraph (old code: 0.14 s at 250 KB, 21 s at 1 MB).
    // One tag's attributes show a quadratic cost only past 400 KB of them: 5.7× at 100 KB, 16× at 400.
    const size = name === 'bracketed dropped elements' ? 250_000 : name === 'attributes of one element' ? 400_000 : 100_000;
    const k = Math.round(size / ROWS[name]!.length);
    const ratio = cpuRatio(parse, page(name, k), page(name, 4 * k), { warm: true });
    expect(ratio, `time(${(4 * size) / 1000} KB) / time(${size / 1000} KB) = ${ratio.toFixed(2)}`).toBeLessThan(8);
  });
});
