/**
 * The source page, made safe to show: the input HTML is parsed with the engine's own tree
 * builder (bundled into the page) and written out again from an allowlist, so the side-by-side
 * pane can show it without running or loading anything:
 *
 * - scripts, styles, embedded content, forms and metadata are dropped with their contents;
 * - images become a text placeholder (no request leaves the page), links keep their text only;
 * - attributes are kept from a short allowlist (no `style`, no `on*`, no URLs at all);
 * - elements not on the list are kept as a plain `<span>` or `<div>` holding their children.
 *
 * Elements are counted in document order exactly as the engine counts them for its source
 * hints (engine/source-positions.ts, same tree builder, same count), and the hinted ones are
 * marked `data-ws="N"`: that is how the explorer finds the element behind a Part.
 */
import type { AnyNode, Document, Element } from '../../engine/dom.js';
import { attr, attributes as attributeList, childNodes, isDocument, isElement, isText, nodeType, parentOf, tagName, textOf, withDocument } from '../../engine/dom.js';
import { elementOrder } from '../../engine/source-positions.js';
import { esc } from '../html.js';

/** Elements written as they are (with allowed attributes only). */
const KEPT = new Set([
  'a', 'abbr', 'article', 'aside', 'b', 'bdi', 'bdo', 'big', 'blockquote', 'br', 'caption', 'center', 'cite', 'code', 'col',
  'colgroup', 'dd', 'del', 'dfn', 'div', 'dl', 'dt', 'em', 'figcaption', 'figure', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5',
  'h6', 'header', 'hr', 'i', 'ins', 'kbd', 'li', 'main', 'mark', 'nav', 'ol', 'p', 'pre', 'q', 'rp', 'rt', 'ruby', 's',
  'samp', 'section', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead',
  'time', 'tr', 'tt', 'u', 'ul', 'var', 'wbr',
]);

/** Dropped with everything inside: active, embedded, form or metadata content. */
const DROPPED = new Set([
  'applet', 'audio', 'base', 'button', 'canvas', 'datalist', 'dialog', 'embed', 'form', 'frame', 'frameset', 'head',
  'iframe', 'input', 'link', 'map', 'math', 'meta', 'meter', 'noscript', 'object', 'option', 'optgroup', 'output',
  'picture', 'portal', 'progress', 'script', 'select', 'source', 'style', 'svg', 'template', 'textarea', 'title',
  'track', 'video',
]);

const VOID = new Set(['br', 'col', 'hr', 'wbr']);

/** Attributes kept; none of them can hold a URL, a script or a style. */
const ATTRIBUTES = new Set(['class', 'colspan', 'rowspan', 'scope', 'lang', 'dir', 'title', 'start', 'reversed']);

/** Containers whose unknown children read best as blocks. */
const INLINE_PARENTS = new Set(['a', 'b', 'i', 'span', 'small', 'sup', 'sub', 'em', 'strong', 'code', 'cite', 'abbr', 'q', 'u', 's', 'p']);

export interface SanitizedSource {
  /** The page's body content, safe to put in a document. */
  body: string;
  /** Hinted elements found with the tag the hint names. */
  found: number;
  /** Hinted elements whose tag differs, or that do not exist: the engine counted another tree. */
  mismatched: number;
}

/**
 * `hints`: element index → tag name, as in the Article's `source` hints. Only these elements
 * get `data-ws`, so the pane's DOM carries no more than it needs.
 */
export function sanitizeSource(html: string, hints: ReadonlyMap<number, string> = new Map()): SanitizedSource {
  return withDocument(html, (doc) => sanitizeDocument(doc, hints));
}

function sanitizeDocument(doc: Document, hints: ReadonlyMap<number, string>): SanitizedSource {
  const order = elementOrder(doc);
  let found = 0;
  for (const [el, index] of order) {
    const tag = hints.get(index);
    if (tag !== undefined && tag === tagName(el)) found += 1;
  }
  const out: string[] = [];
  // Iterative: the tree builder allows 2,000 levels, deeper than a recursive writer should go.
  const stack: (AnyNode | string)[] = [...childNodes(doc)].reverse();
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    if (isText(item)) {
      out.push(esc(textOf(item)));
      continue;
    }
    if (!isElement(item) || nodeType(item) !== 'tag' || DROPPED.has(tagName(item))) continue;
    const index = order.get(item);
    const mark = index !== undefined && hints.has(index) ? ` data-ws="${index}"` : '';
    if (tagName(item) === 'img') {
      const alt = attr(item, 'alt') ?? '';
      out.push(`<span class="ws-img"${mark}>[image${alt === '' ? '' : `: ${esc(alt)}`}]</span>`);
      continue;
    }
    const name = KEPT.has(tagName(item)) ? tagName(item) : standIn(item);
    out.push(`<${name}${attributes(item)}${mark}>`);
    if (VOID.has(name)) continue;
    stack.push(`</${name}>`);
    const kids = childNodes(item);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return { body: out.join(''), found, mismatched: hints.size - found };
}

/** What an element off the list is written as: html/body/unknown tags keep their children. */
function standIn(el: Element): string {
  const parent = parentOf(el);
  return parent !== null && !isDocument(parent) && INLINE_PARENTS.has(tagName(parent as Element)) ? 'span' : 'div';
}

function attributes(el: Element): string {
  let out = '';
  for (const [name, value] of attributeList(el)) {
    if (ATTRIBUTES.has(name)) out += ` ${name}="${esc(value)}"`;
  }
  return out;
}

/**
 * The pane's document: the sanitised body, the explorer's stylesheet for it, and a policy of
 * its own that allows nothing else (no script runs anyway: the iframe is sandboxed without
 * `allow-scripts`; the policy also stops any request the sanitiser might have missed).
 */
export function sourceDocument(body: string, origin: string): string {
  const policy = `default-src 'none'; style-src ${origin}; img-src data:`;
  return (
    `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${esc(policy)}">` +
    `<link rel="stylesheet" href="${esc(origin)}/explorer/source.css"></head><body>${body}</body></html>`
  );
}

/** Wikitext as a source: plain text (no hints; the engine cannot point into wikitext). */
export function wikitextBody(wikitext: string): string {
  return `<pre class="wikitext">${esc(wikitext)}</pre>`;
}
