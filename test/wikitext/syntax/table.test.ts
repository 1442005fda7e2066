/**
 * Stage 3, tables (src/engine/wikitext/syntax/stages/table.ts, tokens/table.ts) against
 * wikiparser-node: rows, cells and their subtypes, `||`/`!!` splitting, attributes, nested,
 * indented, unclosed and fostered tables, and tables inside extension tags.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wikitextCases, wikitextCorpusDir } from '../../../scripts/conformance/wikitext-corpus.js';
import { differences, differencesIn } from './block-oracle.js';

/** Every table of the shared corpus's wikitext pages without a template in it (templates are another stage's), with its wiki's language. */
function corpusTables(): [string, string, string][] {
  const folder = wikitextCorpusDir();
  if (folder === undefined) return [];
  const out: [string, string, string][] = [];
  for (const c of wikitextCases(folder)) {
    const text = readFileSync(c.path, 'utf8');
    for (const m of text.matchAll(/^\{\|[\s\S]*?^\|\}/gm)) {
      if (!m[0].includes('{{')) out.push([`${c.name} @${m.index}`, m[0], c.language]);
    }
  }
  return out;
}

const TABLES = [
  '{| class="wikitable"\n|+ cap\n|-\n! a !! b\n|-\n| c || d\n|}',
  '{|\n| rowspan=2 colspan="3x" | a | b\n!x||y!!z\n|+c||d\n|[[a|b]]\n|}',
  '{|\n|a|b|c\n|-----\n|d\n|+\n|}',
  '{|\n!a||b!!c\n|d!!e||f\n|}',
  '{|\n|a -{b|c}- d\n| x=1 -{ | y\n|}',
  '{|\n| style="a" |\n| |b\n|||c\n|}',
  '{|\n|-\n|-\n|- id=x\n|a\n|}',
  '{|\nfoo\n|-\nbar\n|a\nbaz\n|- \nqux\n|}',
  'x\n{|\n|a\n{|\n|b\n|}\n|c||d|e\n|-\n|}',
  '{|\n|-\n|a\n|-\n{|\n|b\n|}\n|}\n|}\n|}',
  '{|\n|a\n{|\n|b\n{|\n|c\n|}\n|}\n|}',
  '{|\n|-\n{|\n|a\n|}\n|}',
  ':{| a=1\n|x\nfoo\n|-\nbar\n|- style="x"\n|y\n|}tail\nmore',
  '::{|\n|a\n|}\n: {|\n|b\n|}\n;{|\n|c\n|}',
  ' {|\n |a\n  |}\n{|\n|-\n|a\n|-\n|}x\n|}',
  '{|\nfoo\n|}',
  '{|\n|a\n',
  '{|',
  '{|\n|}\n|}\n|a',
  '{|\n| a\n|-\n| b\n|}\n{|',
  '{| style="x"\n|}after\nline',
  '{|\n|a\n|}  x\n|b',
  '{|\n|\n{|\n|a\n|}b\n|c\n|}',
  '{|\n|a\n\n\n|b\n|}',
  '{|\n|a\n|}\n\n{|\n|b\n|}',
  '{|\n| a <span>b\n|c</span>\n|}',
  '{|\n|<span>a</span>||<b>b</b>\n|}',
  '<span>\n{|\n|a\n|}\n</span>',
  'a {| b\n|c\n|}',
  '{|\n|a\n|}\n|}\n|}',
  '{| border=1\n|+ caption\n! h1 !! h2\n|-\n| c1 || c2\n|- \n| colspan=2 | wide\n|}',
  '{|\n|+\n|+ second\n|-\n|+ late\n|}',
  '{|\n  | a\n\t! b\n  |- x\n  |}',
  '{|\n|a\n|}\n',
  '\n\n{|\n|a\n|}',
  '{|\n|a\n|-\n',
  '<ref>\n{|\n|a\n|}</ref>',
  '<poem>\n{|\n|a\n|}\n</poem>',
  '{|\n|\u0001\u007f\ufffd\n|}',
];

describe('tables against wikiparser-node', () => {
  it.each(TABLES)('%j', (text) => {
    expect(differences(text)).toEqual([]);
  });

  it('no table in an attribute value read without them', () => {
    expect(differencesIn('<gallery caption="{| a\n|b\n|}">\nA.jpg\n</gallery>', 'ext-attrs')).toEqual([]);
    expect(differencesIn('<ref details="x\n{|\n|b\n|}">y</ref>', 'ext-attrs')).toEqual([]);
  });

  it('deeply nested tables', () => {
    let text = '';
    for (let i = 0; i < 60; i++) text += '{|\n|a\n';
    for (let i = 0; i < 60; i++) text += '|}\n';
    expect(differences(text)).toEqual([]);
  });

  it('a long line of cells (subtypes inherited along the line)', () => {
    expect(differences(`{|\n! h${' !! x || y'.repeat(1500)}\n|+ c${' || d'.repeat(500)}\n|}`)).toEqual([]);
  });

  it('a long table', () => {
    let text = '{| class="wikitable sortable"\n! A !! B !! C\n';
    for (let i = 0; i < 300; i++) text += `|-\n| ${i} || style="x" | b${i} || [[c${i}]]\n`;
    expect(differences(`${text}|}`)).toEqual([]);
  });

  it.each(['de', 'ja', 'ar'])('on the %s wiki', (language) => {
    expect(differences('{| class=x\n|+ c\n! a !! b\n|-\n| c || d\n|}', 5, language)).toEqual([]);
  });

  const tables = corpusTables();
  it.runIf(tables.length > 0)('every template-free table of the shared corpus', () => {
    const failing = tables.filter(([, text, language]) => differences(text, 5, language).length > 0).map(([name]) => name);
    expect(failing).toEqual([]);
  });

  it('all stages (the later ones only read the cells)', () => {
    expect(differences('{|\n| a\n|-\n| b || c\n|}', 11)).toEqual([]);
  });
});
