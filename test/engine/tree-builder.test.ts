/**
 * tree-builder.ts builds, within the nesting cap, exactly the tree htmlparser2's `parseDocument`
 * builds: on every corpus input and on generated markup dense in the cases its rules handle
 * (implied end tags, void and foreign elements, raw-text elements, repairs, comments, CDATA).
 */
import fc from 'fast-check';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { readInput } from '../../src/engine/input.js';
import type { AnyNode, Document } from '../../src/engine/dom.js';
import { attributes, childNodes, directiveName, isComment, isDirective, isElement, isParentNode, isText, nextSibling, nodeType, parentOf, parseHtml, previousSibling, tagName, textOf } from '../../src/engine/dom.js';
import { corpusCases, corpusDir, loadInput } from '../../scripts/conformance/corpus.js';

const OPTIONS = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };

/** A node of either tree, by the fields the engine reads. */
interface Node {
  type: string;
  name?: string;
  attribs?: Record<string, string>;
  data?: string;
  children?: Node[];
}

/** One node of our tree as a Node, read through dom.ts's accessors. */
function ours(node: AnyNode): Node {
  const type = nodeType(node);
  if (isElement(node)) return { type, name: tagName(node), attribs: Object.fromEntries(attributes(node)) };
  if (isText(node) || isComment(node)) return { type, data: textOf(node) };
  if (isDirective(node)) return { type, name: directiveName(node), data: textOf(node) };
  return { type };
}

/** One node's own fields (not its children), for comparison and for failure messages. */
function describeNode(node: Node): string {
  const attribs = node.attribs === undefined ? '' : JSON.stringify(Object.entries(node.attribs));
  return `${node.type} ${node.name ?? ''} ${attribs} ${JSON.stringify(node.data ?? null)}`.slice(0, 300);
}

function sameFields(a: Node, b: Node): boolean {
  if (a.type !== b.type || a.name !== b.name || a.data !== b.data) return false;
  if (a.attribs === undefined || b.attribs === undefined) return a.attribs === b.attribs;
  const ka = Object.keys(a.attribs);
  const kb = Object.keys(b.attribs);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a.attribs![k] === b.attribs![k]);
}

/** The first difference between the two trees of `html`, walked in step; undefined when equal. */
function difference(html: string): string | undefined {
  const stack: [Node, AnyNode][] = [[parseDocument(html, OPTIONS) as unknown as Node, parseHtml(html)]];
  for (let n = 0; stack.length > 0; n++) {
    const [theirs, node] = stack.pop()!;
    const mine = ours(node);
    if (!sameFields(theirs, mine)) return `node ${n} in document order: parseDocument ${describeNode(theirs)} | ours ${describeNode(mine)}`;
    const a = theirs.children ?? [];
    const b = childNodes(node);
    if (a.length !== b.length) return `node ${n} ${describeNode(mine)}: ${a.length} children in parseDocument, ${b.length} in ours`;
    for (let i = a.length - 1; i >= 0; i--) stack.push([a[i]!, b[i]!]);
  }
  return undefined;
}

/** parent, prev and next agree with the children arrays everywhere. */
function linksHold(doc: Document): boolean {
  const stack: AnyNode[] = [doc];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isParentNode(node)) continue;
    const kids = childNodes(node);
    for (let i = 0; i < kids.length; i++) {
      const kid = kids[i]!;
      if (parentOf(kid) !== node || previousSibling(kid) !== (kids[i - 1] ?? null) || nextSibling(kid) !== (kids[i + 1] ?? null)) return false;
      stack.push(kid);
    }
  }
  return true;
}

