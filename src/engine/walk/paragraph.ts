/**
 * `<p>`: a paragraph part; in the lead, also a line of the abstract. A displayed formula written
 * inside the paragraph (`<math display="block">` mid-line renders in the <p>) splits it: the text
 * before, the `formula` part, the text after, as the wikitext front door reads the same line.
 */
import type { AnyNode, Element } from '../dom.js';
import { childNodes, isElement, parentOf, tagName } from '../dom.js';
import { paragraphPart } from '../blocks/paragraph.js';
import { formulaPart, isBlockFormula } from '../math.js';
import type { Collector } from '../collector.js';
import type { Rule, Walk } from './types.js';

/**
 * A paragraph from an element or a run of inline nodes (the walker's implicit paragraphs), with
 * `source` as its source element; shared so both kinds feed the abstract the same way. Below the
 * lead, a paragraph is offered as the abstract of a page whose lead has no text (the collector
 * keeps the first); preformatted text (a template's usage code in a `<pre>`) is not prose.
 */
export function paragraphOf(nodes: Element | AnyNode[], source: Element | undefined, walk: Walk, out: Collector, depth: number): void {
  const part = paragraphPart(nodes, walk.ctx, depth);
  if (part === undefined) return;
  if (walk.inAbstract) out.leadParagraph(nodes);
  else if (walk.inBody && !isPreformatted(nodes)) out.bodyParagraph(nodes);
  walk.block(part, source);
}

function isPreformatted(nodes: Element | AnyNode[]): boolean {
  const parent = Array.isArray(nodes) ? (nodes.length > 0 ? parentOf(nodes[0]!) : undefined) : parentOf(nodes);
  return parent !== null && parent !== undefined && isElement(parent) && tagName(parent) === 'pre';
}

export const paragraph: Rule = {
  name: 'paragraph',
  breaks: true,
  test: (el) => tagName(el) === 'p',
  run(el, walk, out, depth) {
    if (!childNodes(el).some(isDisplayedFormula)) return paragraphOf(el, el, walk, out, depth);
    let run: AnyNode[] = [];
    for (const child of childNodes(el)) {
      if (!isDisplayedFormula(child)) {
        run.push(child);
        continue;
      }
      if (run.length > 0) paragraphOf(run, el, walk, out, depth);
      run = [];
      const part = formulaPart(child);
      if (part !== undefined) walk.block(part, child);
    }
    if (run.length > 0) paragraphOf(run, el, walk, out, depth);
  },
};

function isDisplayedFormula(node: AnyNode): node is Element {
  return isElement(node) && isBlockFormula(node);
}
