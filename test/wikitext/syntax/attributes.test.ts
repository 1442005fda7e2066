/**
 * Attributes of HTML tags, extension tags and table parts (src/engine/wikitext/syntax/tokens/attributes.ts)
 * against wikiparser-node's: keys, values, quotes, the dirty runs between them, and `getAttr`.
 */
import { describe, expect, it } from 'vitest';
import type { AttributesToken } from '../../../src/engine/wikitext/syntax/tokens/attributes.js';
import type { Token } from '../../../src/engine/wikitext/syntax/token.js';
import { differences, differencesIn, ours } from './block-oracle.js';

const SNIPPETS = [
  '<span class="x" id=y>b</span>',
  `<div title="t" data-x = 'q' bad!=1 foo>`,
  '<span a="b c=d" e=\'f "g>x</span>',
  '<span cl@ss=x  a b=c/ >',
  '<span   a=   b\n c  ="d>',
  '<span a="unclosed>',
  "<span a='unclosed>",
  '<span a= >x</span>',
  '<span a=>x</span>',
  '<span =x a>',
  '<span a==b>',
  '<span ::a:b.c-d=1 _e=2 .f=3 -g=4 é=5>',
  '<span CLASS="Up" Class=down>',
  '<span title="a" a <!--c--> = <!--d--> "q">x</span>',
  '<div title="t <!-- c -->" <!-- x --> a=b>',
  '<img alt="a \'\'b\'\'" src=x>',
  '<ref name="a" group=b details="x">x</ref>',
  '<ref name=a/>',
  '<span\ta\u00a0=\u00a0b\u3000c=d>',
  '<span a="x"b="y">',
  '<span /a=b/c=d/>',
  '{| class="wikitable" style="x"\n| a\n|}',
  '{|\n| rowspan=2 colspan="3x" | a\n|-  class=r id=\'i\'\n|x\n|}',
];

describe('attributes against wikiparser-node', () => {
  it.each(SNIPPETS)('%j', (text) => {
    expect(differences(text)).toEqual([]);
  });

  it.each([
    '<references group="g" responsive />',
    '<gallery caption="a \'\'b\'\' <span>c</span>" widths=100px>\nA.jpg\n</gallery>',
    '<ref details="a \'\'b\'\' <span>c</span>\n== h ==">x</ref>',
    '<mapframe text="[[a]] \'\'b\'\'" width=1 height=1>{}</mapframe>',
  ])('extension tag %j', (text) => {
    expect(differencesIn(text, 'ext-attrs')).toEqual([]);
  });

  it('on a wiki with other names (de)', () => {
    expect(differences('<span title="Titel" class=a>x</span>\n{| class=x\n|a\n|}', 5, 'de')).toEqual([]);
  });
});

function find(root: Token, type: string): Token[] {
  const out: Token[] = [];
  const visit = (n: Token): void => {
    if (n.type === type) out.push(n);
    for (const c of n.childNodes) if (c.type !== 'text') visit(c as Token);
  };
  visit(root);
  return out;
}

describe('getAttr, hasAttr, getAttrs', () => {
  it('reads the last value of a key, trimmed; a bare attribute is "" outside extension tags', () => {
    const [attrs] = find(ours('<span CLASS=" a " class=b title="t" hidden>x</span>'), 'html-attrs') as AttributesToken[];
    expect(attrs!.getAttr('class')).toBe('b');
    expect(attrs!.getAttr(' Title ')).toBe('t');
    expect(attrs!.getAttr('hidden')).toBe('');
    expect(attrs!.getAttr('id')).toBeUndefined();
    expect(attrs!.hasAttr('hidden')).toBe(true);
    expect(attrs!.getAttrs()).toEqual({ class: 'b', title: 't', hidden: '' });
  });

  it('a bare attribute of an extension tag is true', () => {
    const [attrs] = find(ours('<references responsive group = "n" />'), 'ext-attrs') as AttributesToken[];
    expect(attrs!.getAttr('responsive')).toBe(true);
    expect(attrs!.getAttr('group')).toBe('n');
  });

  it('cells read rowspan and colspan as numbers', () => {
    const [td] = find(ours('{|\n| rowspan=2 colspan=x | a\n|}'), 'td') as (Token & { rowspan: number; colspan: number; getAttr(k: string): unknown })[];
    expect(td!.rowspan).toBe(2);
    expect(td!.colspan).toBe(1);
    expect(td!.getAttr('ROWSPAN')).toBe(2);
  });
});