/** Markup tokens chosen to exercise every rule the builder copies from htmlparser2's Parser. */
const token = fc.oneof(
  fc.constantFrom(
    '<p>', '</p>', '<li>', '</li>', '<ul>', '</ul>', '<table>', '<tr>', '<td>', '<th>', '<tbody>', '<thead>', '</table>',
    '<div>', '</div>', '<a href="./X">', '</a>', '<b>', '</b>', '<i>', '</i>', '<span class="x y">', '</span>',
    '<form>', '</form>', '<select>', '<option>', '<optgroup>', '<input>', '<button>', '<textarea>', '</textarea>',
    '<h1>', '<h2>', '</h2>', '<dd>', '<dt>', '<rt>', '<rp>', '<body>', '<head>', '<link>', '<script>', '</script>',
    '<style>', '</style>', '<title>', '</title>', '<xmp>', '</xmp>', '<plaintext>', '<br>', '</br>', '<br/>', '<hr>',
    '<img src=x alt="a&amp;b">', '<image>', '</img>', '<svg>', '</svg>', '<math>', '</math>', '<foreignObject>',
    '</foreignObject>', '<foreignobject>', '<clipPath>', '</clippath>', '<path/>', '<mi>', '</mi>', '<desc>',
    '<DIV CLASS=Up>', '</DIV>', '<b title=a">', "<b title='<i>'>", '<p id=1 id=2>', '<x-y:z>', '</x-y:z>', '</q>',
    '<!-- c -->', '<!-->', '<!--', '<![CDATA[x<y]]>', '<![CDATA[', '<!doctype html>', '<?php x ?>', '<!x>',
    '<iframe>', '</iframe>', '<noembed>', '</noembed>', '<svg><style>', '<a title="&amp=', '&copy', '&#0;',
    '</ti', '</TEXTA', '</title', '\x1c/',
    '&amp;', '&lt;', '&notit;', '&#x41;', '&', '<', '>', '</', '< b>', '<>', '"', "'", '=', ' ', '\n',
  ),
  fc.string({ unit: fc.constantFrom('a', 'b', ' ', '<', '>', '/', '&', '"', "'", '=', '-', '!', '[', ']'), maxLength: 8 }),
);

describe('tree builder (tree-builder.ts) against htmlparser2 parseDocument', () => {
  it('builds the same tree, with consistent links, on generated markup', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 60 }), (tokens) => {
        const html = tokens.join('');
        expect(difference(html), html).toBeUndefined();
        expect(linksHold(parseHtml(html)), html).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });

  it('builds the same tree on hand-picked edge cases', () => {
    const cases = [
      '<form><form a=1><input></form>after',
      '<svg><foreignObject><p>x</foreignObject></svg>',
      '<svg><clippath><path/></clippath><title>t</title></svg><title>a<b>c</title>',
      '<p>a</p></p><table><tr><td>1<td>2<tr><td>3</table>',
      '<b title=a">x</b>',
      '<div><p>unterminated <span class="x',
      '<textarea><span>&amp;</textarea><script>if (a<b) {}</script>',
      '<math><![CDATA[raw]]></math><![CDATA[html]]>',
      // References are decoded by the builder, not the tokenizer: raw text stays raw only where
      // the tokenizer reads it raw (not in foreign content), attribute values in attribute mode.
      '<svg><script>&amp;</script><style>&lt;</style></svg><script>&amp;</script>',
      '<math><mi><style>&amp;</style></mi><xmp>&amp;</xmp></math><iframe>&amp;</iframe><noembed>&amp;</noembed>',
      '<noframes>&amp;</noframes><title>&amp;&notit;</title><plaintext>&amp;</plaintext>',
      '<a href="?a=1&amp=2&copy=3&copy;&#x41;&#0;" title=&amp&lt;x>&amp&ampx &#128512;&#xD800;</a>',
      // The tokenizer reports the text after this broken end tag from position -1, which a slice
      // reads from the end: the tree keeps ranges of the page and must read them alike.
      '</TEXTA/',
      'a</TEXTA/',
      '<p title="a" title="b" TITLE=c>repeated attributes: the first wins</p><p id="x" ID=y>',
    ];
    for (const html of cases) expect(difference(html), html).toBeUndefined();
  });

  const dir = corpusDir();
  it.skipIf(dir === undefined)('builds the same tree on every corpus input', () => {
    const cases = corpusCases(dir!);
    expect(cases.length).toBeGreaterThanOrEqual(67);
    for (const c of cases) {
      const html = readInput(loadInput(c), Number.MAX_SAFE_INTEGER).html;
      expect(difference(html), c.name).toBeUndefined();
    }
  }, 120_000);
});
