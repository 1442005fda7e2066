/**
 * The deep-nesting guard (tree-builder.ts): beyond MAX_NESTING open elements no node is made and
 * the text is kept, and the whole engine stays linear in the nesting depth whatever the markup
 * does to the tokenizer (quotes, raw-text elements, comments, CDATA, stray end tags).
 */
import { describe, expect, it } from 'vitest';
import type { AnyNode, ChildNode, Document, Element, Text } from '../../src/engine/dom.js';
import { childNodes, isDocument, isText, nodeType, parseHtml, rawText, tagName, textOf } from '../../src/engine/dom.js';
import { MAX_NESTING } from '../../src/engine/tree-builder.js';
import { parse } from '../../src/index.js';
import { cpuRatio } from '../support/cpu-ratio.js';

/** Deepest element nesting below `root`, iteratively. */
function depth(root: AnyNode): number {
  let max = 0;
  const stack: [AnyNode, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, d] = stack.pop()!;
    if (d > max) max = d;
    if (isDocument(node) || nodeType(node) === 'tag') for (const kid of childNodes(node)) if (nodeType(kid) === 'tag') stack.push([kid, d + 1]);
  }
  return max;
}

/** A compact picture of a tree: `name(children…)`, text in quotes. */
function shape(node: AnyNode): string {
  if (isText(node)) return JSON.stringify(textOf(node));
  if (!isDocument(node) && nodeType(node) !== 'tag') return '';
  const inner = Array.from(childNodes(node), shape).join(',');
  return isDocument(node) ? inner : `${tagName(node as Element)}(${inner})`;
}

describe('nesting cap', () => {
  it('drops the start and end tags beyond the cap and keeps their text in the deepest kept element', () => {
    const doc = parseHtml(`${'<span>'.repeat(5)}deep${'</span>'.repeat(5)}<i>after</i>`, 2);
    expect(shape(doc)).toBe('span(span("deep")),i("after")');
  });

  it('matches end tags of dropped elements to them, not to kept elements of the same name', () => {
    expect(shape(parseHtml('<b><i><b>x</b>y</i>z</b>w', 2)), 'the inner </b> closes the dropped <b>').toBe('b(i("xy"),"z"),"w"');
    expect(shape(parseHtml('<b><i><u>x</i>y</b>', 2)), '</i> closes the dropped <u> with it').toBe('b(i("x"),"y")');
  });

  it('keeps void elements beyond the cap: they add no depth', () => {
    expect(shape(parseHtml('<b><i><u>a<br>b</u></i></b>', 2))).toBe('b(i("a",br(),"b"))');
  });

  it('holds 100,000 nested elements to MAX_NESTING levels, text intact, stray end tags or not', () => {
    for (const open of ['<span>', '<span></q>', '<div><p>', '<svg>']) {
      const html = `<body>${open.repeat(100_000)}deep${'</span>'.repeat(100_000)}<b>after</b></body>`;
      const doc = parseHtml(html);
      expect(depth(doc), open).toBe(MAX_NESTING);
      expect(rawText(doc), open).toBe('deepafter');
    }
  });

  it('leaves trees within the cap whole', () => {
    const html = `${'<span>'.repeat(MAX_NESTING - 1)}x`;
    expect(depth(parseHtml(`<b>${html}`))).toBe(MAX_NESTING);
    const innermost = (el: AnyNode): Element => {
      let e = el as Element;
      let first: ChildNode | undefined;
      while ((first = childNodes(e)[0]) !== undefined && nodeType(first) === 'tag') e = first as Element;
      return e;
    };
    const first = childNodes(innermost(parseHtml(`<b>${html}`)))[0];
    expect(first === undefined ? undefined : nodeType(first)).toBe('text');
    expect(textOf(first as Text)).toBe('x');
  });
});

/**
 * Start-of-input tricks that once fooled a pre-scan into a wrong view of the markup (149 s for
 * the stray quote), each followed by deep nesting.
 */
const TRICKS: Record<string, string> = {
  'no trick': '',
  'stray double quote': '<b title=a">',
  'stray single quote': "<b title=a'>",
  '< inside attribute values': '<b title="<i>" data-x=<q>',
  'unclosed comment': '<!--',
  'unclosed CDATA': '<![CDATA[',
  'CDATA in SVG': '<svg><![CDATA[',
  '<plaintext>': '<plaintext>',
  '<textarea>': '<textarea>',
  '<script>': '<script>',
  '<style>': '<style>',
  '<title>': '<title>',
  '<title> in SVG': '<svg><title>',
  'stray end tags': '</q>'.repeat(1000),
};

function article(prefix: string, levels: number): string {
  return `<html><body><section data-mw-section-id="0"><p>${prefix}${'<span></q>'.repeat(levels)}deep${'</span>'.repeat(levels)}</p></section></body></html>`;
}

describe('parse time is linear in nesting depth', () => {
  // 4× the depth must cost about 4× the time: quadratic would be 16×. The threshold 8 leaves room
  // for noise; repetitions make the smaller input run long enough (≥ 25 ms) to time at all.
  it.each(Object.entries(TRICKS))('%s', { timeout: 60_000, retry: 2 }, (_name, prefix) => {
    const ratio = cpuRatio(parse, article(prefix, 25_000), article(prefix, 100_000));
    expect(ratio, `time(100,000 levels) / time(25,000 levels) = ${ratio.toFixed(2)}`).toBeLessThan(8);
  });
});
